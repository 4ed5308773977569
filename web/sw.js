// The service worker that lets HeadLab open offline after one visit, while online the page behaves
// exactly as without it: every same-origin GET goes to the network first, and the cache only answers
// when the network fails. Registered by web/loader.js; docs/architecture.md, "Offline".
'use strict';

// One cache, versioned by hand. A new build does not need a new name: network first means every
// online load stores the files it just fetched over the old ones, so the cache always holds the
// last build this browser ran. Bump the number only when what is stored changes shape (or must be
// thrown away); activate deletes every other headlab-* cache.
const CACHE_PREFIX = 'headlab-';
const CACHE = CACHE_PREFIX + 'v1';

// The app shell: what index.html loads before the first frame, the trained model and the Chinese
// subset it fetches right after, and the training worker (started by the page's first run), so the
// first visit is enough to open and train offline, in either language. Not lazy-fonts/: English
// learners never download the common Chinese characters; those files are stored when a text first
// needs them, like any other response.
const SHELL = [
  './', 'index.html', 'style.css', 'favicon.svg',
  'module-download.js', 'page-text.js', 'crash.js', 'headlab-api.js', 'exports.js', 'text-input.js', 'fonts.js', 'accessible-view.js',
  'persistence.js', 'checkpoint.js', 'checkpoint-reader.js', 'loader.js', 'late-assets.js', 'training-worker-link.js', 'headlab.js', 'headlab.wasm',
  'models/trained.json', 'models/text.safetensors', 'tokenizers/text.json', 'fonts/cjk.ttf', 'fonts/cjk-chars.txt', 'training-worker.js', 'headlab_trainer.js', 'headlab_trainer.wasm',
];

self.addEventListener('install', (event) => {
  // cache: 'no-cache' so a copy in the HTTP cache is revalidated, never stored stale. addAll is all
  // or nothing: a half-stored shell would fail offline, so a failed install is retried on a later visit.
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: 'no-cache' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
                                      .map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));  // the first visit's page is covered without a reload
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  // Anything else (POST, other origins) is left to the browser exactly as if there were no worker.
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(networkFirst(event));
});

async function networkFirst(event) {
  const request = event.request;
  try {
    const response = await fetch(request);
    // Only whole, successful answers: an error page must not replace a good copy, and the Cache
    // API refuses partial (206) ones. The stored copy keeps the server's headers, so headlab.wasm
    // stays application/wasm for instantiateStreaming and keeps its Content-Length for the bar.
    if (response.status === 200 && response.type === 'basic') {
      const copy = response.clone();
      // A full quota only costs the offline copy; the page still gets its answer.
      event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)).catch(() => {}));
    }
    return response;
  } catch (networkError) {
    // The URL's fragment (a share link, #s=...) never reaches the worker, so a link opens offline
    // from the cached page; a navigation with a query falls back to the page too.
    const cached = await caches.match(request, { cacheName: CACHE }) ||
                   (request.mode === 'navigate' ? await caches.match('index.html', { cacheName: CACHE }) : undefined);
    if (cached) return cached;
    throw networkError;  // the page sees the same failure it would see without a worker
  }
}
