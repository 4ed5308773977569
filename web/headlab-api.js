// window.headlab: the automation API (docs/js-api.md). Every call goes through one exported C
// function with a JSON request; errors come back as thrown Error objects with a readable message.
'use strict';
(function () {
  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // a failed start is reported on the page; no unhandled rejection

  // Calls an exported C function with one string argument; `read` turns its result into the answer
  // (by default the C string it points to). The argument is copied into the wasm heap, not onto its
  // stack as Module.ccall would: a model file or saved state is easily larger than the 5 MB stack,
  // and overflowing it overwrote the module's memory.
  function callWithString(name, text, read = (result) => Module.UTF8ToString(result >>> 0)) {
    const size = Module.lengthBytesUTF8(text) + 1;
    // `>>> 0`: the heap may grow past 2 GB (a GPT-2 checkpoint), and wasm hands pointers over signed.
    const pointer = Module._malloc(size) >>> 0;
    if (!pointer) throw new Error('HeadLab is out of memory for a request of ' + size + ' bytes');
    try {
      Module.stringToUTF8(text, pointer, size);
      return read(Module['_' + name](pointer));
    } finally {
      Module._free(pointer);
    }
  }

  // The same with several strings, each copied into the heap; returns the C function's string.
  function callWithStrings(name, ...texts) {
    const pointers = [];
    try {
      for (const text of texts) {
        const size = Module.lengthBytesUTF8(text) + 1;
        const pointer = Module._malloc(size) >>> 0;
        if (!pointer) throw new Error('HeadLab is out of memory for ' + size + ' bytes');
        pointers.push(pointer);
        Module.stringToUTF8(text, pointer, size);
      }
      return Module.UTF8ToString(Module['_' + name](...pointers) >>> 0);
    } finally {
      for (const pointer of pointers) Module._free(pointer);
    }
  }

  function call(request) {
    if (!window.Module || !Module.calledRun) throw new Error('HeadLab is not loaded yet');
    if (window.headlabCrash.stopped) throw new Error('HeadLab has stopped after an internal error; reload the page');
    let text;
    try {
      text = callWithString('headlab_call', JSON.stringify(request));
    } catch (error) {
      if (window.headlabCrash.isTrap(error)) window.headlabCrash.stop(error.message);
      throw error;
    }
    const response = JSON.parse(text);
    if (!response.ok) throw new Error(response.error);
    return response.result;
  }

  // JSON cannot carry NaN or Infinity: send them as strings so the engine can name them.
  function number(value) { return Number.isFinite(value) ? value : String(value); }
  function numbers(options) {
    const out = {};
    for (const [key, value] of Object.entries(options)) out[key] = typeof value === 'number' ? number(value) : value;
    return out;
  }

  window.headlab = {
    ready,
    state: () => call({ op: 'state' }),
    setText: (text) => call({ op: 'setText', text: String(text) }),
    // Random symbols A..J, repeated once (for induction heads; best with setEmbedding("symbols")).
    setRepeatedSequence: (length = 8, seed = 1) => call({ op: 'setRepeatedSequence', length, seed }),
    setHeadCount: (count, layer) => call(layer === undefined ? { op: 'setHeadCount', count }
                                                              : { op: 'setHeadCount', count, layer }),
    setLayerCount: (count) => call({ op: 'setLayerCount', count }),
    setWeight: (layer, head, which, row, col, value) =>
      call({ op: 'setWeight', layer, head, which, row, col, value: number(value) }),
    selectHead: (layer, head) => call({ op: 'selectHead', layer, head }),
    exportModel: () => call({ op: 'exportModel' }),
    // Circuits read from the weights (docs/js-api.md, "Circuits"; Elhage et al. 2021).
    circuits: (layer, head) => call({ op: 'circuits', layer, head }),
    composition: (layer_a = 0, layer_b = layer_a + 1) => call({ op: 'composition', layer_a, layer_b }),
    // Layer dependence: per layer mean attention distance, row entropy and role shares.
    layerProfile: () => call({ op: 'layerProfile' }),
    // Michel et al.'s pruning curve of the lab model: importance order against random orders.
    pruningCurve: (random_orders = 5) => call({ op: 'pruningCurve', random_orders }),
    // Queries and keys of many sentences in one picture (AttentionViz), as the Q & K tab draws them.
    queryKeyMap: (layer, head) => call(layer === undefined ? { op: 'queryKeyMap' } : { op: 'queryKeyMap', layer, head }),
    // A head across the same sentences (exBERT): where its strongest attention goes; options
    // {layer, head, count, search}, the selected head by default.
    headCorpus: (options = {}) => call({ op: 'headCorpus', ...options }),
    loadModel: (model) => call({ op: 'loadModel', json: typeof model === 'string' ? model : JSON.stringify(model) }),
    applyPreset: (layer, head, preset) => call({ op: 'applyPreset', layer, head, preset }),
    // The other edits (src/app/action.h; each is one undo step, refused with a reason naming the field).
    setPruned: (layer, head, pruned) => call({ op: 'setPruned', layer, head, pruned }),
    pruneLeastImportant: (layer, k) => call({ op: 'pruneLeastImportant', layer, k }),
    setLine: (options) => call({ op: 'setLine', ...options }),      // {layer, head, which, axis, index, values}
    scaleLine: (options) => call({ op: 'scaleLine', ...numbers(options) }),  // {layer, head, which, axis, index, factor}
    zeroOutputBlock: (layer, head) => call({ op: 'zeroOutputBlock', layer, head }),
    zeroOutputBlockAll: (layer) => call({ op: 'zeroOutputBlockAll', layer }),
    reset: () => call({ op: 'reset' }),
    resetModel: () => call({ op: 'resetModel' }),
    loadTrainedModel: () => call({ op: 'loadTrainedModel' }),
    loadTextModel: ({ attention } = {}) => call(attention ? { op: 'loadTextModel', attention } : { op: 'loadTextModel' }),
    loadStartingModel: () => call({ op: 'loadStartingModel' }),
    setCausal: (on) => call({ op: 'setCausal', on }),
    setSpecialTokens: (on) => call({ op: 'setSpecialTokens', on }),
    setHeadDim: (layer, d_k, d_v) => call(d_v === undefined ? { op: 'setHeadDim', layer, d_k }
                                                            : { op: 'setHeadDim', layer, d_k, d_v }),
    setDModel: (d_model) => call({ op: 'setDModel', d_model }),
    setLayerOptions: (layer, options = {}) => call({ op: 'setLayerOptions', layer, ...options }),  // {residual, norm, ffn}
    setEmbedding: (embedding) => call({ op: 'setEmbedding', embedding }),   // "named" | "random"
    setPositional: (positional) => call({ op: 'setPositional', positional }),  // "sinusoidal" | "learned" | "none"
    randomize: (seed) => call({ op: 'randomize', seed }),
    resetHead: (layer, head, seed) => call({ op: 'resetHead', layer, head, seed }),
    setTheme: (theme) => call({ op: 'setTheme', theme }),                   // "dark" | "light"
    // Lessons (docs/lessons.md): state().lesson tells where the learner is and whether the goal holds.
    lessons: () => call({ op: 'lessons' }),
    startLesson: (lesson, step = 0) => call({ op: 'startLesson', lesson, step }),
    showMe: () => call({ op: 'showMe' }),
    nextStep: () => call({ op: 'nextStep' }),
    previousStep: () => call({ op: 'previousStep' }),
    resetStep: () => call({ op: 'resetStep' }),
    hint: () => call({ op: 'hint' }),
    leaveLesson: () => call({ op: 'leaveLesson' }),
    resumeLesson: () => call({ op: 'resumeLesson' }),
    setLanguage: (language) => call({ op: 'setLanguage', language }),
    resetProgress: () => call({ op: 'resetProgress' }),
    request: (request) => call(request),
    // GPT-2 checkpoints (docs/js-api.md, "Opening a checkpoint"): File objects of model.safetensors
    // and config.json; {headCount} stands in for config.json. Resolves to {ok} or {ok: false, error}.
    openCheckpoint: (files, options = {}) => window.headlabCheckpoint.open(files, options),
    // The steps openCheckpoint takes (the bytes go through headlab_checkpoint_feed, not JSON).
    checkpointBegin: (options) => call({ op: 'checkpointBegin', ...options }),  // {size, header, config, headCount, name}
    checkpointState: () => call({ op: 'checkpointState' }),
    checkpointFinish: () => call({ op: 'checkpointFinish' }),
    checkpointCancel: () => call({ op: 'checkpointCancel' }),
    // Ids of the model's subword vocabulary as the input (models with a tokenizer: checkpoints).
    setTokenIds: (ids) => call({ op: 'setTokenIds', ids }),
    // The whole lab (model, sentence, selection, lesson progress, language, theme) as JSON, and back.
    saveState: () => call({ op: 'saveState' }),
    loadState: (state) => call({ op: 'loadState', json: typeof state === 'string' ? state : JSON.stringify(state) }),
    copyLink: () => window.headlabPersistence.copyLink(),
    shareLink: () => call({ op: 'shareLink' }),
    openShareLink: (fragment) => call({ op: 'openShareLink', fragment }),
    stateKey: () => call({ op: 'stateKey' }),
    notify: (text, level = 'info') => call({ op: 'notify', level, text }),
    undo: () => call({ op: 'undo' }),
    // Screen rectangle {x, y, width, height} (CSS pixels) of a named widget, or null
    // (names: src/ui/widget_ids.h, e.g. "heads/plus", "editor/cell/5/0", "overview/head/0/2").
    widgetRect: (name) => (window.headlabCrash.stopped ? null
      : JSON.parse(callWithString('headlab_widget_rect', String(name)))),
    // Input events received but not yet acted on (keys typed within one frame land over the next
    // few): 0 once the lab has caught up with everything the browser sent it.
    inputPending: () => (window.headlabCrash.stopped ? 0 : Module._headlab_input_pending()),
    // The open views, "detail.side" ("arcs.labels"): share links carry them (web/persistence.js).
    view: () => (window.headlabCrash.stopped ? '' : Module.UTF8ToString(Module._headlab_view() >>> 0)),
    setView: (view) => (window.headlabCrash.stopped ? false
      : callWithString('headlab_set_view', String(view).slice(0, 64), (known) => known === 1)),
    // The last export made through the Export menu: {kind, name, ...}.
    lastExport: () => (window.headlabExports && window.headlabExports.last) || null,
    redo: () => call({ op: 'redo' }),
    // In-page training (docs/js-api.md, "Training"): each returns the training state (or its part).
    trainStart: (options = {}) => call({ op: 'trainStart', ...options }),   // {seed, lr, task}: a seed or task starts a new run
    // The request a lesson makes: the run follows it at the next frame and the Training tab opens.
    requestTraining: (options = {}) => call({ op: 'requestTraining', ...options }),  // {task, seed, run, fresh}
    requestHeadCountExperiment: (options = {}) => call({ op: 'requestHeadCountExperiment', ...options }),  // {run, fresh, task}
    trainPause: () => call({ op: 'trainPause' }),
    trainStep: (steps = 1) => call({ op: 'trainStep', steps }),
    trainReset: (options = {}) => call({ op: 'trainReset', ...options }),   // {seed, lr, task}
    trainSettings: (options) => call({ op: 'trainSettings', ...options }),  // {lr, speed: share of each frame}
    trainState: (options = {}) => call({ op: 'trainState', ...options }),   // {losses: true} adds every step's loss
    trainUseModel: () => call({ op: 'trainUseModel' }),
    trainBenchmark: (seconds = 3) => call({ op: 'trainBenchmark', seconds }),
    probe: (options = {}) => call({ op: 'probe', ...options }),             // {wait: true}: all heads now
    compareHeads: (options = {}) => call({ op: 'compareHeads', ...options }),  // {run}, {steps}, {losses}
    // 1, 2, 4, 8 heads at the same width x 3 seeds, by held-out loss: {} starts it running, {run}, {steps}.
    headCountExperiment: (options = {}) => call({ op: 'headCountExperiment', ...options }),
    // The actions the training calls above are made of, as the Training tab's controls emit them.
    playTraining: (run = true) => call({ op: 'playTraining', run }),
    stepTraining: (steps = 1) => call({ op: 'stepTraining', steps }),
    newTrainingRun: (options = {}) => call({ op: 'newTrainingRun', ...options }),  // {seed, task}
    setLearningRate: (learning_rate) => call({ op: 'setLearningRate', learning_rate }),
    setTrainingSpeed: (speed) => call({ op: 'setTrainingSpeed', speed }),
    startProbes: (options = {}) => call({ op: 'startProbes', ...options }),  // {wait}
    startComparison: () => call({ op: 'startComparison' }),
    setComparisonRunning: (run) => call({ op: 'setComparisonRunning', run }),
    stepComparison: (steps = 1) => call({ op: 'stepComparison', steps }),
    startExperiment: () => call({ op: 'startExperiment' }),
    setExperimentRunning: (run) => call({ op: 'setExperimentRunning', run }),
    stepExperiment: (steps = 1) => call({ op: 'stepExperiment', steps }),
    useTrainedModel: () => call({ op: 'useTrainedModel' }),
    prepareTraining: () => call({ op: 'prepareTraining' }),
    setTrainingInput: (input) => call({ op: 'setTrainingInput', input }),
    // A lesson move by name ('next', 'previous', 'reset_step', 'show_me', 'hint', 'leave', 'resume', 'reset_progress').
    moveInLesson: (move) => call({ op: 'moveInLesson', move }),
    // Speed (docs/js-api.md, "Benchmarks"): median ms per run, timed synchronously in this page.
    benchmark: (options = {}) => call({ op: 'benchmark', ...numbers(options) }),        // {n, d_model, heads, reps}
    benchmarkLesson: (options = {}) => call({ op: 'benchmarkLesson', ...numbers(options) }),  // {reps, gold, layer, size}
    benchmarkAnalysis: (options = {}) => call({ op: 'benchmarkAnalysis', ...numbers(options) }),  // {reps, d_model, gold, change}
    benchmarkModel: (options = {}) => call({ op: 'benchmarkModel', ...numbers(options) }),  // {reps}: the lab's own model
    benchmarkBlock: (options = {}) => call({ op: 'benchmarkBlock', ...numbers(options) }),  // {n, d_model, heads, reps}: a GPT-2 block
    _callWithString: callWithString,
    _callWithStrings: callWithStrings,
    _resolveReady: () => resolveReady(),
    _rejectReady: (error) => rejectReady(error),
  };
})();
