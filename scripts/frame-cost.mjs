// What a frame costs the page's main thread at the largest model the UI allows (6 layers x 16
// heads, d_model 512, 64 tokens), for scripts/bench.mjs: the time inside each animation-frame
// callback (the whole C++ frame: input, forward and analysis of an edit, ImGui's drawing and the
// GL calls that hand it to the GPU process), with each tab of the detail area open, and while a
// real mouse drags a W_Q cell of layer 0. The GPU process's rasterising runs beside it and is not
// counted: headless Chromium here rasterises WebGL in software, which no learner's browser does.
import { openLab, rectOf, click, center } from '../tests/browser/harness.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];

// Records how long each animation-frame callback of the page ran, from now on.
async function recordFrames(page) {
  await page.evaluate(() => {
    window.__frameCost = [];
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => request((time) => {
      const start = performance.now();
      callback(time);
      window.__frameCost.push(performance.now() - start);
    });
  });
}

async function framesDuring(page, run) {
  await page.evaluate(() => { window.__frameCost = []; });
  await run();
  return page.evaluate(() => window.__frameCost);
}

// { tabs: {heatmap, arcs, concat, training, circuits}: median ms, drag: {median_ms, p90_ms, frames} }
export async function measureLargestFrames(browser, url, { seconds = 2 } = {}) {
  const { page, context, errors } = await openLab(browser, url);
  try {
    await page.evaluate(() => {
      const h = window.headlab;
      h.request({ op: 'setDModel', d_model: 512 });
      h.request({ op: 'setLayerCount', count: 6 });
      for (let layer = 0; layer < 6; ++layer) h.request({ op: 'setHeadCount', count: 16, layer });
      h.setText(Array.from({ length: 64 }, (_, i) => 'word' + (i % 13)).join(' '));
    });
    await recordFrames(page);
    const tabs = {};
    for (const tab of ['arcs', 'concat', 'training', 'circuits', 'heatmap']) {
      await click(page, 'tab/' + tab);
      await page.waitForTimeout(500);  // past the first frames, which make the tab's textures
      tabs[tab] = median(await framesDuring(page, () => page.waitForTimeout(seconds * 1000)));
    }
    // The drag: the mouse moves every 30 ms, as a hand's does, for 40 moves.
    await click(page, 'editor/tab/W_Q');
    const cell = center(await rectOf(page, 'editor/cell/0/0'));
    await page.mouse.move(cell.x, cell.y);
    await page.mouse.down();
    await page.waitForTimeout(200);
    const drag = await framesDuring(page, async () => {
      for (let k = 1; k <= 40; ++k) {
        await page.mouse.move(cell.x, cell.y - 2 * k);
        await page.waitForTimeout(30);
      }
    });
    await page.mouse.up();
    if (errors.length) throw new Error('the page reported errors: ' + errors.join('; '));
    return { tabs, drag: { median_ms: median(drag), p90_ms: quantile(drag, 0.9), frames: drag.length } };
  } finally {
    await context.close();
  }
}
