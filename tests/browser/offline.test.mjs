// After one visit the lab opens with no network at all (web/sw.js), with the learner's autosaved work
// and share links; online every load still goes to the server, so a new build is picked up at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startServer, launchBrowser, openLab, frames } from './harness.mjs';

let browser;
before(async () => { browser = await launchBrowser(); });
after(async () => { await browser?.close(); });

// A pass-through in front of scripts/serve.mjs that logs what reaches the server, can change the page
// as a new build would, and can be switched off like a lost connection.
async function startLoggingProxy(upstream) {
  const target = new URL(upstream);
  const proxy = { log: [], build: '' };
  const server = http.createServer((request, response) => {
    const path = new URL(request.url, upstream).pathname;
    proxy.log.push(path);
    const isPage = path === '/' || path === '/index.html';
    // A rebuilt page is a changed file: the server's ETag for it no longer matches the browser's copy.
    const headers = { ...request.headers };
    if (isPage && proxy.build) delete headers['if-none-match'];
    // The page is rewritten as text below, so it is asked for uncompressed.
    if (isPage && proxy.build) delete headers['accept-encoding'];
    const forward = http.request({ host: target.hostname, port: target.port, path: request.url, method: request.method,
                                   headers }, (answer) => {
      if (!isPage || !proxy.build || answer.statusCode !== 200) {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
        return;
      }
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        const page = Buffer.from(Buffer.concat(chunks).toString('utf8')
          .replace('</head>', `<meta name="headlab-build" content="${proxy.build}">\n</head>`));
        const etag = answer.headers.etag && `${answer.headers.etag.slice(0, -1)}-${proxy.build}"`;
        response.writeHead(200, { ...answer.headers, 'content-length': page.length, ...(etag ? { etag } : {}) });
        response.end(page);
      });
    });
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${server.address().port}/`;
  proxy.stop = () => new Promise((resolve) => { server.close(resolve); server.closeAllConnections(); });
  return proxy;
}

const build = (page) => page.evaluate(() => document.querySelector('meta[name="headlab-build"]')?.content || '');
const ready = (page) => page.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 })
  .then(() => page.evaluate(() => window.headlab.ready));

test('after one visit the lab opens offline with the learner\'s work; online, each load reaches the server', async () => {
  const server = await startServer();
  const proxy = await startLoggingProxy(server.url);
  try {
    const { page, context, errors } = await openLab(browser, proxy.url);

    // The worker installs after the first frame and takes this page over without a reload.
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30000 });
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('headlab-')));
      const wasm = await cache.match('headlab.wasm');
      return { names, urls: (await cache.keys()).map((r) => new URL(r.url).pathname), wasmType: wasm && wasm.headers.get('Content-Type') };
    });
    assert.equal(cached.names.length, 1, `one versioned cache (${cached.names})`);
    for (const file of ['/', '/index.html', '/loader.js', '/headlab.js', '/headlab.wasm', '/style.css']) {
      assert.ok(cached.urls.includes(file), `${file} is pre-cached (${cached.urls})`);
    }
    assert.ok(!cached.urls.some((u) => u.includes('lazy-fonts')), 'the Chinese font is not pre-cached');
    assert.equal(cached.wasmType, 'application/wasm', 'instantiateStreaming accepts the cached module');

    // A share link made online, and the learner's own work, autosaved.
    const link = await page.evaluate(() => { window.headlab.setText('A shared fox naps.'); return window.headlab.shareLink(); });
    assert.match(link, /^#s=/);
    await page.evaluate(() => window.headlab.setText('Offline cats sleep.'));
    await page.waitForFunction(() => (localStorage.getItem('headlab.state') || '').includes('Offline cats sleep.'), null, { timeout: 10000 });

    // Online, with the worker in control, a reload still fetches from the server and a changed
    // page ("a new build") shows at once: network first, never a stale copy.
    proxy.log.length = 0;
    proxy.build = 'new';
    await page.reload();
    await ready(page);
    assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the reload went through the worker');
    for (const file of ['/', '/loader.js', '/headlab.js', '/headlab.wasm']) {
      assert.ok(proxy.log.includes(file), `${file} reached the server (${proxy.log})`);
    }
    assert.equal(await build(page), 'new');
    assert.equal((await page.evaluate(() => window.headlab.state())).text, 'Offline cats sleep.');
    // A lazy file is stored once something fetches it (here the small character list, not the font).
    const lazyCached = await page.evaluate(async () => {
      await (await fetch('lazy-fonts/cjk-common-chars.txt')).text();
      for (let k = 0; k < 50; ++k) {
        if (await caches.match('lazy-fonts/cjk-common-chars.txt')) return true;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return false;
    });
    assert.equal(lazyCached, true, 'a lazy file is cached once fetched');
    // The reload's own autosave has written, so nothing is pending.
    await page.waitForFunction(() => !window.headlabPersistence.pending(), null, { timeout: 10000 });

    // Offline: the browser's network off and the server gone.
    await context.setOffline(true);
    await proxy.stop();
    server.stop();
    await page.reload();
    await ready(page);
    await frames(page, 3);
    const state = await page.evaluate(() => window.headlab.state());
    assert.equal(state.text, 'Offline cats sleep.', 'the autosaved work is restored offline');
    assert.equal(await page.evaluate(() => document.getElementById('overlay').classList.contains('hidden')), true);
    assert.equal(await build(page), 'new', 'the cache holds the latest copy the network gave');
    // Training offline: the worker and its engine come from the cache too.
    await page.evaluate(() => window.headlab.request({ op: 'trainStart' }));
    await page.waitForFunction(() => window.headlab.trainState().step >= 20, null, { timeout: 60000 });
    assert.equal((await page.evaluate(() => window.headlab.trainState())).in_worker, true, 'the training worker started offline');
    await page.evaluate(() => window.headlab.request({ op: 'trainPause' }));

    // A share link opens offline too: the fragment never reaches the worker.
    await page.goto('about:blank');
    await page.goto(proxy.url + link);
    await ready(page);
    await page.waitForFunction(() => window.headlab.state().text === 'A shared fox naps.', null, { timeout: 10000 });
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await proxy.stop().catch(() => {});
    server.stop();
  }
});
