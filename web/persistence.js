// Nothing a learner does is lost: autosave to localStorage, share links in the URL fragment, JSON
// import by file picker or drag-and-drop. Everything that comes in is untrusted and goes through
// the engine's strict loader (loadState / loadModel); a refusal leaves the current work untouched
// and says why in a visible notice.
'use strict';
(function () {
  const STORAGE_KEY = 'headlab.state';
  const BACKUP_PREFIX = 'headlab.state.unreadable.';
  // Set while saved work is being restored and cleared once frames have been drawn with it: if it is
  // still there at start, restoring that work stopped the engine last time.
  const RESTORING_KEY = 'headlab.restoring';
  const LINK_PREFIX = '#s=';
  const MAX_IMPORT_BYTES = 32 * 1024 * 1024;
  const AUTOSAVE_MS = 500;  // a change is saved within two ticks

  // A visible toast (and the ARIA live region) for messages about saving and loading.
  function notify(text, level = 'info') {
    let box = document.getElementById('toast');
    if (!box) {
      box = document.createElement('div');
      box.id = 'toast';
      box.setAttribute('role', 'status');
      document.body.appendChild(box);
    }
    box.textContent = text;  // textContent: shared state can never inject markup
    box.className = 'toast ' + level;
    clearTimeout(notify.timer);
    notify.timer = setTimeout(() => { box.className = 'toast hidden'; }, level === 'error' ? 12000 : 6000);
    try { window.headlab.request({ op: 'notify', level, text }); } catch (e) { /* not started yet */ }
  }

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }  // disabled or sandboxed
  }

  // Loads a saved state or a model file (by its "format"); returns true on success.
  function loadText(text, source) {
    let format = '';
    try { format = JSON.parse(text).format; } catch (e) {
      notify(`${source} is not valid JSON; your current work is unchanged.`, 'error');
      return false;
    }
    try {
      if (format === 'headlab-model') window.headlab.loadModel(text);
      else window.headlab.loadState(text);
      return true;
    } catch (e) {
      notify(`${source} was not loaded: ${e.message}. Your current work is unchanged.`, 'error');
      return false;
    }
  }

  // A state is saved only once it has been seen on two autosave ticks in a row, so the page has drawn
  // it for a while: a state that stops the engine at once is never written over the last good save.
  // After a stop nothing is written at all.
  let seenKey = '';
  let savedKey = '';
  let lastSaved = '';
  function autosave(now = false) {
    const store = storage();
    if (!store || window.headlabCrash.stopped) return;
    let key;
    try { key = window.headlab.request({ op: 'stateKey' }); } catch (e) { return; }
    const settled = now === true || key === seenKey;
    seenKey = key;
    if (!settled || key === savedKey) return;
    let text;
    try { text = window.headlab.saveState(); } catch (e) { return; }
    savedKey = key;
    if (text === lastSaved) return;
    try {
      store.setItem(STORAGE_KEY, text);
      lastSaved = text;
      window.headlabPersistence.lastSavedAt = Date.now();
    } catch (e) {
      notify('Autosave failed (browser storage is full or disabled). Export your model to keep it.', 'warning');
    }
  }

  // Opens the share link in the address bar, if any. The engine decodes it (base64url + inflate with a
  // 32 MB cap, src/app/share_link.h) and loads it strictly; a refusal leaves the lab as it was.
  function openLinkInAddressBar(ownWorkLoaded) {
    if (!location.hash.startsWith(LINK_PREFIX)) return;
    try {
      window.headlab.request({ op: 'openShareLink', fragment: location.hash });
      notify(ownWorkLoaded ? 'Opened the shared lab. Undo (Ctrl+Z) goes back to your own work.' : 'Opened the shared lab.');
    } catch (e) {
      notify(`The shared link could not be read (${e.message}); your own work is unchanged.`, 'error');
    }
    history.replaceState(null, '', location.pathname + location.search);
  }

  // Restores the saved work first and only then opens a link, so opening a link is one undoable
  // edit on top of the learner's own work and autosave never silently replaces it.
  async function restore() {
    const store = storage();
    const saved = store && store.getItem(STORAGE_KEY);
    let loaded = false;
    if (saved && store.getItem(RESTORING_KEY)) {
      keepAside(store, saved, 'restoring it stopped HeadLab last time');
    } else if (saved) {
      let error = '';
      try { store.setItem(RESTORING_KEY, '1'); } catch (e) { /* storage full: restore without the guard */ }
      try { window.headlab.loadState(saved); loaded = true; } catch (e) { error = e.message; }
      if (error) keepAside(store, saved, error);
      else afterFrames(2, () => { try { store.removeItem(RESTORING_KEY); } catch (e) { /* ignore */ } });
    }
    openLinkInAddressBar(loaded);
  }

  // Keeps saved work that cannot be restored under a dated key, so nothing is lost, and starts clean.
  function keepAside(store, saved, why) {
    const backup = BACKUP_PREFIX + new Date().toISOString();
    try { store.setItem(backup, saved); store.removeItem(STORAGE_KEY); store.removeItem(RESTORING_KEY); } catch (e) { /* storage full: leave it */ }
    notify(`Your saved work could not be restored (${why}). It was kept under "${backup}" in this browser's storage; starting clean.`, 'error');
  }

  function afterFrames(count, then) {
    if (count <= 0) then();
    else requestAnimationFrame(() => afterFrames(count - 1, then));
  }

  async function copyLink() {
    try {
      const link = location.origin + location.pathname + window.headlab.request({ op: 'shareLink' });
      try {
        await navigator.clipboard.writeText(link);
        notify('Link copied: anyone who opens it gets this exact lab.');
      } catch (e) {
        notify('Copy the link from the address bar: ' + link.slice(0, 80) + '…');
      }
      history.replaceState(null, '', link);
      window.headlabPersistence.lastLink = link;
    } catch (e) {
      notify('The link could not be made: ' + e.message, 'error');
    }
  }

  async function readFile(file) {
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      notify(`${file.name} is larger than 32 MB and was not opened.`, 'error');
      return;
    }
    const text = await file.text();
    if (loadText(text, file.name)) notify(`Opened ${file.name}.`);
  }

  function pickFile() {
    const input = document.createElement('input');
    input.type = 'file';
    input.accept = '.json,application/json';
    input.addEventListener('change', () => readFile(input.files[0]));
    input.click();
  }

  window.addEventListener('dragover', (event) => { event.preventDefault(); });
  window.addEventListener('drop', (event) => {
    event.preventDefault();
    const file = event.dataTransfer && event.dataTransfer.files[0];
    if (file) readFile(file);
  });

  // Called by the loader after the first frame; headlab.ready resolves once this has finished, so
  // whatever a script sees after ready already includes the restored work.
  async function start() {
    try { await restore(); } catch (e) { notify('Saved work could not be restored: ' + e.message, 'error'); }
    setInterval(autosave, AUTOSAVE_MS);
    window.addEventListener('hashchange', () => openLinkInAddressBar(true));  // a link pasted into an open tab
    window.addEventListener('pagehide', () => autosave(true));
  }

  window.headlabPersistence = { start, copyLink, pickFile, readFile, notify, autosave, lastLink: '', lastSavedAt: 0 };
})();
