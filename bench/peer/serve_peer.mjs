// The peer page for scripts/bench: bench/peer/index.html, its three modules and the tfjs files from
// bench/peer/node_modules (installed by scripts/setup), served on 127.0.0.1 at a free port. Its own
// origin, apart from the lab's: no service worker of the lab's controls it, and the lab's CSP does
// not apply to it. Only the files listed below are served.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tfjsDist = path.join(here, 'node_modules/@tensorflow/tfjs/dist');
const wasmDist = path.join(here, 'node_modules/@tensorflow/tfjs-backend-wasm/dist');
const files = {
  '/': path.join(here, 'index.html'),
  '/attention_tfjs.js': path.join(here, 'attention_tfjs.js'),
  '/simd_peak.js': path.join(here, 'simd_peak.js'),
  '/gpt2_block_tfjs.js': path.join(here, 'gpt2_block_tfjs.js'),
  '/tfjs/tf.min.js': path.join(tfjsDist, 'tf.min.js'),
  '/tfjs/tf-backend-wasm.min.js': path.join(wasmDist, 'tf-backend-wasm.min.js'),
  // The backend picks one of these by what the browser supports; the bench checks which it fetched.
  '/tfjs/tfjs-backend-wasm.wasm': path.join(wasmDist, 'tfjs-backend-wasm.wasm'),
  '/tfjs/tfjs-backend-wasm-simd.wasm': path.join(wasmDist, 'tfjs-backend-wasm-simd.wasm'),
  '/tfjs/tfjs-backend-wasm-threaded-simd.wasm': path.join(wasmDist, 'tfjs-backend-wasm-threaded-simd.wasm'),
};
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.wasm': 'application/wasm' };

// Throws, naming the command to run, when scripts/setup has not installed tfjs.
export function checkPeerInstalled() {
  for (const file of Object.values(files))
    if (!fs.existsSync(file)) throw new Error(`${path.relative(path.join(here, '../..'), file)} is missing: run scripts/setup`);
}

// { url, stop }
export async function startPeerServer() {
  checkPeerInstalled();
  const server = http.createServer((request, response) => {
    const file = files[new URL(request.url, 'http://localhost').pathname];
    if (!file) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const body = fs.readFileSync(file);
    response.writeHead(200, { 'Content-Type': types[path.extname(file)], 'Content-Length': body.length, 'Cache-Control': 'no-cache' });
    response.end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, stop: () => server.close() };
}

// Opens the peer page in a context of its own and waits for tfjs's WASM backend. Returns
// { page, context, errors, info, wasmFiles } (info: window.peer.ready's result; wasmFiles: the .wasm
// files the page fetched, so the caller can check it is the SIMD, non-threaded build).
export async function openPeer(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  const wasmFiles = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => { if (request.url().endsWith('.wasm')) wasmFiles.push(path.basename(new URL(request.url()).pathname)); });
  await page.goto(url);
  await page.waitForFunction(() => window.peer?.benchmarkBlock, null, { timeout: 30000 });
  const info = await page.evaluate(() => window.peer.ready);
  return { page, context, errors, info, wasmFiles };
}
