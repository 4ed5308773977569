#!/usr/bin/env node
// A tiny static file server for build/web on 127.0.0.1 (wasm needs http, not file://).
// Usage: node scripts/serve.mjs [--root DIR] [--port N]   (port 0 picks a free one)
// Prints "HeadLab is running at http://127.0.0.1:PORT/" once listening.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : fallback;
};
const root = path.resolve(option('--root', path.join(here, '..', 'build', 'web')));
const port = Number(option('--port', process.env.PORT || 8080));

const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.wasm': 'application/wasm', '.json': 'application/json; charset=utf-8', '.txt': 'text/plain; charset=utf-8',
  '.ttf': 'font/ttf', '.png': 'image/png', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
};

const server = http.createServer((request, response) => {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
  } catch {
    response.writeHead(400).end('bad request');
    return;
  }
  if (pathname.endsWith('/')) pathname += 'index.html';
  const file = path.join(root, path.normalize(pathname));
  if (!file.startsWith(root + path.sep)) {
    response.writeHead(403).end('forbidden');
    return;
  }
  fs.stat(file, (error, stat) => {
    if (error || !stat.isFile()) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    // no-cache + ETag: the browser asks every time (a new build is never missed) and gets a bodiless
    // 304 while its copy is current, so a reload, or the service worker's pre-cache right after the
    // first visit, does not download the module again.
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const headers = {
      'Content-Type': types[path.extname(file)] || 'application/octet-stream',
      'Cache-Control': 'no-cache',
      'ETag': etag,
      'Vary': 'Accept-Encoding',
      'X-Content-Type-Options': 'nosniff',
    };
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    // The build writes Brotli and gzip copies of the large files (src/platform/CMakeLists.txt); the
    // first the browser takes is sent, if it is as new as the file. X-Decoded-Length keeps the
    // loader's progress bar exact (Content-Length is then the compressed size).
    const accepted = request.headers['accept-encoding'] || '';
    const encodings = [{ name: 'br', suffix: '.br' }, { name: 'gzip', suffix: '.gz' }]
      .filter((e) => new RegExp(`\\b${e.name}\\b`).test(accepted));
    const send = (body, bodySize, encoding) => {
      if (encoding) Object.assign(headers, { 'Content-Encoding': encoding, 'X-Decoded-Length': stat.size });
      headers['Content-Length'] = bodySize;
      response.writeHead(200, headers);
      if (request.method === 'HEAD') response.end();
      else fs.createReadStream(body).pipe(response);
    };
    const tryEncoding = (i) => {
      if (i >= encodings.length) return send(file, stat.size, null);
      const copy = file + encodings[i].suffix;
      fs.stat(copy, (copyError, copyStat) => {
        if (!copyError && copyStat.isFile() && copyStat.mtimeMs >= stat.mtimeMs) send(copy, copyStat.size, encodings[i].name);
        else tryEncoding(i + 1);
      });
    };
    tryEncoding(0);
  });
});

server.listen(port, '127.0.0.1', () => {
  console.log(`HeadLab is running at http://127.0.0.1:${server.address().port}/`);
});
