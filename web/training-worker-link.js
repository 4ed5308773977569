// The page's end of the training worker (web/training-worker.js): the module hands it jobs (the
// run, the one-vs-many comparison and experiment, the probes), and the worker's updates are copied
// into the module (src/platform/page_training_worker.cpp). The worker starts when the page makes
// its first run (the Training tab opens, or a lesson or the API asks), so it has loaded by the
// time Play is pressed, and a page that never trains never starts it (web/sw.js still stores its
// files for offline use). If it cannot start or crashes, the module is told and trains in the
// page, as without workers.
'use strict';
(function () {
  let worker = null;
  let failed = false;

  function fail(reason) {
    if (failed) return;
    failed = true;
    console.warn('HeadLab: training goes on in the page; the training worker stopped: ' + reason);
    if (worker) worker.terminate();
    if (window.Module && Module._headlab_training_worker_failed) Module._headlab_training_worker_failed();
  }

  function receive(message) {
    if (message.type === 'failed') return fail(message.reason);
    if (message.type !== 'update' || failed) return;
    // Both copied into the module's heap, which the call does not keep.
    const state = new Uint8Array(message.state);
    const headerSize = Module.lengthBytesUTF8(message.header) + 1;
    const headerPointer = Module._malloc(headerSize);
    const statePointer = Module._malloc(Math.max(1, state.length));
    try {
      if (!headerPointer || !statePointer) throw new Error('out of memory for an update of ' + state.length + ' bytes');
      Module.stringToUTF8(message.header, headerPointer, headerSize);
      Module.HEAPU8.set(state, statePointer);
      Module._headlab_training_update(headerPointer, statePointer, state.length);
    } catch (error) {
      fail(error.message || String(error));
    } finally {
      Module._free(headerPointer);
      Module._free(statePointer);
    }
  }

  function load() {
    if (worker || failed) return;
    try {
      worker = new Worker('training-worker.js');
    } catch (error) {
      fail(error.message || String(error));
      return;
    }
    worker.onmessage = (event) => receive(event.data);
    worker.onerror = (event) => fail(event.message || 'error');
  }

  function post(message, transfer) {
    load();
    if (failed) return;
    worker.postMessage(message, transfer || []);
  }

  window.headlabTrainingWorker = {
    load,
    start(header, state) { post({ type: 'start', header, state: state.buffer }, [state.buffer]); },
    stop(job) { post({ type: 'stop', job }); },
    setLearningRate(value) { post({ type: 'learningRate', value }); },
  };
})();
