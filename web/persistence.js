// Nothing a learner does is lost: autosave to localStorage, share links in the URL fragment, JSON
// import by file picker or drag-and-drop. Everything that comes in is untrusted and goes through
// the engine's strict loader (loadState / loadModel); a refusal leaves the current work untouched
// and says why in a visible notice, in the lab's language (web/page-text.js).
'use strict';
(function () {
  const pageText = window.headlabPageText.text;
  const STORAGE_KEY = 'headlab.state';
  const VIEW_KEY = 'headlab.view';  // the open tabs ("arcs.labels"), reopened with the saved work
  const BACKUP_PREFIX = 'headlab.state.unreadable.';
  // Set while saved work is being restored and cleared once frames have been drawn with it: if it is
  // still there at start, restoring that work stopped the engine last time.
  const RESTORING_KEY = 'headlab.restoring';
  // Set after the first visit: only a first visit opens on the starting model (heads that each do
  // something different); later visits open on the learner's own work or the plain default.
  const VISITED_KEY = 'headlab.visited';
  const LINK_PREFIX = '#s=';
  // After the state, the open views ("&v=arcs.labels"): a link reopens the tab it was made on.
  const VIEW_PART = '&v=';
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
      notify(pageText('file_not_json', { source }), 'error');
      return false;
    }
    try {
      if (format === 'headlab-model') window.headlab.loadModel(text);
      else window.headlab.loadState(text);
      return true;
    } catch (e) {
      notify(pageText('file_not_loaded', { source, reason: e.message }), 'error');
      return false;
    }
  }

  // A state is saved only once it has been seen on two autosave ticks in a row, so the page has drawn
  // it for a while: a state that stops the engine at once is never written over the last good save.
  // After a stop nothing is written at all.
  let seenKey = '';
  let savedKey = '';
  let lastSaved = '';
  let autosaveRefused = false;
  let lastView = '';
  function autosave(now = false) {
    const store = storage();
    if (!store || window.headlabCrash.stopped) return;
    try {
      const view = window.headlab.view();
      if (view && view !== lastView) {
        store.setItem(VIEW_KEY, view);
        lastView = view;
      }
    } catch (e) { /* storage full: the views are a convenience */ }
    let key;
    try { key = window.headlab.request({ op: 'stateKey' }); } catch (e) { return; }
    const settled = now === true || key === seenKey;
    seenKey = key;
    if (!settled || key === savedKey) return;
    let text;
    try {
      text = window.headlab.saveState();
    } catch (e) {
      // Refused (a model too large to restore, src/app/saved_state.h): said once, not every tick, and
      // the last autosave is kept as it is. Tried again at the next change.
      savedKey = key;
      const tooLarge = /too large/.test(e.message), subword = /subword/.test(e.message);
      // A checkpoint is never autosaved, and its opening notice already said so.
      if (!autosaveRefused && !/checkpoint/.test(e.message))
        notify(pageText(subword ? 'autosave_subword' : tooLarge ? 'autosave_too_large' : 'autosave_failed'), subword ? 'info' : 'warning');
      autosaveRefused = true;
      return;
    }
    if (autosaveRefused) notify(pageText('autosave_back'));
    autosaveRefused = false;
    savedKey = key;
    if (text === lastSaved) return;
    try {
      store.setItem(STORAGE_KEY, text);
      lastSaved = text;
      window.headlabPersistence.lastSavedAt = Date.now();
    } catch (e) {
      notify(pageText('autosave_failed'), 'warning');
    }
  }

  // Opens the share link in the address bar, if any. The engine decodes it (base64url + inflate with a
  // 32 MB cap, src/app/share_link.h) and loads it strictly; a refusal leaves the lab as it was.
  function openLinkInAddressBar(ownWorkLoaded) {
    if (!location.hash.startsWith(LINK_PREFIX)) return;
    const at = location.hash.indexOf(VIEW_PART);
    const fragment = at < 0 ? location.hash : location.hash.slice(0, at);
    const view = at < 0 ? '' : decodeURIComponent(location.hash.slice(at + VIEW_PART.length));
    try {
      window.headlab.request({ op: 'openShareLink', fragment });
      if (view) window.headlab.setView(view);  // unknown names leave the views as they are
      notify(pageText(ownWorkLoaded ? 'link_opened_undo' : 'link_opened'));
    } catch (e) {
      notify(pageText('link_unreadable', { reason: e.message }), 'error');
    }
    history.replaceState(null, '', location.pathname + location.search);
  }

  // Restores the saved work first and only then opens a link, so opening a link is one undoable
  // edit on top of the learner's own work and autosave never silently replaces it.
  async function restore() {
    const store = storage();
    const saved = store && store.getItem(STORAGE_KEY);
    let loaded = false;
    if (saved) speakLanguageOf(saved);
    if (saved && store.getItem(RESTORING_KEY)) {
      keepAside(store, saved, pageText('restore_stopped_last_time'));
    } else if (saved) {
      let error = '';
      try { store.setItem(RESTORING_KEY, '1'); } catch (e) { /* storage full: restore without the guard */ }
      try { window.headlab.loadState(saved); loaded = true; } catch (e) { error = e.message; }
      if (loaded) window.headlab.setView(store.getItem(VIEW_KEY) || '');
      if (error) keepAside(store, saved, error);
      else afterFrames(2, () => { try { store.removeItem(RESTORING_KEY); } catch (e) { /* ignore */ } });
    }
    // Nothing saved: the lab speaks the first of the browser's languages it knows (page-text.js).
    const browserLanguage = window.headlabPageText.browserLanguage();
    if (!saved && browserLanguage !== 'en') {
      try { window.headlab.setLanguage(browserLanguage); } catch (e) { /* stays English */ }
    }
    const link = location.hash.startsWith(LINK_PREFIX);
    if (!saved && !link && !(store && store.getItem(VISITED_KEY))) {
      try { window.headlab.loadStartingModel(); } catch (e) { /* the plain default stays */ }
    }
    try { if (store) store.setItem(VISITED_KEY, '1'); } catch (e) { /* storage full or disabled */ }
    openLinkInAddressBar(loaded);
  }

  // Restored or set aside, saved work keeps the language the learner chose, if its text still tells it:
  // the lab shows it from the next frame on, the page's notices from now.
  function speakLanguageOf(saved) {
    const language = window.headlabPageText.languageOf(saved);
    if (!language) return;
    try { window.headlab.setLanguage(language); } catch (e) { return; }
    window.headlabPageText.setLanguage(language);
  }

  // Keeps saved work that cannot be restored under a dated key, so nothing is lost, and starts clean.
  function keepAside(store, saved, why) {
    const backup = BACKUP_PREFIX + new Date().toISOString();
    try { store.setItem(backup, saved); store.removeItem(STORAGE_KEY); store.removeItem(RESTORING_KEY); } catch (e) { /* storage full: leave it */ }
    notify(pageText('restore_set_aside', { reason: why, key: backup }), 'error');
  }

  function afterFrames(count, then) {
    if (count <= 0) then();
    else requestAnimationFrame(() => afterFrames(count - 1, then));
  }

  async function copyLink() {
    try {
      const link = location.origin + location.pathname + window.headlab.request({ op: 'shareLink' }) + VIEW_PART +
                   encodeURIComponent(window.headlab.view());
      try {
        await navigator.clipboard.writeText(link);
        notify(pageText('link_copied'));
      } catch (e) {
        notify(pageText('link_copy_by_hand', { link: link.slice(0, 80) }));
      }
      history.replaceState(null, '', link);
      window.headlabPersistence.lastLink = link;
    } catch (e) {
      notify(pageText('link_failed', { reason: e.message }), 'error');
    }
  }

  async function readFile(file) {
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      notify(pageText('file_too_large', { name: file.name }), 'error');
      return;
    }
    const text = await file.text();
    if (loadText(text, file.name)) notify(pageText('file_opened', { name: file.name }));
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
    const files = event.dataTransfer && event.dataTransfer.files;
    // model.safetensors (with its config.json) is a checkpoint: web/checkpoint.js reads it.
    if (window.headlabCheckpoint && window.headlabCheckpoint.isCheckpointDrop(files)) window.headlabCheckpoint.open(files);
    else if (files && files[0]) readFile(files[0]);
  });

  // Called by the loader after the first frame; headlab.ready resolves once this has finished, so
  // whatever a script sees after ready already includes the restored work.
  async function start() {
    try { await restore(); } catch (e) { notify(pageText('restore_failed', { reason: e.message }), 'error'); }
    setInterval(autosave, AUTOSAVE_MS);
    window.addEventListener('hashchange', () => openLinkInAddressBar(true));  // a link pasted into an open tab
    window.addEventListener('pagehide', () => autosave(true));
  }

  // Whether the lab has changed since autosave last wrote it (or refused to): tests wait on this
  // instead of on a number of ticks.
  function pending() {
    try { return window.headlab.request({ op: 'stateKey' }) !== savedKey; } catch (e) { return false; }
  }

  window.headlabPersistence = { start, copyLink, pickFile, readFile, notify, autosave, pending, lastLink: '', lastSavedAt: 0 };
})();
