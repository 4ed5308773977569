// The fonts the page fetches instead of the module embedding them (scripts/make-cjk-font.py,
// scripts/make-emoji-font.py):
//   subset - every Chinese character of the lessons and the UI (fonts/cjk.ttf). Fetched right after
//            the first frame, so switching to Chinese is instant; when the lab will open in Chinese
//            (web/page-text.js knows before the module starts), web/loader.js fetches it beside the
//            module instead.
//   common - the common characters the subset lacks (lazy-fonts/cjk-common.ttf), fetched only when
//            a text needs them.
//   emoji  - Symbola's emoji as outlines (lazy-fonts/emoji.ttf), fetched only when a text holds an
//            emoji.
// The module asks for a font when it needs it (src/platform/main.cpp); the bytes are copied into it
// and merged into the UI font. A failure leaves the glyphs missing and the lab says so.
'use strict';
(function () {
  const FILES = {
    subset: { kind: 0, font: 'fonts/cjk.ttf', chars: 'fonts/cjk-chars.txt' },
    common: { kind: 1, font: 'lazy-fonts/cjk-common.ttf', chars: 'lazy-fonts/cjk-common-chars.txt' },
    emoji: { kind: 2, font: 'lazy-fonts/emoji.ttf', chars: 'lazy-fonts/emoji-chars.txt' },
  };
  const downloads = {};   // name -> promise of {bytes, chars}
  const downloaded = {};  // name -> {bytes, chars}, once its download has finished
  const loads = {};       // name -> promise that the module has the font (or that it failed)
  window.headlabFonts = { subset: 'absent', common: 'absent', emoji: 'absent' };

  async function fetchOk(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response;
  }

  // Starts the download (once); the module need not be running yet.
  function download(name) {
    if (!downloads[name]) {
      const files = FILES[name];
      downloads[name] = Promise.all([fetchOk(files.font), fetchOk(files.chars)])
        .then(async ([font, chars]) => {
          downloaded[name] = { bytes: new Uint8Array(await font.arrayBuffer()), chars: await chars.text() };
          return downloaded[name];
        });
      downloads[name].catch(() => {});  // reported by load()
    }
    return downloads[name];
  }

  function copyIntoModule(kind, { bytes, chars }) {
    const charsSize = Module.lengthBytesUTF8(chars) + 1;
    const data = Module._malloc(bytes.length) >>> 0;
    const charList = Module._malloc(charsSize) >>> 0;
    try {
      if (!data || !charList) throw new Error('out of memory');
      Module.HEAPU8.set(bytes, data);
      Module.stringToUTF8(chars, charList, charsSize);
      Module._headlab_add_font(kind, data, bytes.length, charList);  // copies both
    } finally {
      Module._free(data);
      Module._free(charList);
    }
  }

  // Copies a downloaded font into the running module; a failure costs only its glyphs, and the lab
  // says so.
  function hand(name, font) {
    try {
      copyIntoModule(FILES[name].kind, font);
      window.headlabFonts[name] = 'loaded';
    } catch (error) {
      failed(name, error);
    }
  }

  function failed(name, error) {
    window.headlabFonts[name] = 'failed';
    try { window.headlab._callWithString('headlab_font_failed', String(error.message || error)); } catch (_) { /* stopped */ }
  }

  // Downloads the font `name` if needed and hands it to the running module (once). Resolves either
  // way.
  function load(name) {
    if (!loads[name]) {
      window.headlabFonts[name] = 'loading';
      loads[name] = download(name).then((font) => hand(name, font), (error) => failed(name, error));
    }
    return loads[name];
  }

  // Hands the module, at once, every font whose download has finished: main() calls this before
  // building its first atlas, so a lab restored in Chinese draws Chinese from its first such frame.
  function deliverDownloaded() {
    for (const name of Object.keys(downloaded)) {
      if (loads[name]) continue;
      loads[name] = Promise.resolve();
      hand(name, downloaded[name]);
    }
  }

  window.headlabFonts.download = download;
  window.headlabFonts.load = load;
  window.headlabFonts.deliverDownloaded = deliverDownloaded;
})();
