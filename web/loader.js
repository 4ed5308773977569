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

  function showProgress(received, total) {
    progress.style.width = Math.min(100, (100 * received) / total).toFixed(1) + '%';
    status.textContent = 'Loading the attention engine… ' + Math.round(received / 1024) + ' of ' +
                         Math.round(total / 1024) + ' KB';
  }

  // Compiles the module while it downloads (instantiateStreaming), counting the bytes as they pass
  // so the bar shows real progress. Without streaming support the bytes are compiled once complete.
  async function instantiateWithProgress(url, imports) {
    const response = await fetch(url);
    if (!response.ok) throw new Error('could not download ' + url + ' (HTTP ' + response.status + ')');
    const total = Number(response.headers.get('Content-Length')) || 0;
    let body = response.body;
    if (body && total && typeof TransformStream === 'function') {
      let received = 0;
      body = body.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          received += chunk.length;
          showProgress(received, total);
          controller.enqueue(chunk);
        },
      }));
    }
    const counted = body === response.body ? response : new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
    if (typeof WebAssembly.instantiateStreaming === 'function') return WebAssembly.instantiateStreaming(counted, imports);
    const bytes = await counted.arrayBuffer();
    status.textContent = 'Starting…';
    return WebAssembly.instantiate(bytes, imports);
  }

  // Lets the page open offline after this visit (web/sw.js). Registered after the first frame, so
  // pre-caching the shell never competes with the first download of the module. Where service
  // workers are unavailable (file://, plain http off localhost, blocked storage, where merely
  // reading navigator.serviceWorker throws) the page works as before, online only: at most a warning.
  function registerOfflineWorker() {
    try {
      if (!('serviceWorker' in navigator)) return;
      navigator.serviceWorker.register('sw.js').catch((error) => {
        console.warn('HeadLab will not work offline: ' + error.message);
      });
    } catch (error) {
      console.warn('HeadLab will not work offline: ' + error.message);
    }
  }

  window.Module = {
    canvas: document.getElementById('canvas'),
    instantiateWasm(imports, done) {
      instantiateWithProgress('headlab.wasm', imports)
        .then((result) => {
          performance.mark('headlab-compiled');
          status.textContent = 'Starting…';
          done(result.instance, result.module);
        })
        .catch((error) => fail('HeadLab could not start: ' + error.message));
      return {};
    },
    onFirstFrame() {
      performance.mark('headlab-first-frame');  // read by scripts/bench-web.mjs
      overlay.classList.add('hidden');
      registerOfflineWorker();
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
