// The lab with real mouse input: drag a weight, undo, change the head count, select a head,
// switch views, type an exact value, export a PNG. Screenshots go to artifacts/.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, openLab, screenshot, frames, center, rectOf, click } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); server?.stop(); });


// Drags fit the range: a weight moves 0.05 per pixel (a lesson's "about 3" is 60 px), d_k a unit
// per 8 px (6 -> 2 in one short drag), and a double-click on d_k types the value.
test('drag speeds fit the value: a weight 0.05 per pixel, d_k 8 px per unit; double-click types d_k', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 1280, height: 720 });
  await click(page, 'editor/tab/W_K');
  const weight = () => page.evaluate(() => window.headlab.state().layers[0].heads[0].W_K[5][0]);
  const w0 = await weight();
  const cell = center(await rectOf(page, 'editor/cell/5/0'));
  await page.mouse.move(cell.x, cell.y);
  await page.mouse.down();
  for (let k = 1; k <= 12; ++k) {
    await page.mouse.move(cell.x, cell.y - 5 * k);
    await frames(page, 1);
  }
  await page.mouse.up();
  await frames(page, 2);
  const w1 = await weight();
  assert.ok(w1 - w0 > 2.5 && w1 - w0 <= 3.0 + 1e-6, `60 px up added ${w1 - w0}`);
  // d_k, in Model settings.
  if (!(await page.evaluate(() => window.headlab.widgetRect('model/d_k')))) await click(page, 'model/settings');
  const dk = () => page.evaluate(() => window.headlab.state().config.layer_configs[0].d_k);
  assert.equal(await dk(), 6);
  const box = await rectOf(page, 'model/d_k');
  const start = center(box);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  for (let k = 1; k <= 10; ++k) {
    await page.mouse.move(start.x - 3.4 * k, start.y);
    await frames(page, 1);
  }
  await page.mouse.up();
  await frames(page, 2);
  assert.equal(await dk(), 2, '34 px left: four units');
  await page.mouse.dblclick(start.x, start.y);
  await frames(page, 3);
  await page.keyboard.press('Control+A');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.headlab.state().config.layer_configs[0].d_k === 3);
  assert.deepEqual(errors, []);
  await context.close();
});

test('drag a W_K cell: the weight and the heatmap change in the same frame; undo restores', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'editor/tab/W_K');
  const before = await page.evaluate(() => window.headlab.state());
  const cell = center(await rectOf(page, 'editor/cell/5/0'));  // W_K row "noun", column 0
  await page.mouse.move(cell.x, cell.y);
  await page.mouse.down();
  for (let k = 1; k <= 10; ++k) {
    await page.mouse.move(cell.x, cell.y - 6 * k);
    await frames(page, 1);
  }
  await page.mouse.up();
  await frames(page, 2);
  const after = await page.evaluate(() => window.headlab.state());
  const w0 = before.layers[0].heads[0].W_K[5][0], w1 = after.layers[0].heads[0].W_K[5][0];
  assert.ok(w1 > w0 + 0.2, `dragging up raised the weight (${w0} -> ${w1})`);
  assert.notDeepEqual(after.layers[0].heads[0].attention, before.layers[0].heads[0].attention);
  await screenshot(page, 'lab-after-drag');
  await click(page, 'undo');
  const undone = await page.evaluate(() => window.headlab.state());
  assert.equal(undone.layers[0].heads[0].W_K[5][0], w0, 'one undo reverts the whole drag');
  assert.deepEqual(undone.layers[0].heads[0].attention, before.layers[0].heads[0].attention);
  await page.keyboard.press('Control+Shift+Z');
  await frames(page, 2);
  const redone = await page.evaluate(() => window.headlab.state());
  assert.equal(redone.layers[0].heads[0].W_K[5][0], w1);
  // A chord pressed and released within one frame still counts (the platform queues key events).
  await page.keyboard.press('Control+Z');
  await frames(page, 2);
  assert.equal((await page.evaluate(() => window.headlab.state())).layers[0].heads[0].W_K[5][0], w0, 'Ctrl+Z undoes');
  assert.deepEqual(errors, []);
  await context.close();
});

// Viridis as src/ui/colormap.cpp draws it: nine anchors, linear between them.
const kViridis = [[68, 1, 84], [72, 40, 120], [62, 74, 137], [49, 104, 142], [38, 130, 142], [31, 158, 137],
                  [53, 183, 121], [109, 205, 89], [253, 231, 37]];
function viridis(t) {
  t = Math.min(Math.max(t, 0), 1) * 8;
  const i = Math.min(Math.floor(t), 7), f = t - i;
  return kViridis[i].map((a, c) => a + (kViridis[i + 1][c] - a) * f);
}

// The pixels of a screenshot, decoded by the page itself (no PNG library in the tests).
async function screenPixels(page, clip) {
  const png = (await page.screenshot({ clip })).toString('base64');
  return page.evaluate(async (data) => {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    const context = canvas.getContext('2d');
    context.drawImage(bitmap, 0, 0);
    return { width: bitmap.width, data: Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data) };
  }, png);
}

// The heatmaps are textures on the GPU (src/ui/cell_textures.h): what reaches the screen must be
// each cell's attention in viridis, in its own square, in the detail view and in the thumbnails,
// and again after an edit recolours them.
test('every heatmap cell on screen is its attention weight in viridis, also after an edit', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  const check = async (name, attention) => {
    const grid = await rectOf(page, name);
    const n = attention.length, cell = grid.width / n;
    const clip = { x: Math.floor(grid.x), y: Math.floor(grid.y), width: Math.ceil(grid.width) + 1, height: Math.ceil(grid.height) + 1 };
    const pixels = await screenPixels(page, clip);
    let worst = 0;
    for (let i = 0; i < n; ++i)
      for (let j = 0; j < n; ++j) {
        // A quarter into the cell: away from its printed value and from the next cell's edge.
        const x = Math.floor(grid.x + (j + 0.25) * cell) - clip.x, y = Math.floor(grid.y + (i + 0.25) * cell) - clip.y;
        const k = (y * pixels.width + x) * 4;
        const want = viridis(attention[i][j]);
        for (let c = 0; c < 3; ++c) worst = Math.max(worst, Math.abs(pixels.data[k + c] - want[c]));
      }
    assert.ok(worst <= 2, `${name}: a cell is ${worst} levels off its colour`);
  };
  await frames(page, 2);
  let state = await page.evaluate(() => window.headlab.state());
  await check('detail/heatmap', state.layers[0].heads[0].attention);
  await check('overview/head/0/1', state.layers[0].heads[1].attention);
  await page.evaluate(() => window.headlab.setWeight(0, 0, 'W_Q', 1, 0, 2.5));
  await frames(page, 2);
  state = await page.evaluate(() => window.headlab.state());
  await check('detail/heatmap', state.layers[0].heads[0].attention);
  await check('overview/head/0/0', state.layers[0].heads[0].attention);
  assert.deepEqual(errors, []);
  await context.close();
});

// Words the toy lexicon lacks are marked where the learner reads them, on the heatmap's axes
// (amber and underlined), not only counted in the status bar.
test('unknown words are marked on the heatmap axes', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setText('My grandmother baked fresh bread for the neighbours.'));
  await page.mouse.move(2, 2);
  await frames(page, 3);
  const state = await page.evaluate(() => window.headlab.state());
  const unknown = state.token_info.map((t) => !t.in_lexicon && !t.special);
  assert.ok(unknown.some((u) => u) && unknown.some((u) => !u), `a mix of known and unknown words: ${unknown}`);
  const grid = await rectOf(page, 'detail/heatmap');
  const cell = grid.height / unknown.length;
  const clip = { x: Math.max(0, Math.floor(grid.x - 140)), y: Math.floor(grid.y), width: 136, height: Math.ceil(grid.height) };
  const pixels = await screenPixels(page, clip);
  const amberIn = (i) => {
    let count = 0;
    for (let y = Math.floor(i * cell) + 2; y < Math.floor((i + 1) * cell) - 1; ++y)
      for (let x = 0; x < pixels.width; ++x) {
        const k = (y * pixels.width + x) * 4;
        const [r, g, b] = [pixels.data[k], pixels.data[k + 1], pixels.data[k + 2]];
        if (r > 220 && g > 140 && g < 210 && b < 110) ++count;
      }
    return count;
  };
  unknown.forEach((u, i) => {
    const amber = amberIn(i);
    if (u) assert.ok(amber > 10, `"${state.tokens[i]}" is not in the lexicon: its label is amber (${amber} px)`);
    else assert.equal(amber, 0, `"${state.tokens[i]}" is known: its label is not amber`);
  });
  await screenshot(page, 'lab-unknown-words');
  assert.deepEqual(errors, []);
  await context.close();
});

test('head count through the UI control, then select a head by clicking its thumbnail', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'heads/plus');
  let state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads.length, 5);
  await click(page, 'heads/minus');
  await click(page, 'heads/minus');
  state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads.length, 3);
  await click(page, 'overview/head/0/2');
  state = await page.evaluate(() => window.headlab.state());
  assert.deepEqual(state.selection, { layer: 0, head: 2 });
  assert.deepEqual(errors, []);
  await context.close();
});

test('arc view and concat view open from their tabs', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'tab/arcs');
  const arcs = await rectOf(page, 'arcs');
  assert.ok(arcs.width > 200 && arcs.height > 100);
  await screenshot(page, 'lab-arcs');
  await click(page, 'tab/concat');
  await rectOf(page, 'concat');
  // W_O's colour scale: blue at its negative end, orange at its positive end, numbered.
  const scale = await rectOf(page, 'concat/scale/W_O');
  const pixels = await screenPixels(page, { x: Math.floor(scale.x), y: Math.floor(scale.y), width: Math.ceil(scale.width), height: 4 });
  const at = (x) => { const k = (2 * pixels.width + x) * 4; return [pixels.data[k], pixels.data[k + 1], pixels.data[k + 2]]; };
  const [lr, , lb] = at(3), [rr, , rb] = at(pixels.width - 4);
  assert.ok(lb > lr + 40, `the negative end is blue: ${at(3)}`);
  assert.ok(rr > rb + 40, `the positive end is orange: ${at(pixels.width - 4)}`);
  await rectOf(page, 'concat/scale');
  await screenshot(page, 'lab-concat');
  assert.deepEqual(errors, []);
  await context.close();
});

test('exact entry by double-click refuses text that is not a number', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'editor/tab/W_Q');
  const cell = center(await rectOf(page, 'editor/cell/3/1'));
  const enter = async (text) => {
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await frames(page, 3);
    return (await page.evaluate(() => window.headlab.state())).layers[0].heads[0].W_Q[3][1];
  };
  // ImGui counts a double-click only if the second click comes within 0.3 s of frame time; on a
  // loaded machine one frame can take longer, so a missed double-click is tried again (the final
  // 2.5 proves the entry was open while NaN was typed: it stays open after a refusal).
  let value = 0;
  for (let attempt = 0; attempt < 4 && value !== 2.5; ++attempt) {
    // Two clicks a frame apart: a double-click inside one frame would reach ImGui as one click.
    await page.mouse.click(cell.x, cell.y);
    await frames(page, 1);
    await page.mouse.click(cell.x, cell.y);
    await frames(page, 3);
    assert.ok(Number.isFinite(await enter('NaN')), 'NaN is refused');
    if (attempt === 0) await screenshot(page, 'lab-entry-refused');
    value = await enter('2.5');
    if (value !== 2.5) await page.keyboard.press('Escape');
  }
  assert.equal(value, 2.5);
  assert.deepEqual(errors, []);
  await context.close();
});

test('keys pressed and released between two frames still count: Ctrl-click, Ctrl+A, Enter', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await click(page, 'editor/tab/W_Q');
  const cell = center(await rectOf(page, 'editor/cell/2/1'));
  await page.mouse.move(cell.x, cell.y);
  await frames(page, 2);
  // Each burst is dispatched in one task, so the page cannot draw a frame in the middle of it:
  // exactly what a quick tap on a slow frame looks like to ImGui.
  const burst = (steps) => page.evaluate((list) => {
    const canvas = document.querySelector('canvas');
    for (const [target, type, init] of list)
      (target === 'canvas' ? canvas : window).dispatchEvent(
        type.startsWith('mouse') ? new MouseEvent(type, { bubbles: true, ...init }) : new KeyboardEvent(type, { bubbles: true, ...init }));
  }, steps);
  const ctrl = { key: 'Control', code: 'ControlLeft', keyCode: 17 };
  const at = { clientX: cell.x, clientY: cell.y, button: 0 };
  await burst([['window', 'keydown', { ...ctrl, ctrlKey: true }],
               ['canvas', 'mousedown', { ...at, ctrlKey: true }], ['canvas', 'mouseup', { ...at, ctrlKey: true }],
               ['window', 'keyup', ctrl]]);
  await frames(page, 3);
  await page.keyboard.type('12');
  await frames(page, 2);
  await burst([['window', 'keydown', { ...ctrl, ctrlKey: true }],
               ['window', 'keydown', { key: 'a', code: 'KeyA', keyCode: 65, ctrlKey: true }],
               ['window', 'keyup', { key: 'a', code: 'KeyA', keyCode: 65, ctrlKey: true }],
               ['window', 'keyup', ctrl]]);
  await frames(page, 2);
  await page.keyboard.type('-7.25');
  await frames(page, 2);
  const enter = { key: 'Enter', code: 'Enter', keyCode: 13 };
  await burst([['window', 'keydown', enter], ['window', 'keyup', enter]]);
  await frames(page, 4);
  const value = (await page.evaluate(() => window.headlab.state())).layers[0].heads[0].W_Q[2][1];
  assert.equal(value, -7.25, 'Ctrl-click opened the entry, Ctrl+A selected the 12, Enter set the value');
  assert.deepEqual(errors, []);
  await context.close();
});

test('export the heatmap as PNG from the Export menu: exactly the figure, and the learner stays on their view', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { deviceScaleFactor: 2 });
  await click(page, 'tab/arcs');
  const button = await rectOf(page, 'export/png');
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  await frames(page, 2);
  const download = page.waitForEvent('download');
  const item = center(await rectOf(page, 'export/heatmap_png'));
  await page.mouse.click(item.x, item.y);
  const file = await download;
  assert.match(file.suggestedFilename(), /^headlab-L0H0-heatmap\.png$/);
  const last = await page.evaluate(() => window.headlab.lastExport());
  assert.equal(last.kind, 'png');
  // The heatmap with its axes and colour legend, at device pixels: the figure's rectangle, no more
  // (no tab bar above it).
  await click(page, 'tab/heatmap');
  const figure = await rectOf(page, 'detail/figure');
  const grid = await rectOf(page, 'detail/heatmap');
  const tabs = await rectOf(page, 'tab/heatmap');
  assert.ok(figure.y > tabs.y + tabs.height - 1, 'the tab bar is not in the picture');
  const title = await rectOf(page, 'detail/title');
  assert.ok(figure.y <= title.y + 1 && title.y + title.height <= grid.y, 'the title (head, label, sentence) is');
  assert.ok(figure.x + figure.width > grid.x + grid.width + 30, 'the legend is');
  assert.ok(Math.abs(last.width - Math.round(figure.width * 2)) <= 2, `width ${last.width} vs ${figure.width * 2}`);
  assert.ok(Math.abs(last.height - Math.round(figure.height * 2)) <= 2, `height ${last.height} vs ${figure.height * 2}`);
  await click(page, 'tab/arcs');
  const again = page.waitForEvent('download');
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  await frames(page, 2);
  const item2 = center(await rectOf(page, 'export/heatmap_png'));
  await page.mouse.click(item2.x, item2.y);
  await again;
  await frames(page, 3);
  // The arcs PNG holds the canvas and, above it, the heads' colours and line styles.
  const arcsDownload = page.waitForEvent('download');
  await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
  await frames(page, 2);
  const arcsItem = center(await rectOf(page, 'export/arcs_png'));
  await page.mouse.click(arcsItem.x, arcsItem.y);
  assert.match((await arcsDownload).suggestedFilename(), /^headlab-L0H0-arcs\.png$/);
  const arcsFigure = await rectOf(page, 'arcs/figure');
  const canvas = await rectOf(page, 'arcs');
  assert.ok(arcsFigure.y < canvas.y - 10, 'the legend row is in the picture');
  const arcsPng = await page.evaluate(() => window.headlab.lastExport());
  assert.ok(Math.abs(arcsPng.height - Math.round(arcsFigure.height * 2)) <= 2, `height ${arcsPng.height} vs ${arcsFigure.height * 2}`);
  assert.ok(await page.evaluate(() => window.headlab.widgetRect('arcs')), 'the arc view is back after the export');
  assert.equal(await page.evaluate(() => window.headlab.widgetRect('detail/heatmap')), null);
  assert.deepEqual(errors, []);
  await context.close();
});

test('export the heatmap and the arcs as SVG: well-formed vector figures with the view\'s numbers, in the learner\'s language', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => window.headlab.setText('The cat <sat> & slept.'));
  await page.evaluate(() => window.headlab.setLanguage('zh'));
  await frames(page, 3);
  const exportAs = async (id) => {
    const button = center(await rectOf(page, 'export/png'));
    await page.mouse.click(button.x, button.y);
    await frames(page, 2);
    const download = page.waitForEvent('download');
    const item = center(await rectOf(page, id));
    await page.mouse.click(item.x, item.y);
    const file = await download;
    return { name: file.suggestedFilename(), text: (await page.evaluate(() => window.headlab.lastExport())).text };
  };
  // The browser's own XML parser reads what a viewer or a slide program would.
  const parse = (text) => page.evaluate((svg) => {
    const doc = new DOMParser().parseFromString(svg, 'image/svg+xml');
    if (doc.querySelector('parsererror')) return { error: doc.querySelector('parsererror').textContent };
    const texts = [...doc.querySelectorAll('text')].map((t) => t.textContent);
    return { root: doc.documentElement.nodeName, cells: doc.querySelectorAll('g.cells > rect').length,
             arcs: doc.querySelectorAll('path.arc').length, swatches: doc.querySelectorAll('line.swatch').length,
             dashed: doc.querySelectorAll('path.arc[stroke-dasharray]').length, texts };
  }, text);
  const s = await page.evaluate(() => window.headlab.state());
  const n = s.tokens.length;
  const heatmap = await exportAs('export/heatmap_svg');
  assert.equal(heatmap.name, 'headlab-L0H0-heatmap.svg');
  const h = await parse(heatmap.text);
  assert.equal(h.error, undefined, h.error);
  assert.equal(h.root, 'svg');
  assert.equal(h.cells, n * n, 'a cell per weight');
  assert.ok(h.texts.some((t) => t.startsWith('第 0 层，头 0')), `the title in Chinese (${h.texts[0]})`);
  assert.ok(h.texts.includes('<sat>') || h.texts.some((t) => t.includes('<')), 'tokens with markup characters stay text');
  const weight = s.layers[0].heads[0].attention[1][0].toFixed(2);
  assert.ok(heatmap.text.includes(`: ${weight}</title>`), `the cells carry the view's weights (${weight})`);
  const arcs = await exportAs('export/arcs_svg');
  assert.equal(arcs.name, 'headlab-L0H0-arcs.svg');
  const a = await parse(arcs.text);
  assert.equal(a.error, undefined, a.error);
  assert.equal(a.swatches, s.layers[0].heads.length, 'every shown head in the legend');
  assert.ok(a.arcs > 0, 'the arcs above the threshold');
  assert.ok(a.dashed > 0 && a.dashed < a.arcs, 'heads differ by line style as on screen');
  assert.ok(a.texts.some((t) => t.startsWith('第 0 层')), 'the title in Chinese');
  // The learner's own view comes back after each export.
  await frames(page, 3);
  assert.ok(await page.evaluate(() => window.headlab.widgetRect('detail/heatmap')), 'the heatmap tab is back');
  assert.deepEqual(errors, []);
  await context.close();
});

test('phone-sized viewport stacks the panels and still responds to taps', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 390, height: 844 });
  await frames(page, 3);
  await screenshot(page, 'lab-phone');
  await click(page, 'heads/plus');
  const state = await page.evaluate(() => window.headlab.state());
  assert.equal(state.layers[0].heads.length, 5);
  assert.deepEqual(errors, []);
  await context.close();
});

test('circuits tab: the selected head\'s QK and OV circuits and its layer pair\'s composition, with the API', async () => {
  const { page, errors, context } = await openLab(browser, server.url);
  await page.evaluate(() => { window.headlab.setLayerCount(2); window.headlab.selectHead(1, 0); });
  await click(page, 'tab/circuits');
  await frames(page, 3);
  await screenshot(page, 'lab-circuits');
  const c = await page.evaluate(() => window.headlab.circuits(1, 0));
  const state = await page.evaluate(() => window.headlab.state());
  assert.equal(c.qk.length, state.config.d_model);
  assert.equal(c.feature_names[5], 'noun');
  assert.ok(c.copying_score >= -1 && c.copying_score <= 1);
  const comp = await page.evaluate(() => window.headlab.composition(0, 1));
  assert.equal(comp.k.length, state.layers[0].heads.length);
  assert.ok(comp.baseline.k > 0);
  // Repeated words are scored for the repeat roles; without repeats the scores are null.
  await page.evaluate(() => window.headlab.setText('the cat saw a dog . the cat ran'));
  let scores = (await page.evaluate(() => window.headlab.state())).layers[0].heads[0].scores;
  assert.equal(typeof scores.induction, 'number');
  assert.equal(typeof scores.duplicate_token, 'number');
  await page.evaluate(() => window.headlab.setText('one two three'));
  scores = (await page.evaluate(() => window.headlab.state())).layers[0].heads[0].scores;
  assert.equal(scores.induction, null);
  // Key 5 opens the tab from elsewhere.
  await click(page, 'tab/heatmap');
  await page.keyboard.press('5');
  await frames(page, 2);
  assert.deepEqual(errors, []);
  await context.close();
});

test('a 60-token input keeps readable token labels: the heatmap scrolls instead of shrinking', async () => {
  const { page, errors, context } = await openLab(browser, server.url, { width: 1280, height: 720 });
  const words = 'the cat sat on the mat and the dog ran to the park while birds sang'.split(' ');
  const text = Array.from({ length: 60 }, (_, i) => words[i % words.length]).join(' ');
  await page.evaluate((t) => window.headlab.setText(t), text);
  await frames(page, 3);
  assert.equal((await page.evaluate(() => window.headlab.state())).tokens.length, 60);
  const area = await rectOf(page, 'detail/scroll');
  const grid = await rectOf(page, 'detail/heatmap');
  assert.ok(grid.width / 60 >= 14, `cells stay ${grid.width / 60} px, tall enough for a label`);
  assert.ok(grid.width > area.width, 'the grid is larger than its area, which scrolls');
  await screenshot(page, 'heatmap-60-tokens');
  assert.deepEqual(errors, []);
  await context.close();
});
