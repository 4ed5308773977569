// Starts downloading and compiling the module before anything else on the page runs. The other
// scripts, the WebGL2 context (web/loader.js) and the Emscripten glue (headlab.js) then take their
// turns on the main thread while the browser compiles on its own threads; the glue merely
// instantiates the result. Without streaming compilation the bytes are compiled once complete.
//
// window.headlabModuleDownload = { received, total, module }: bytes so far and the decoded size
// (0 when the server does not say), for the loader's progress bar, and a promise of the compiled
// WebAssembly.Module, rejected with a readable reason.
'use strict';
(function () {
  const download = { received: 0, total: 0, module: null };
  window.headlabModuleDownload = download;
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.compile !== 'function') {
    download.module = Promise.reject(new Error('no WebAssembly'));
    download.module.catch(() => {});  // the loader explains this case itself
    return;
  }

  async function compile(url) {
    const response = await fetch(url);
    if (!response.ok) throw Object.assign(new Error(`${url}: HTTP ${response.status}`), { status: response.status, url });
    // The body arrives decoded, so a compressed answer's Content-Length is not its size: the bar
    // needs the decoded size, which scripts/serve.mjs sends (X-Decoded-Length). Without a size the
    // bytes are not counted (no bar to fill) and pass to the compiler untouched.
    download.total = response.headers.get('Content-Encoding') ? Number(response.headers.get('X-Decoded-Length')) || 0
                                                              : Number(response.headers.get('Content-Length')) || 0;
    let counted = response;
    if (download.total && response.body && typeof TransformStream === 'function') {
      const body = response.body.pipeThrough(new TransformStream({
        transform(chunk, controller) {
          download.received += chunk.length;
          controller.enqueue(chunk);
        },
      }));
      counted = new Response(body, { headers: { 'Content-Type': 'application/wasm' } });
    }
    if (typeof WebAssembly.compileStreaming === 'function') return WebAssembly.compileStreaming(counted);
    const bytes = await counted.arrayBuffer();
    download.received = bytes.byteLength;
    return WebAssembly.compile(bytes);
  }

  download.module = compile('headlab.wasm');
  download.module.catch(() => {});  // reported by the loader, which knows the learner's language
})();
