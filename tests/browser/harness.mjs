// Shared set-up for the browser tests: serve build/web on a free port, start Debian's Chromium
// through playwright-core, collect console errors, save screenshots under artifacts/.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const artifacts = path.join(here, 'artifacts');
fs.mkdirSync(artifacts, { recursive: true });

export async function startServer() {
  const child = spawn(process.execPath, [path.join(here, '..', '..', 'scripts', 'serve.mjs'), '--port', '0'],
                      { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      const match = buffer.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) resolve(match[0]);
    });
    child.on('exit', (code) => reject(new Error('server exited with ' + code)));
  });
  return { url, stop: () => child.kill() };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
           '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
           '--disable-sync'],
  });
}

// Opens the page and waits for window.headlab.ready. Returns { page, errors, requests }.
// The lab opens as on a later visit (the plain default model) unless `firstVisit` is set: a first
// visit opens on the starting model (web/persistence.js), which only first_visit.test.mjs is about.
export async function openLab(browser, url, { width = 1280, height = 720, deviceScaleFactor = 1, hash = '', touch = false,
                                              firstVisit = false, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor, hasTouch: touch, isMobile: touch, locale });
  if (!firstVisit) await context.addInitScript(() => { try { localStorage.setItem('headlab.visited', '1'); } catch (e) { /* none */ } });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(url + hash);
  await page.waitForFunction(() => window.headlab && window.headlab.ready, null, { timeout: 30000 });
  await page.evaluate(() => window.headlab.ready);
  return { page, context, errors, requests };
}

export async function screenshot(page, name) {
  const file = path.join(artifacts, name + '.png');
  await page.screenshot({ path: file });
  return file;
}

// Waits for a few animation frames so the canvas shows the latest state, and then for as many more
// as the lab needs to act on all the input it has received: ImGui applies one change of each key or
// button per frame, so keys typed within one frame land over the next few (at most 120 frames).
export async function frames(page, count = 3) {
  await page.evaluate((n) => new Promise((resolve) => {
    const pending = () => (window.headlab && window.headlab.inputPending ? window.headlab.inputPending() : 0);
    const step = (k, extra) => {
      if (k > 0) requestAnimationFrame(() => step(k - 1, extra));
      else if (pending() > 0 && extra > 0) requestAnimationFrame(() => step(0, extra - 1));
      else resolve();
    };
    step(n, 120);
  }), count);
}

// Widgets by name (src/ui/widget_ids.h), clicked where the page says they are: no pixel hunting.
export const center = (r) => ({ x: r.x + r.width / 2, y: r.y + r.height / 2 });

// The widget's rectangle once it has held still for a frame: a popup or menu that has just opened
// is laid out over its first frames (its items start narrow), and a click there would miss.
export async function rectOf(page, name) {
  await frames(page, 2);
  let rect = await page.evaluate((n) => window.headlab.widgetRect(n), name);
  for (let k = 0; k < 20; ++k) {
    await frames(page, 1);
    const next = await page.evaluate((n) => window.headlab.widgetRect(n), name);
    if (JSON.stringify(next) === JSON.stringify(rect)) break;
    rect = next;
  }
  assert.ok(rect, `widget ${name} is on screen`);
  return rect;
}

export async function click(page, name) {
  const p = center(await rectOf(page, name));
  await page.mouse.click(p.x, p.y);
  await frames(page, 3);
}

// From now on counts the frames the page draws in window.drawnFrames: every drawn frame clears the
// canvas first, and a frame with nothing new to show is not drawn (src/ui/frame_memory.h).
export async function countDrawnFrames(page) {
  await page.evaluate(() => {
    window.drawnFrames = 0;
    const clear = WebGL2RenderingContext.prototype.clear;
    WebGL2RenderingContext.prototype.clear = function (mask) { window.drawnFrames++; return clear.call(this, mask); };
  });
}
