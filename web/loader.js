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

  // Set before any check can fail: headlab.js runs in any case, and only through instantiateWasm
  // below does it start.
  window.Module = {
    canvas: document.getElementById('canvas'),
    instantiateWasm(imports, done) {
      if (failed) return {};  // the page has said why it cannot start; the module never runs
      instantiateModule(imports)
        .then((result) => {
          performance.mark('headlab-compiled');
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
      Promise.all([restored, window.headlabLoadLateAssets(), window.headlabFonts.load('subset')])
        .then(() => window.headlab._resolveReady());
    },
    onFatal(message) { fail(couldNotStart(message)); },
    onAbort(what) {
      if (window.Module.calledRun) window.headlabCrash.stop(what);
      else fail(couldNotStart(what));
    },
    print(text) { console.log(text); },
    printErr(text) { console.warn(text); },
  };

  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    fail(pageText('no_webassembly'));
    return;
  }
  // The canvas's WebGL2 context is made now, while the module downloads: creating the first context
  // starts the browser's GPU side and takes a large share of start-up. The module's own request
  // later gets this same context back (a canvas has one), so the attributes are the ones it asks
  // for (SDL's defaults: no alpha, depth, stencil or multisampling).
  // Its drawing buffer starts at the size the module will give it (SDL: the CSS size times the
  // pixel ratio), and the module tells SDL that CSS sizes the canvas rather than letting it set
  // 1 x 1 to find out (scripts/patches/sdl-canvas-sized-by-css.patch): each resize reallocates
  // the buffer. Starting at the final size took SDL's resizing from about 68 to 25 ms in headless
  // Chromium; skipping the probe took main()'s start, up to the assets read, from 119-135 to
  // 75-80 ms (medians of 10 cold loads each, interleaved, twice).
  const canvas = document.getElementById('canvas');
  const cssSize = canvas.getBoundingClientRect();
  canvas.width = Math.floor(cssSize.width * window.devicePixelRatio);
  canvas.height = Math.floor(cssSize.height * window.devicePixelRatio);
  if (!canvas.getContext('webgl2', { alpha: false, depth: false, stencil: false, antialias: false })) {
    fail(pageText('no_webgl2'));
    return;
  }

  // The module has been downloading and compiling since the page's first script
  // (web/module-download.js); the bar follows its bytes once per animation frame until it is
  // compiled (a DOM update per network chunk slowed the download itself).
  const download = window.headlabModuleDownload;
  if (!download) {
    fail(couldNotStart(pageText('script_missing', { name: 'module-download.js' })));
    return;
  }
  // A lab opening in Chinese starts once its font is here too (web/fonts.js): both downloads run
  // side by side, and a failed font only costs the glyphs.
  const chineseFont = window.headlabPageText.language() === 'zh' ? window.headlabFonts.download('subset').catch(() => {}) : null;
  let compiled = false;
  function showProgress() {
    if (compiled || failed) return;
    if (download.total) {
      progress.style.width = Math.min(100, (100 * download.received) / download.total).toFixed(1) + '%';
      status.textContent = pageText('loading_progress', { received: Math.round(download.received / 1024), total: Math.round(download.total / 1024) });
    }
    requestAnimationFrame(showProgress);
  }
  requestAnimationFrame(showProgress);

  async function instantiateModule(imports) {
    let module;
    try {
      [module] = await Promise.all([download.module, chineseFont]);
    } catch (error) {
      throw new Error(error.status ? pageText('download_failed', { url: error.url, status: error.status }) : error.message);
    } finally {
      compiled = true;
    }
    status.textContent = pageText('starting');
    return { instance: await WebAssembly.instantiate(module, imports), module };
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

  window.addEventListener('error', (event) => {
    if (!window.Module || !window.Module.calledRun) fail(couldNotStart(event.message));
  });

  // headlab.js (the Emscripten glue) is the deferred script after this one, so it is fetched with
  // the page rather than after this script has run.
  document.querySelector('script[src="headlab.js"]').addEventListener('error', () => fail(couldNotStart(pageText('script_missing', { name: 'headlab.js' }))));
})();
