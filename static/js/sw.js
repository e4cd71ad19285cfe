// Palaro's service worker: keeps tickets (/t/…), their QR codes (/q/…), the buyer's order pages
// (/payment/success/…) and ticket list (/tickets), and the gate's scanner page
// (/organizer/events/…/check-in) working offline.
// These pages are fetched from the network first and kept; without a network the kept copy is
// shown. Hashed static files are served from the cache once kept. A page sends the list of its
// files and of the tickets it links to (each with its QR page) after the worker starts, so an order
// page or /tickets keeps every ticket of the buyer, opened or not. Sign-out clears it all.
const CACHE = 'palaro-tickets-v1';
const TICKET_PAGE = /^\/([tq]\/[^/]+|tickets|payment\/success\/[^/]+|organizer\/events\/[^/]+\/check-in)$/;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));

self.addEventListener('message', (e) => {
  const urls = (e.data && e.data.keep) || [];
  // the page sends its own path and its files' absolute URLs: resolve both against this origin
  const same = urls.filter((u) => { try { return new URL(u, self.location.origin).origin === self.location.origin; } catch { return false; } });
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(same.map((u) => c.add(new Request(u, { credentials: 'same-origin' })).catch(() => {})))));
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (TICKET_PAGE.test(url.pathname)) {
    e.respondWith(
      fetch(req)
        .then((res) => {
          if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(url.pathname, copy)); }
          return res;
        })
        .catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())),
    );
  } else if (url.pathname.startsWith('/static/')) {
    e.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
  }
});
