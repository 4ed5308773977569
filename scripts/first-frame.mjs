// The first frame from a cold cache, for scripts/bench.mjs and scripts/bench-web.mjs: a fresh browser
// context (empty cache) per load, split by the page's own marks into download and compile (streamed
// together), start-up and the first frame, with the bytes transferred before it.

// { loads: [...], median_ms, median_wasm_downloaded_ms, median_compiled_ms, median_main_ms,
//   median_resources_ms, median_lab_ms, median_initialized_ms, bytes_before_first_frame } over
// `count` loads of `url`.
export async function measureFirstFrame(browser, url, count = 9) {
  const loads = [];
  for (let k = 0; k < count; ++k) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 720 } });
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => performance.getEntriesByName('headlab-first-frame').length > 0, null, { timeout: 30000 });
    loads.push(await page.evaluate(() => {
      const at = (name) => performance.getEntriesByName(name)[0].startTime;
      const first = at('headlab-first-frame');
      const wasm = performance.getEntriesByType('resource').find((e) => e.name.endsWith('headlab.wasm'));
      const nav = performance.getEntriesByType('navigation')[0];
      const before = performance.getEntriesByType('resource').filter((e) => e.responseEnd <= first);
      return { first_frame_ms: first, wasm_downloaded_ms: wasm ? wasm.responseEnd : NaN, compiled_ms: at('headlab-compiled'),
               main_ms: at('headlab-main'), resources_ms: at('headlab-resources'), lab_ms: at('headlab-lab'),
               initialized_ms: at('headlab-initialized'),
               bytes_before_first_frame: before.reduce((sum, e) => sum + e.transferSize, nav ? nav.transferSize : 0),
               wasm_bytes: wasm ? wasm.transferSize : NaN };
    }));
    await context.close();
  }
  const median = (key) => loads.map((l) => l[key]).sort((a, b) => a - b)[Math.floor(loads.length / 2)];
  return { loads, median_ms: median('first_frame_ms'), median_compiled_ms: median('compiled_ms'),
           median_wasm_downloaded_ms: median('wasm_downloaded_ms'), median_main_ms: median('main_ms'),
           median_resources_ms: median('resources_ms'), median_lab_ms: median('lab_ms'),
           median_initialized_ms: median('initialized_ms'), bytes_before_first_frame: median('bytes_before_first_frame') };
}

// One line: the median first frame and where its time went.
export function describeFirstFrame(f) {
  return `first frame (cold, median of ${f.loads.length}): ${f.median_ms.toFixed(0)} ms; wasm downloaded at ` +
         `${f.median_wasm_downloaded_ms.toFixed(0)} ms, compiled at ${f.median_compiled_ms.toFixed(0)} ms (streamed), runtime ` +
         `started main at ${f.median_main_ms.toFixed(0)} ms, assets read at ${f.median_resources_ms.toFixed(0)} ms, the lab's ` +
         `first state at ${f.median_lab_ms.toFixed(0)} ms, fonts and GL ready at ${f.median_initialized_ms.toFixed(0)} ms; ` +
         `${(f.bytes_before_first_frame / 1000).toFixed(0)} kB transferred before it`;
}
