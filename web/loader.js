// Starts the wasm module with a download progress bar, and explains in words (never a blank page)
// when the browser lacks WebAssembly or WebGL2, or when the module fails.
'use strict';
(function () {
  const overlay = document.getElementById('overlay');
  const status = document.getElementById('status');
  const progress = document.getElementById('progress');
  let failed = false;

  function fail(message) {
    if (failed) return;
    failed = true;
    overlay.classList.remove('hidden');
    status.className = 'error';
    status.textContent = message;
    progress.parentElement.style.display = 'none';
    window.headlab._rejectReady(new Error(message));
  }

  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fail('This browser cannot run WebAssembly, which HeadLab needs. Please open the page in a current ' +
         'version of Chrome, Edge, Firefox or Safari.');
    return;
  }
  const probe = document.createElement('canvas').getContext('webgl2');
  if (!probe) {
    fail('This browser or device has WebGL2 turned off or unsupported, and HeadLab draws with it. ' +
         'Enable hardware acceleration in the browser settings, or try another browser.');
    return;
  }

  // Downloads the wasm file ourselves so the bar shows real progress.
  async function fetchWithProgress(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error('could not download ' + url + ' (HTTP ' + response.status + ')');
    const total = Number(response.headers.get('Content-Length')) || 0;
    if (!response.body || !total) return new Uint8Array(await response.arrayBuffer());
    const reader = response.body.getReader();
    const chunks = [];
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      progress.style.width = Math.min(100, (100 * received) / total).toFixed(1) + '%';
      status.textContent = 'Loading the attention engine… ' + Math.round(received / 1024) + ' of ' +
                           Math.round(total / 1024) + ' KB';
    }
    const bytes = new Uint8Array(received);
    let offset = 0;
    for (const chunk of chunks) { bytes.set(chunk, offset); offset += chunk.length; }
    return bytes;
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    instantiateWasm(imports, done) {
      fetchWithProgress('headlab.wasm')
        .then((bytes) => { status.textContent = 'Starting…'; return WebAssembly.instantiate(bytes, imports); })
        .then((result) => done(result.instance, result.module))
        .catch((error) => fail('HeadLab could not start: ' + error.message));
      return {};
    },
    onFirstFrame() {
      overlay.classList.add('hidden');
      const restored = window.headlabPersistence ? window.headlabPersistence.start() : Promise.resolve();
      restored.then(() => window.headlab._resolveReady());
    },
    onFatal(message) { fail('HeadLab could not start: ' + message); },
    onAbort(what) {
      if (window.Module.calledRun) window.headlabCrash.stop(what);
      else fail('HeadLab could not start: ' + what);
    },
    print(text) { console.log(text); },
    printErr(text) { console.warn(text); },
  };

  window.addEventListener('error', (event) => {
    if (!window.Module || !window.Module.calledRun) fail('HeadLab could not start: ' + event.message);
  });

  const script = document.createElement('script');
  script.src = 'headlab.js';
  script.onerror = () => fail('HeadLab could not start: headlab.js did not load. Is the site complete?');
  document.body.appendChild(script);
})();
