// The Many sentences tab, its queries-and-keys picture (AttentionViz) and its strongest attention
// (exBERT): opened with real clicks and taps, a point of the picture clicked where the page says it
// is and its sentence read back from the live region, a search typed; on the toy model, on the
// real-text model through lesson 21, on a phone in Chinese.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, frames, click, rectOf, screenshot } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });

// A finger moving from (x, y0) to (x, y1) in small steps, one per frame, as real touch events.
async function swipe(page, x, y0, y1) {
  const cdp = await page.context().newCDPSession(page);
  const point = (y) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: point(y0) });
  await frames(page, 2);
  for (let s = 1; s <= 12; s++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: point(y0 + ((y1 - y0) * s) / 12) });
    await frames(page, 1);
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await frames(page, 3);
}

// Swipes the page until the widget's top is on the upper part of the phone's screen.
async function bring(page, name) {
  for (let k = 0; k < 20; k++) {
    const r = await rectOf(page, name);
    if (r.y > 30 && r.y < 300) return r;
    await swipe(page, 200, r.y <= 30 ? 300 : 600, r.y <= 30 ? 500 : 300);
  }
  return rectOf(page, name);
}

const liveText = (page) => page.evaluate(() => document.getElementById('live').textContent);

// The screen position of point `i` ('query' or 'key'), from the map the API reads and the
// rectangle its bounding box fills (one scale for both axes, y upwards).
function screenPoint(map, rect, i, role) {
  const [x, y] = map.points[i][role];
  const b = map.bounds;
  return { x: rect.x + ((x - b.min_x) / (b.max_x - b.min_x)) * rect.width,
           y: rect.y + ((b.max_y - y) / (b.max_y - b.min_y)) * rect.height };
}

// A point of a sentence other than the learner's whose nearest neighbour on screen is at least
// `gap` pixels away, so a click there can only mean that point.
function isolatedPoint(map, rect, gap) {
  const all = [];
  map.points.forEach((_, i) => { for (const role of ['query', 'key']) all.push({ i, role, p: screenPoint(map, rect, i, role) }); });
  let best = null;
  for (const a of all) {
    if (map.points[a.i].sentence === 0) continue;
    let nearest = Infinity;
    for (const b of all) if (b !== a) nearest = Math.min(nearest, Math.hypot(a.p.x - b.p.x, a.p.y - b.p.y));
    if (!best || nearest > best.nearest) best = { ...a, nearest };
  }
  assert.ok(best && best.nearest >= gap, `a point stands ${gap} px clear of the others (best ${best?.nearest})`);
  return best;
}

async function pickPoint(page, map, { tap = false } = {}) {
  const rect = await rectOf(page, 'qkmap/plot');
  const point = isolatedPoint(map, rect, 4);
  if (tap) await page.touchscreen.tap(point.p.x, point.p.y);
  else await page.mouse.click(point.p.x, point.p.y);
  const ref = map.points[point.i];
  const name = `qkmap/picked/${ref.sentence}/${ref.position}/${point.role}`;
  await page.waitForFunction((n) => window.headlab.widgetRect(n) !== null, name, { timeout: 30000, polling: 50 });
  const sentence = map.sentences[ref.sentence];
  await page.waitForFunction((t) => document.getElementById('live').textContent.includes(t), sentence.text,
                             { timeout: 30000, polling: 50 });
  return { ref, role: point.role, sentence };
}

test('the Many sentences tab plots queries and keys, and a clicked point shows its sentence and attention', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await click(page, 'tab/qkmap');
  assert.equal(await page.evaluate(() => window.headlab.view()), 'qkmap.weights');
  await rectOf(page, 'qkmap/plot');
  const map = await page.evaluate(() => window.headlab.queryKeyMap());
  assert.ok(map.sentences.length > 10, 'the learner\'s sentence and the example sentences');
  const s = await page.evaluate(() => window.headlab.state());
  assert.equal(map.sentences[0].text, s.text, 'sentence 0 is the learner\'s');
  // The learner's sentence is read from the lab's own trace: the same attention.
  const own = s.layers[0].heads[0].attention;
  assert.ok(Math.abs(map.sentences[0].attention[1][2] - own[1][2]) < 1e-6);
  const picked = await pickPoint(page, map);
  const live = await liveText(page);
  // The strongest weight the panel names is the largest of that token's row (a query) or column (a key).
  const a = picked.sentence.attention;
  const weights = picked.role === 'query' ? a[picked.ref.position] : a.map((row) => row[picked.ref.position]);
  assert.ok(live.includes(Math.max(...weights).toFixed(2)), `the live region names the strongest weight: ${live}`);
  await rectOf(page, 'qkmap/sentence');
  await screenshot(page, 'query-key-1280');
  // Colour by role, then another head: the pick is let go with the picture it belonged to.
  await click(page, 'qkmap/colour/role');
  await click(page, 'overview/head/0/1');
  await page.waitForFunction(() => !document.getElementById('live').textContent.includes('Strongest'), null, { timeout: 30000 });
  const other = await page.evaluate(() => window.headlab.queryKeyMap());
  assert.equal(other.head, 1);
  assert.notDeepEqual(other.points[0].query, map.points[0].query, 'another head, another picture');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('lesson 21 opens the queries-and-keys view on the real-text model, and the map follows the selected head', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1920, height: 1080, deviceScaleFactor: 2 });
  await page.evaluate(() => window.headlab.request({ op: 'startLesson', lesson: 20, step: 0 }));
  await page.waitForFunction(() => window.headlab.state().tokenizer === 'text', null, { timeout: 30000 });
  await page.evaluate(() => window.headlab.nextStep());
  await frames(page, 3);
  // The step's highlight opened the tab; the learner picks the previous-token head with the mouse.
  assert.match(await page.evaluate(() => window.headlab.view()), /^qkmap\./);
  await click(page, 'overview/head/0/2');
  const s = await page.evaluate(() => window.headlab.state());
  assert.equal(s.lesson.goal_met, true);
  await rectOf(page, 'qkmap/plot');
  const map = await page.evaluate(() => window.headlab.queryKeyMap());
  assert.equal(map.layer, 0);
  assert.equal(map.head, 2);
  assert.ok(map.sentences.length > 10);
  assert.ok(map.sentences.every((x) => x.tokens.length > 0 && x.tokens.length <= 32));
  await pickPoint(page, map);
  await screenshot(page, 'query-key-lesson-21-1920');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('on a phone in Chinese a tap picks a point', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, deviceScaleFactor: 3, touch: true,
                                                                 locale: 'zh-CN' });
  assert.equal(await page.evaluate(() => window.headlab.state().lesson.language), 'zh');
  const tab = await bring(page, 'tab/qkmap');
  await page.touchscreen.tap(tab.x + tab.width / 2, tab.y + tab.height / 2);
  await page.waitForFunction(() => window.headlab.view().startsWith('qkmap.'), null, { timeout: 30000 });
  const plot = await bring(page, 'qkmap/plot');
  assert.ok(plot.x >= 0 && plot.x + plot.width <= 390, 'the plot fits the phone\'s width');
  const map = await page.evaluate(() => window.headlab.queryKeyMap());
  await pickPoint(page, map, { tap: true });
  assert.match(await liveText(page), /最强/);
  await screenshot(page, 'query-key-phone-zh');
  assert.deepEqual(errors, []);
  await page.context().close();
});

// How many contexts the Strongest attention view lists this frame (corpus/context/i are registered).
const listedContexts = (page) => page.evaluate(() => {
  let n = 0;
  while (window.headlab.widgetRect(`corpus/context/${n}`)) n++;
  return n;
});

test('the Strongest attention view counts the head across the sentences, and a typed search filters it', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await click(page, 'tab/qkmap');
  await click(page, 'corpus/view');
  await rectOf(page, 'corpus/counts');
  const all = await page.evaluate(() => window.headlab.headCorpus());
  const total = Object.values(all.kinds).reduce((a, b) => a + b, 0);
  assert.equal(total, all.queries, 'every counted query has one kind');
  assert.ok(all.queries > 100);
  assert.equal(all.strongest.length, 20);
  assert.equal(await listedContexts(page), 20);
  for (let i = 1; i < all.strongest.length; i++) assert.ok(all.strongest[i - 1].weight >= all.strongest[i].weight);
  // Typed through the page's text path, as an input method commits it.
  await click(page, 'corpus/search');
  await page.keyboard.insertText('dog');
  const filtered = await page.evaluate(() => window.headlab.headCorpus({ search: 'dog' }));
  assert.ok(filtered.queries > 0 && filtered.queries < all.queries, 'the search keeps some queries');
  for (const c of filtered.strongest)
    assert.ok(/dog/i.test(c.tokens[c.query]) || /dog/i.test(c.tokens[c.key]), 'each kept context names the token');
  await page.waitForFunction((n) => window.headlab.widgetRect(`corpus/context/${n}`) === null
                                   && (n === 0 || window.headlab.widgetRect(`corpus/context/${n - 1}`) !== null),
                             filtered.strongest.length, { timeout: 30000, polling: 50 });
  await screenshot(page, 'corpus-search-1280');
  assert.deepEqual(errors, []);
  await page.context().close();
});

test('lesson 21 opens the Strongest attention view on the real-text model on a phone, and a tapped search box takes text', async () => {
  const { page, errors } = await openLab(browser, server.url, { width: 390, height: 844, deviceScaleFactor: 3, touch: true });
  // The lesson's first step opens the real-text model; its step "across_sentences" the view.
  await page.evaluate(() => window.headlab.startLesson(20, 0));
  await page.waitForFunction(() => window.headlab.state().tokenizer === 'text', null, { timeout: 30000 });
  await page.evaluate(() => window.headlab.startLesson(20, 3));
  await frames(page, 3);
  assert.equal(await page.evaluate(() => window.headlab.state().lesson.step), 3);
  const search = await bring(page, 'corpus/search');
  await page.touchscreen.tap(search.x + search.width / 2, search.y + search.height / 2);
  await page.waitForFunction(() => document.activeElement && document.activeElement.tagName === 'INPUT', null, { timeout: 30000 });
  await page.keyboard.insertText('the');
  const filtered = await page.evaluate(() => window.headlab.headCorpus({ search: 'the' }));
  assert.ok(filtered.strongest.length > 0);
  await page.waitForFunction((n) => window.headlab.widgetRect(`corpus/context/${n}`) === null
                                   && window.headlab.widgetRect(`corpus/context/${n - 1}`) !== null,
                             filtered.strongest.length, { timeout: 30000, polling: 50 });
  await screenshot(page, 'corpus-lesson-21-phone');
  assert.deepEqual(errors, []);
  await page.context().close();
});
