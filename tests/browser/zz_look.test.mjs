import test from 'node:test';
import { startServer, launchBrowser, openLab, screenshot, frames, click, rectOf, center } from './harness.mjs';

test('look: layer profile and pruning curve', async () => {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    for (const [w, h, dpr, name] of [[1280, 720, 1, 'wide'], [1920, 1080, 2, 'big'], [390, 844, 1, 'phone']]) {
      const { page, errors } = await openLab(browser, server.url, { width: w, height: h, deviceScaleFactor: dpr });
      await page.evaluate(() => { window.headlab.trainStep(1500); window.headlab.trainUseModel(); });
      await frames(page, 3);
      await click(page, 'overview/summary');
      await click(page, 'tab/labels');
      await click(page, 'labels/pruning');
      await click(page, 'labels/pruning/measure');
      await frames(page, 3);
      const r = await rectOf(page, 'labels/pruning/count');
      await page.mouse.click(r.x + r.width * 0.4, r.y + r.height / 2);
      await frames(page, 3);
      await page.mouse.move(5, h - 5);
      await frames(page, 3);
      await screenshot(page, `look-${name}-prune`);
      console.log(name, JSON.stringify(await page.evaluate(() => window.headlab.layerProfile())));
      const t0 = Date.now();
      const curve = await page.evaluate(() => window.headlab.pruningCurve());
      console.log(name, 'pruningCurve ms', Date.now() - t0, curve.measure, curve.importance.map((x) => x.toFixed(2)).join(' '), '|', curve.random.mean.map((x) => x.toFixed(2)).join(' '));
      await click(page, 'labels/pruning/apply');
      console.log('pruned', JSON.stringify(await page.evaluate(() => window.headlab.state().layers.map((l) => l.heads.map((h) => h.pruned)))));
      console.log('errors', errors);
      await page.context().close();
      if (name !== 'wide') continue;
    }
  } finally { await browser.close(); server.stop(); }
});
