// Reads a checkpoint file off the page's main thread (web/checkpoint.js starts it).
//
// Chromium copies a Blob stream's pieces into new ArrayBuffers on the thread that reads them: for
// a 500 MB GPT-2 checkpoint that is over a second of the main thread, which also has to decode every
// piece into the model. Here the copying runs beside the decoding; each piece is transferred, not
// copied, to the page. At most WINDOW_BYTES are in flight: the page acknowledges each piece it has
// fed, so a slow page never makes this worker hold the whole file.
'use strict';
const WINDOW_BYTES = 32 << 20;
let reader = null;
let inFlight = 0;
let pumping = false;

async function pump() {
  if (pumping || !reader) return;
  pumping = true;
  try {
    while (reader && inFlight < WINDOW_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        self.postMessage({ done: true });
        reader = null;
        break;
      }
      inFlight += value.byteLength;
      // A piece may be a view on a larger buffer: transfer only what it covers.
      const piece = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength ? value : value.slice();
      self.postMessage({ piece }, [piece.buffer]);
    }
  } catch (error) {
    self.postMessage({ error: String(error && error.message || error) });
    reader = null;
  } finally {
    pumping = false;
  }
}

self.onmessage = (event) => {
  const message = event.data || {};
  if (message.file) {
    reader = message.file.slice(0, message.end).stream().getReader();
    inFlight = 0;
  }
  if (message.fed) inFlight -= message.fed;
  if (message.cancel) {
    if (reader) reader.cancel().catch(() => {});
    reader = null;
    return;
  }
  pump();
};
