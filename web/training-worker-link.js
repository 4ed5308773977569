// The page's end of the training worker (web/training-worker.js): the module hands it runs, and
// the worker's updates are copied into the module (src/platform/page_training_worker.cpp). The
// worker starts on the first run, so a learner who never trains never downloads it. If it cannot
// start or crashes, the module is told and trains in the page, as it does without workers.
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

  function post(message, transfer) {
    if (failed) return;
    if (!worker) {
      try {
        worker = new Worker('training-worker.js');
      } catch (error) {
        return fail(error.message || String(error));
      }
      worker.onmessage = (event) => receive(event.data);
      worker.onerror = (event) => fail(event.message || 'error');
    }
    worker.postMessage(message, transfer || []);
  }

  window.headlabTrainingWorker = {
    start(header, state) { post({ type: 'start', header, state: state.buffer }, [state.buffer]); },
    stop() { post({ type: 'stop' }); },
    setLearningRate(value) { post({ type: 'learningRate', value }); },
  };
})();
