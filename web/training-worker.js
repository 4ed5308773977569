// The training worker: a second engine (headlab_trainer.wasm) that trains what the page hands it,
// the run while the learner has Play pressed and the one-vs-many comparison and experiment while
// they run, and makes the probes of a model, so training and drawing each get a core of their
// own. It sends back what they reached about four times a second, and right away when a timeline
// sample is taken, the comparison reaches its target, a head is probed or the experiment ends.
// Messages in: {type: 'start', header, state}, {type: 'stop', job} (0 the run, 1 the comparison,
// 2 the probes, 3 the experiment), {type: 'learningRate', value}; out: {type: 'update', header,
// state}, {type: 'failed', reason}. See src/app/training_worker.h for the protocol.
'use strict';

const UPDATE_EVERY_MS = 250;
const CHUNK_MS = 30;  // a start, stop or learning rate waits at most this long (or a head's probe)

let ready = false;
let running = false;
let lastUpdate = 0;
const waiting = [];  // messages that came before the module was ready

// Out of memory throws, which stops the worker: the page then trains by itself.
function copyIn(bytes) {
  const pointer = Module._malloc(Math.max(1, bytes.length));
  if (!pointer) throw new Error('out of memory for a run of ' + bytes.length + ' bytes');
  Module.HEAPU8.set(bytes, pointer);
  return pointer;
}

function withString(text, use) {
  const size = Module.lengthBytesUTF8(text) + 1;
  const pointer = Module._malloc(size);
  try {
    Module.stringToUTF8(text, pointer, size);
    return use(pointer);
  } finally {
    Module._free(pointer);
  }
}

function postUpdate() {
  const header = Module.UTF8ToString(Module._headlab_worker_update());
  const pointer = Module._headlab_worker_update_bytes();
  const state = Module.HEAPU8.slice(pointer, pointer + Module._headlab_worker_update_size()).buffer;
  self.postMessage({ type: 'update', header, state }, [state]);
  lastUpdate = performance.now();
}

// Yields between chunks through a message port, not setTimeout, whose nested calls are clamped to
// 4 ms: messages from the page are handled in between. One chunk is scheduled at a time, however
// often the run is stopped and started again.
const yieldPort = new MessageChannel();
let scheduled = false;
function schedule() {
  if (scheduled) return;
  scheduled = true;
  yieldPort.port2.postMessage(null);
}
yieldPort.port1.onmessage = () => {
  scheduled = false;
  if (!running) return;
  const updateDue = Module._headlab_worker_train(CHUNK_MS);
  if (updateDue || performance.now() - lastUpdate >= UPDATE_EVERY_MS) postUpdate();
  running = Module._headlab_worker_busy() !== 0;  // the comparison pauses itself at its target
  if (running) schedule();
};

function handle(message) {
  handleMessage(message);
  running = Module._headlab_worker_busy() !== 0;
  if (running) schedule();
}

function handleMessage(message) {
  if (message.type === 'start') {
    const state = new Uint8Array(message.state);
    const pointer = copyIn(state);
    let refusal;
    try {
      refusal = withString(message.header, (header) => Module.UTF8ToString(Module._headlab_worker_start(header, pointer, state.length)));
    } finally {
      Module._free(pointer);
    }
    if (refusal) {
      self.postMessage({ type: 'update', header: refusal, state: new ArrayBuffer(0) });
    } else {
      lastUpdate = performance.now();
    }
  } else if (message.type === 'stop') {
    Module._headlab_worker_stop(message.job);
  } else if (message.type === 'learningRate') {
    Module._headlab_worker_set_learning_rate(message.value);
  }
}

self.onmessage = (event) => {
  if (ready) handle(event.data);
  else waiting.push(event.data);
};

self.Module = {
  onRuntimeInitialized() {
    const error = Module.UTF8ToString(Module._headlab_worker_init());
    if (error) {
      self.postMessage({ type: 'failed', reason: error });
      return;
    }
    ready = true;
    for (const message of waiting.splice(0)) handle(message);
  },
  onAbort(reason) {
    running = false;
    self.postMessage({ type: 'failed', reason: String(reason) });
  },
};
importScripts('headlab_trainer.js');
