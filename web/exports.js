// Downloads for the Export menu: a PNG cut from the WebGL canvas, or a text file. Called by the
// wasm module right after it rendered a frame, while the drawing buffer still holds the pixels.
'use strict';
window.headlabExports = {
  // x, y, w, h in CSS pixels; the canvas itself is devicePixelRatio times larger.
  png(canvas, x, y, w, h, name) {
    const scale = canvas.width / canvas.clientWidth || 1;
    const sx = Math.max(0, Math.round(x * scale)), sy = Math.max(0, Math.round(y * scale));
    const sw = Math.max(1, Math.min(canvas.width - sx, Math.round(w * scale)));
    const sh = Math.max(1, Math.min(canvas.height - sy, Math.round(h * scale)));
    const crop = document.createElement('canvas');
    crop.width = sw;
    crop.height = sh;
    crop.getContext('2d').drawImage(canvas, sx, sy, sw, sh, 0, 0, sw, sh);
    crop.toBlob((blob) => { if (blob) this.download(name, blob); }, 'image/png');
    this.last = { kind: 'png', name, width: sw, height: sh };
  },
  text(name, mime, text) {
    this.download(name, new Blob([text], { type: mime }));
    this.last = { kind: 'text', name, text };
  },
  download(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  },
};
