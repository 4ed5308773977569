// When the engine traps (a WebAssembly RuntimeError, or an Emscripten abort) its memory can no
// longer be trusted and every later call would fail: stop asking it anything, say so in plain words
// (in the lab's last language, web/page-text.js), offer a reload, and stop autosave so the last good
// save is what the reload restores.
'use strict';
(function () {
  let stopped = false;

  function isTrap(error) {
    if (!error) return false;
    // Emscripten's abort() throws a RuntimeError too; its message starts "Aborted(".
    if (typeof WebAssembly === 'object' && error instanceof WebAssembly.RuntimeError) return true;
    return /^Aborted\(/.test(String(error.message || ''));
  }

  function savedAt() {
    const time = window.headlabPersistence && window.headlabPersistence.lastSavedAt;
    if (!time) return '';
    const { text, locale } = window.headlabPageText;
    return text('crashed_saved_at', { time: new Date(time).toLocaleTimeString(locale()) });
  }

  function stop(what) {
    if (stopped) return;
    stopped = true;
    const overlay = document.getElementById('overlay');
    const status = document.getElementById('status');
    const reload = document.getElementById('reload');
    overlay.classList.remove('hidden');
    overlay.classList.add('stopped');
    status.className = 'error';
    status.textContent = window.headlabPageText.text('crashed', { what: String(what).slice(0, 200), saved_at: savedAt() });
    document.querySelector('#overlay .bar').style.display = 'none';
    reload.hidden = false;
    reload.focus();
    if (window.headlab && window.headlab._rejectReady) window.headlab._rejectReady(new Error(String(what)));
  }

  document.getElementById('reload').addEventListener('click', () => location.reload());
  window.addEventListener('error', (event) => { if (isTrap(event.error)) stop(event.error.message); });
  window.addEventListener('unhandledrejection', (event) => {
    if (isTrap(event.reason)) stop(event.reason.message);
  });

  window.headlabCrash = { isTrap, stop, get stopped() { return stopped; } };
})();
