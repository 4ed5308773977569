// Fonts the page fetches only when a text needs them: the common Chinese characters the embedded
// subset lacks (scripts/make-cjk-font.py). The module asks once (src/platform/main.cpp); the bytes
// are copied into it and merged into the UI font. A failure leaves code points on screen and says so.
'use strict';
(function () {
  window.headlabFonts = { common: 'absent' };
  async function fetchOk(url) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    return response;
  }
  window.headlabLoadCommonCjkFont = async () => {
    if (window.headlabFonts.common !== 'absent') return;
    window.headlabFonts.common = 'loading';
    try {
      const [font, chars] = await Promise.all([fetchOk('lazy-fonts/cjk-common.ttf'), fetchOk('lazy-fonts/cjk-common-chars.txt')]);
      const bytes = new Uint8Array(await font.arrayBuffer());
      const text = await chars.text();
      const textSize = Module.lengthBytesUTF8(text) + 1;
      const data = Module._malloc(bytes.length);
      const charList = Module._malloc(textSize);
      try {
        if (!data || !charList) throw new Error('out of memory');
        Module.HEAPU8.set(bytes, data);
        Module.stringToUTF8(text, charList, textSize);
        Module._headlab_add_cjk_font(data, bytes.length, charList);  // copies both
      } finally {
        Module._free(data);
        Module._free(charList);
      }
      window.headlabFonts.common = 'loaded';
    } catch (error) {
      window.headlabFonts.common = 'failed';
      try { window.headlab._callWithString('headlab_font_failed', String(error.message || error)); } catch (_) { /* stopped */ }
    }
  };
})();
