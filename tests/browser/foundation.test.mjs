// The page loads, draws live heatmaps and answers through window.headlab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import { startServer, launchBrowser, openLab, screenshot, frames, rectOf, center, countDrawnFrames } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

function assertStochasticRows(attention, n) {
  assert.equal(attention.length, n);
  for (const row of attention) {
    assert.equal(row.length, n);
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-4, `row sums to ${sum}`);
  }
}

test('default page: 4 heads of n x n rows summing to 1, no console errors', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(state.tokens, ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog', '.']);
  assert.equal(state.layers[0].heads.length, 4);
  for (const head of state.layers[0].heads) assertStochasticRows(head.attention, 10);
  await frames(page);
  await screenshot(page, 'foundation-default');
  assert.deepEqual(errors, []);
  await context.close();
});

// What the server sends for the module with a given Accept-Encoding: { encoding, decodedLength, body }.
function getModule(url, acceptEncoding) {
  return new Promise((resolve, reject) => {
    http.get(new URL('headlab.wasm', url), { headers: { 'Accept-Encoding': acceptEncoding } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ encoding: response.headers['content-encoding'] || null,
                                         decodedLength: Number(response.headers['x-decoded-length'] || 0),
                                         body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

test('the module comes as Brotli to a browser that takes it, else gzip, else as it is: the same bytes', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const sent = await page.evaluate(() => {
    const entry = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/headlab.wasm'));
    return { transferred: entry.transferSize, decoded: entry.decodedBodySize };
  });
  const plain = await getModule(server.url, 'identity');
  const brotli = await getModule(server.url, 'gzip, deflate, br');
  const gzip = await getModule(server.url, 'gzip, deflate');
  assert.deepEqual([plain.encoding, brotli.encoding, gzip.encoding], [null, 'br', 'gzip']);
  assert.ok(zlib.brotliDecompressSync(brotli.body).equals(plain.body));
  assert.ok(zlib.gunzipSync(gzip.body).equals(plain.body));
  // The loader's progress bar reads the decoded size from the header.
  assert.equal(brotli.decodedLength, plain.body.length);
  assert.equal(gzip.decodedLength, plain.body.length);
  // Chromium asks for Brotli from this host: it received the smaller copy.
  assert.equal(sent.decoded, plain.body.length);
  assert.ok(sent.transferred < gzip.body.length, `${sent.transferred} bytes transferred, gzip is ${gzip.body.length}`);
  assert.ok(brotli.body.length < gzip.body.length);
  assert.deepEqual(errors, []);
  await context.close();
});

test('setHeadCount(6) yields 6 heads and keeps the first four', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const before = await page.evaluate(() => window.headlab.state());
  await page.evaluate(() => window.headlab.setHeadCount(6));
  const after = await page.evaluate(() => window.headlab.state());
  assert.equal(after.layers[0].heads.length, 6);
  for (let h = 0; h < 4; ++h) assert.deepEqual(after.layers[0].heads[h].W_Q, before.layers[0].heads[h].W_Q);
  for (const head of after.layers[0].heads) assertStochasticRows(head.attention, 10);
  await frames(page);
  await screenshot(page, 'foundation-six-heads');
  assert.deepEqual(errors, []);
  await context.close();
});

test('setText and setWeight recompute at once; bad values are refused with a message', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setText('A cat sat.'));
  let state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(state.tokens, ['A', 'cat', 'sat', '.']);
  const before = state.layers[0].heads[1].attention;
  await page.evaluate(() => window.headlab.setWeight(0, 1, 'W_K', 5, 0, 4.0));
  state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[1].W_K[5][0], 4.0);
  assert.notDeepEqual(state.layers[0].heads[1].attention, before);
  const message = await page.evaluate(() => {
    try { window.headlab.setWeight(0, 0, 'W_Q', 0, 0, NaN); return 'accepted'; } catch (e) { return e.message; }
  });
  assert.match(message, /finite/);
  assert.deepEqual(errors, []);
  await context.close();
});

test('exportModel / loadModel round trip, malformed model rejected without losing work', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setWeight(0, 2, 'W_V', 3, 1, 1.5));
  const exported = await page.evaluate(() => window.headlab.exportModel());
  const parsed = JSON.parse(exported);
  assert.equal(parsed.format, 'headlab-model');
  assert.equal(parsed.layers[0].heads[2].W_V[3][1], 1.5);
  const message = await page.evaluate(() => {
    try { window.headlab.loadModel('{"format":"headlab-model","version":1,"d_model":24,"layers":[{"heads":[{"W_Q":[[1]]}]}]}'); return 'accepted'; }
    catch (e) { return e.message; }
  });
  assert.match(message, /layers\[0\]\.heads\[0\]\.W_Q: expected 24x/);
  const state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads[2].W_V[3][1], 1.5);
  await page.evaluate((text) => window.headlab.loadModel(text), exported);
  assert.deepEqual(errors, []);
  await context.close();
});

test('the canvas is not blank and is sized for devicePixelRatio', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 1000, height: 700, deviceScaleFactor: 2 });
  await frames(page, 5);
  const size = await page.evaluate(() => ({ w: document.getElementById('canvas').width, h: document.getElementById('canvas').height }));
  assert.equal(size.w, 2000);
  assert.equal(size.h, 1400);
  const file = await screenshot(page, 'foundation-hidpi');
  // Count distinct colours in a downscaled screenshot: a blank canvas has one or two.
  const shot = await page.screenshot({ type: 'png', clip: { x: 0, y: 0, width: 1000, height: 700 } });
  const colours = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = 'data:image/png;base64,' + b64;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = 200; c.height = 140;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0, 200, 140);
    const data = g.getImageData(0, 0, 200, 140).data;
    const set = new Set();
    for (let i = 0; i < data.length; i += 4) set.add((data[i] >> 4) * 256 + (data[i + 1] >> 4) * 16 + (data[i + 2] >> 4));
    return set.size;
  }, shot.toString('base64'));
  assert.ok(colours > 20, `only ${colours} colours on screen (${file})`);
  // Resizing the window resizes the canvas.
  await page.setViewportSize({ width: 800, height: 600 });
  await frames(page, 5);
  const resized = await page.evaluate(() => document.getElementById('canvas').width);
  assert.equal(resized, 1600);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a lab at rest is not redrawn yet stays on screen; an edit or a hover is drawn in the next frame', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await countDrawnFrames(page);
  const drawnDuring = async (run) => {
    await page.evaluate(() => { window.drawnFrames = 0; });
    await run();
    return page.evaluate(() => window.drawnFrames);
  };
  await frames(page, 10);
  assert.equal(await drawnDuring(() => frames(page, 60)), 0, 'nothing changed for 60 frames, nothing drawn');
  const still = await page.screenshot();
  assert.ok(still.equals(await page.screenshot()), 'the last picture stays');
  assert.ok(await drawnDuring(async () => {
    await page.evaluate(() => window.headlab.setWeight(0, 1, 'W_K', 5, 0, 4.0));
    await frames(page, 2);
  }) >= 1, 'an edit is drawn');
  assert.ok(!still.equals(await page.screenshot()), 'and shows');
  const head = center(await rectOf(page, 'overview/head/0/2'));
  assert.ok(await drawnDuring(async () => {
    await page.mouse.move(head.x, head.y);
    await frames(page, 2);
  }) >= 1, 'the hovered thumbnail lights up');
  assert.deepEqual(errors, []);
  await context.close();
});
