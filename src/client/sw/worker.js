/* global self, caches, VERSION, SHELL */
/*
 * The app's service worker (decision 044). VERSION and SHELL are prepended at build time
 * (scripts/vite/serviceWorker.ts). It serves the app shell and the built files when the network
 * is gone, so a desk that loses its network mid-shift can still reload and log mail (kept in
 * IndexedDB until it is sent). It never caches or answers /api: every read and write of data
 * goes to the server, and a read that fails offline fails as it would without the worker (the
 * screens keep what they loaded).
 */
const CACHE = `pigeonhole-shell-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith('pigeonhole-shell-') && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // Other origins (none today) and the API are the network's alone.
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/') || url.pathname === '/api') return;

  if (request.mode === 'navigate') {
    // The page itself: the server's when it answers (a deploy shows at once), else the shell.
    event.respondWith(
      fetch(request).catch(() => caches.match('/', { cacheName: CACHE }).then((shell) => shell ?? Response.error())),
    );
    return;
  }

  if (url.pathname.startsWith('/assets/')) {
    // Hashed names never change: the cached copy is the file; one fetched later (a page's
    // chunk, the label reader's files) is kept for next time.
    event.respondWith(
      caches.match(request).then(
        (hit) =>
          hit ??
          fetch(request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(CACHE).then((cache) => cache.put(request, copy));
            }
            return response;
          }),
      ),
    );
    return;
  }

  // The manifest, icons and theme script: the network's copy when there is one, else the shell's.
  if (SHELL.includes(url.pathname)) {
    event.respondWith(
      fetch(request).catch(() =>
        caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit ?? Response.error()),
      ),
    );
  }
});
