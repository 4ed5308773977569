// Opening a GPT-2 checkpoint from disk (docs/js-api.md, "Opening a checkpoint"): model.safetensors
// and its config.json, picked together or dropped on the page. The file is read a slice at a time
// (File.slice, 8 MiB) and each slice is copied into the module's heap and fed to the reader, so a
// 500 MB file is never held whole in JavaScript; a bar shows the progress and Cancel stops it. The
// lab keeps the learner's model until the new one is complete: any failure leaves it as it was.
//
// Nothing leaves the machine. GPT-2's tokenizer files (gpt2/, 1.5 MB) are fetched from the page's
// own site only when a checkpoint is opened, not with the first frame.
'use strict';
(function () {
  const pageText = (key, values) => window.headlabPageText.text(key, values);
  let cancelled = false;
  let busy = false;
  let tokenizerLoad = null;

  function request(op, fields = {}) { return window.headlab.request(Object.assign({ op }, fields)); }

  // GPT-2's encoder.json and vocab.bpe, once per page.
  function loadGpt2Tokenizer() {
    if (!tokenizerLoad) {
      tokenizerLoad = (async () => {
        const texts = await Promise.all(['gpt2/encoder.json', 'gpt2/vocab.bpe'].map(async (url) => {
          const response = await fetch(url);
          if (!response.ok) throw new Error(pageText('download_failed', { url, status: response.status }));
          return response.text();
        }));
        const error = window.headlab._callWithStrings('headlab_set_gpt2_tokenizer', texts[0], texts[1]);
        if (error) throw new Error(error);
      })();
      tokenizerLoad.catch(() => { tokenizerLoad = null; });  // a later checkpoint tries again
    }
    return tokenizerLoad;
  }

  // [SECTION] The progress panel: a bar, what is being read, Cancel; or the head count asked for.
  function panel() {
    let box = document.getElementById('checkpoint-panel');
    if (!box) {
      box = document.createElement('div');
      box.id = 'checkpoint-panel';
      box.setAttribute('role', 'dialog');
      box.setAttribute('aria-live', 'polite');
      document.body.appendChild(box);
    }
    box.hidden = false;
    box.replaceChildren();
    return box;
  }

  function closePanel() {
    const box = document.getElementById('checkpoint-panel');
    if (box) box.hidden = true;
  }

  function button(label, onClick, id) {
    const element = document.createElement('button');
    element.type = 'button';
    element.textContent = label;
    if (id) element.id = id;
    element.addEventListener('click', onClick);
    return element;
  }

  function showProgress(name, fed, total) {
    let box = document.getElementById('checkpoint-panel');
    let bar = document.getElementById('checkpoint-progress');
    if (!bar || box.hidden) {
      box = panel();
      const label = document.createElement('p');
      label.id = 'checkpoint-progress-label';
      bar = document.createElement('progress');
      bar.id = 'checkpoint-progress';
      bar.max = 1;
      box.append(label, bar, button(pageText('checkpoint_cancel'), () => { cancelled = true; }, 'checkpoint-cancel'));
    }
    bar.value = total > 0 ? fed / total : 0;
    document.getElementById('checkpoint-progress-label').textContent =
      pageText('checkpoint_reading', { name, read: Math.round(fed / 1048576), total: Math.round(total / 1048576) });
  }

  // Without config.json the head count is the one thing the tensors do not say.
  function askHeadCount(name) {
    return new Promise((resolve) => {
      const box = panel();
      const label = document.createElement('label');
      label.textContent = pageText('checkpoint_heads_prompt', { name });
      const input = document.createElement('input');
      input.type = 'number';
      input.min = '1';
      input.max = '32';
      input.value = '12';
      input.id = 'checkpoint-head-count';
      label.append(input);
      const open = () => { const value = Number(input.value); closePanel(); resolve(value >= 1 && value <= 32 ? Math.round(value) : 0); };
      input.addEventListener('keydown', (event) => { if (event.key === 'Enter') open(); });
      box.append(label, button(pageText('checkpoint_open'), open, 'checkpoint-head-count-open'),
                 button(pageText('checkpoint_cancel'), () => { closePanel(); resolve(0); }, 'checkpoint-head-count-cancel'));
      input.focus();
    });
  }

  function fail(message) {
    closePanel();
    window.headlabPersistence.notify(pageText('checkpoint_failed', { reason: message }), 'error');
    return { ok: false, error: message };
  }

  // [SECTION] Reading

  async function readHeader(file) {
    if (file.size < 8) throw new Error(pageText('checkpoint_too_short', { name: file.name }));
    const first = new DataView(await file.slice(0, 8).arrayBuffer());
    const length = Number(first.getBigUint64(0, true));
    if (length > 100 * 1048576 || 8 + length > file.size) throw new Error(pageText('checkpoint_bad_header', { name: file.name }));
    return new TextDecoder().decode(await file.slice(8, 8 + length).arrayBuffer());
  }

  // Opens `files` (a FileList or array): one *.safetensors, optionally one *.json (config.json).
  // The first `end` bytes of `file`, a piece at a time: next() resolves to a Uint8Array, or null at
  // the end. Read by web/checkpoint-reader.js, or on this thread where a worker cannot start.
  function pieces(file, end) {
    let worker = null;
    try { worker = new Worker('checkpoint-reader.js'); } catch (e) { worker = null; }
    if (!worker) {
      const reader = file.slice(0, end).stream().getReader();
      return {
        next: async () => { const { done, value } = await reader.read(); return done ? null : value; },
        fed: () => {},
        close: () => { reader.cancel().catch(() => {}); },
      };
    }
    const arrived = [];
    let waiting = null;
    const deliver = (message) => {
      if (waiting) { const resolve = waiting; waiting = null; resolve(message); } else arrived.push(message);
    };
    worker.onmessage = (event) => deliver(event.data);
    worker.onerror = (event) => { event.preventDefault(); deliver({ error: event.message || 'the file could not be read' }); };
    worker.postMessage({ file, end });
    return {
      next: async () => {
        const message = arrived.length ? arrived.shift() : await new Promise((resolve) => { waiting = resolve; });
        if (message.error) throw new Error(message.error);
        return message.done ? null : new Uint8Array(message.piece.buffer, message.piece.byteOffset, message.piece.byteLength);
      },
      fed: (bytes) => worker.postMessage({ fed: bytes }),
      close: () => worker.terminate(),
    };
  }

  // options.headCount stands in for config.json; without either the page asks. Resolves to
  // {ok: true} or {ok: false, error}; the lab says the same in a notice.
  async function open(files, options = {}) {
    const list = Array.from(files || []);
    const weights = list.find((f) => /\.safetensors$/i.test(f.name));
    const config = list.find((f) => /\.json$/i.test(f.name));
    if (!weights) return fail(pageText('checkpoint_no_weights'));
    if (busy) return fail(pageText('checkpoint_busy'));
    busy = true;
    cancelled = false;
    let buffer = 0;
    try {
      const header = await readHeader(weights);
      const configText = config ? await config.text() : '';
      let headCount = options.headCount || 0;
      if (!configText && !headCount) headCount = await askHeadCount(weights.name);
      if (!configText && !headCount) { closePanel(); return { ok: false, error: 'cancelled' }; }
      const plan = request('checkpointBegin', { size: weights.size, header, config: configText, headCount, name: weights.name });
      const tokenizer = loadGpt2Tokenizer();
      showProgress(weights.name, 0, plan.needed);
      // The file arrives in pieces (a megabyte or two) that a worker keeps reading while the module
      // decodes the last one; each piece goes through one reused heap buffer.
      const source = pieces(weights, plan.needed);
      let capacity = 0;
      let fed = 0;
      try {
        for (;;) {
          if (cancelled) {
            request('checkpointCancel');
            closePanel();
            return { ok: false, error: 'cancelled' };
          }
          const value = await source.next();
          if (!value) break;  // a file shorter than it said ends here: finish names what is missing
          if (value.length > capacity) {
            if (buffer) Module._free(buffer);
            capacity = Math.max(value.length, 1 << 20);
            buffer = Module._malloc(capacity) >>> 0;
            if (!buffer) throw new Error('out of memory');
          }
          Module.HEAPU8.set(value, buffer);  // HEAPU8 is read again each time: the heap may have grown
          source.fed(value.length);
          const reply = JSON.parse(Module.UTF8ToString(Module._headlab_checkpoint_feed(buffer, value.length) >>> 0));
          if (!reply.ok) throw new Error(reply.error);
          fed += value.length;
          showProgress(weights.name, fed, plan.needed);
        }
      } finally {
        source.close();
      }
      await tokenizer;
      if (cancelled) {
        request('checkpointCancel');
        closePanel();
        return { ok: false, error: 'cancelled' };
      }
      request('checkpointFinish');
      closePanel();
      return { ok: true };
    } catch (error) {
      try { request('checkpointCancel'); } catch (e) { /* stopped */ }
      return fail(error.message || String(error));
    } finally {
      if (buffer) Module._free(buffer);
      busy = false;
    }
  }

  function pick() {
    const input = document.createElement('input');
    input.type = 'file';
    input.multiple = true;
    input.accept = '.safetensors,.json';
    input.id = 'checkpoint-file-input';
    input.hidden = true;
    input.addEventListener('change', () => { open(input.files); input.remove(); });
    document.body.appendChild(input);
    input.click();
  }

  function cancel() { cancelled = true; }

  // Drops that hold a *.safetensors file (web/persistence.js hands them here).
  function isCheckpointDrop(files) { return Array.from(files || []).some((f) => /\.safetensors$/i.test(f.name)); }

  window.headlabCheckpoint = { open, pick, cancel, isCheckpointDrop, loadGpt2Tokenizer, busy: () => busy };
})();
