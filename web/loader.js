// Starts the wasm module with a download progress bar, and explains in words (never a blank page),
// in the learner's language (web/page-text.js), when the browser lacks WebAssembly or WebGL2, or
// when the module fails.
'use strict';
(function () {
  const overlay = document.getElementById('overlay');
  const status = document.getElementById('status');
  const progress = document.getElementById('progress');
  const pageText = window.headlabPageText.text;
  const couldNotStart = (reason) => pageText('could_not_start', { reason });
  let failed = false;
  status.textContent = pageText('loading');

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
    fail(pageText('no_webassembly'));
    return;
  }
  // The canvas's WebGL2 context is made now, while the module downloads: creating the first context
  // starts the browser's GPU side and takes a large share of start-up. The module's own request
  // later gets this same context back (a canvas has one), so the attributes are the ones it asks
  // for (SDL's defaults: no alpha, depth, stencil or multisampling).
  if (!document.getElementById('canvas').getContext('webgl2', { alpha: false, depth: false, stencil: false, antialias: false })) {
    fail(pageText('no_webgl2'));
    return;
  }

  // At most once per animation frame: a DOM update per network chunk slowed the download itself.
  let progressShown = false;
  function showProgress(received, total) {
    if (progressShown) return;
    progressShown = true;
    requestAnimationFrame(() => {
      progressShown = false;
      progress.style.width = Math.min(100, (100 * received.value) / total).toFixed(1) + '%';
      status.textContent = pageText('loading_progress', { received: Math.round(received.value / 1024), total: Math.round(total / 1024) });
    });
  }

  // Compiles the module while it downloads (instantiateStreaming), counting the bytes as they pass
  // so the bar shows real progress. Without streaming support the bytes are compiled once complete.
  async function instantiateWithProgress(url, imports) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(pageText('download_failed', { url, status: response.status }));
    // The body arrives decoded, so a compressed answer's Content-Length is not its size: the bar
    // needs the decoded size, which scripts/serve.mjs sends (X-Decoded-Length); without it the
    // module loads the same, only without the bar.
    const total = response.headers.get('Content-Encoding') ? Number(response.headers.get('X-Decoded-Length')) || 0
                                                           : Number(response.headers.get('Content-Length')) || 0;
    let body = response.body;
    if (body && total && typeof TransformStream === 'function') {
      const received = { value: 0 };
      body = body.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          received.value += chunk.length;
          showProgress(received, total);
          controller.enqueue(chunk);
        },
      }));
    }
    const counted = body === response.body ? response : new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
    if (typeof WebAssembly.instantiateStreaming === 'function') return WebAssembly.instantiateStreaming(counted, imports);
    const bytes = await counted.arrayBuffer();
    status.textContent = pageText('starting');
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
          status.textContent = pageText('starting');
          done(result.instance, result.module);
        })
        .catch((error) => fail(couldNotStart(error.message)));
      return {};
    },
    onFirstFrame() {
      performance.mark('headlab-first-frame');  // read by scripts/bench-web.mjs
      overlay.classList.add('hidden');
      window.headlabPageText.followTheLab();
      registerOfflineWorker();
      const restored = window.headlabPersistence ? window.headlabPersistence.start() : Promise.resolve();
      Promise.all([restored, window.headlabLoadLateAssets()]).then(() => window.headlab._resolveReady());
    },
    onFatal(message) { fail(couldNotStart(message)); },
    onAbort(what) {
      if (window.Module.calledRun) window.headlabCrash.stop(what);
      else fail(couldNotStart(what));
    },
    print(text) { console.log(text); },
    printErr(text) { console.warn(text); },
  };

  window.addEventListener('error', (event) => {
    if (!window.Module || !window.Module.calledRun) fail(couldNotStart(event.message));
  });

  const script = document.createElement('script');
  script.src = 'headlab.js';
  script.onerror = () => fail(couldNotStart(pageText('script_missing')));
  document.body.appendChild(script);
})();
