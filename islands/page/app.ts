// Palaro's page script: menu, popups, toast, loading indicator (htmx requests included), 'around me',
// cookie consent and the hourly build check. Pages work without it; it only enhances them. htmx
// itself is a separate script (islands/page/htmx.ts) that the layout adds to the pages that use it.
// The build makes it a classic script (an IIFE), so it runs before the islands and without modules.
import type { Palaro, PopupDetail, ToastDetail } from '../lib/events';

/** Fbq is the ad pixel's queueing function, until its script loads. */
type Fbq = { (...args: unknown[]): void; queue: IArguments[] };

declare global {
  interface Window {
    dataLayer?: unknown[];
    fbq?: Fbq;
  }
}

const TOAST_MS = 10000;
const BUILD_CHECK_MS = 60 * 60 * 1000;
const RELOAD_GUARD_MS = 10000;

const $ = <E extends Element = HTMLElement>(sel: string, root: ParentNode = document) => root.querySelector<E>(sel);
const $$ = <E extends Element = HTMLElement>(sel: string, root: ParentNode = document) => Array.from(root.querySelectorAll<E>(sel));

// ---- Global events (SPEC.md section 4): toggle-nav, toggle-popup, toggle-toast, toggle-loading.
const emit = (name: string, detail?: unknown) => document.dispatchEvent(new CustomEvent(name, { detail }));
const palaro: Palaro = (window.palaro = { emit });

// ---- Back closes what is open (menu, popup, quick-buy sheet): opening one adds a history entry
// on the same URL, so Back (popstate) closes it instead of leaving the page; closing it any other
// way steps back over that entry, and a link followed from inside it replaces the entry.
type OverlayKey = string | EventTarget | null; // 'menu', 'buy' or the popup's dialog
let overlay: { key: OverlayKey; close: () => void } | null = null; // what is open
let overlayEntry = false; // the current history entry is an overlay's
let ownPop = false; // the next popstate is our own step back
let stepBack = 0;
function overlayOpened(key: OverlayKey, close: () => void) {
  clearTimeout(stepBack);
  overlay = { key, close };
  if (!overlayEntry) { history.pushState({ overlay: true }, ''); overlayEntry = true; }
}
function overlayClosed(key: OverlayKey) {
  if (overlay?.key !== key) return;
  overlay = null;
  // Deferred, so that an overlay opened at once (a menu item that opens a popup) takes the entry over.
  stepBack = setTimeout(() => {
    if (overlay || !overlayEntry) return;
    overlayEntry = false;
    ownPop = true;
    history.back();
  });
}
function resetOverlay() {
  clearTimeout(stepBack);
  overlay = null;
  overlayEntry = !!history.state?.overlay;
}
window.addEventListener('popstate', () => {
  const open = ownPop ? null : overlay;
  ownPop = false;
  resetOverlay();
  open?.close();
});
// Leaving the page from an open overlay replaces its entry, so Back returns to the page itself.
function leave(url: string) {
  if (overlayEntry) location.replace(url);
  else location.assign(url);
}
palaro.leave = leave;

// ---- Menu overlay
const menu = $('#menu');
const menuButton = $('.menu-button');
function setMenu(open: boolean) {
  if (!menu) return;
  menu.classList.toggle('open', open);
  document.body.classList.toggle('menu-open', open);
  menuButton?.setAttribute('aria-expanded', String(open));
  menuButton?.setAttribute('aria-label', open ? 'Close menu' : 'Open menu');
  if (open) {
    $('.menu-items a', menu)?.focus();
    overlayOpened('menu', () => setMenu(false));
  } else {
    if (location.hash === '#menu') history.replaceState(history.state, '', location.pathname + location.search);
    overlayClosed('menu');
  }
}
document.addEventListener('toggle-nav', (e) => setMenu(e.detail ?? !menu?.classList.contains('open')));
menuButton?.addEventListener('click', (e) => { e.preventDefault(); emit('toggle-nav'); });
$('.menu-close')?.addEventListener('click', (e) => { e.preventDefault(); setMenu(false); });
menu?.addEventListener('click', (e) => {
  if (e.target === menu) return setMenu(false);
  const a = (e.target as Element).closest('a');
  if (!a || a.classList.contains('menu-close')) return;
  // A link to the current page, or one that opens a popup, closes the menu without navigating.
  const same = a.pathname === location.pathname && a.search === location.search;
  if (same || a.dataset.popup) { e.preventDefault(); setMenu(false); }
});
if (location.hash === '#menu') setMenu(true);
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && menu?.classList.contains('open')) { setMenu(false); menuButton?.focus(); }
});
// A page restored from the back/forward cache is a route change too: the menu starts closed.
window.addEventListener('pageshow', (e) => { if (e.persisted) { resetOverlay(); setMenu(false); setLoading(false, true); } });

// ---- Filters: the active date filter is scrolled into view in its row.
// The first filter is in view already: skip the layout read (a forced reflow during start-up).
const activeFilter = $('nav.filters a[aria-current="true"]');
if (activeFilter?.previousElementSibling) activeFilter.parentElement!.scrollLeft = activeFilter.offsetLeft - activeFilter.parentElement!.offsetLeft - 16;

// ---- Popups: toggle-popup with false/null closes; {type, item} opens that popup.
let openDialog: HTMLDialogElement | null = null;
function togglePopup(detail: PopupDetail | null) {
  if (openDialog?.open) openDialog.close();
  openDialog = null;
  if (!detail) return;
  const dialog = document.getElementById('popup-' + detail.type) as HTMLDialogElement | null;
  if (!dialog) return;
  const item = detail.item || {};
  if (detail.type === 'alert') {
    $('.popup-title', dialog)!.textContent = item.title || '';
    $('.alert-message', dialog)!.textContent = item.message || '';
    dialog.classList.toggle('transparent', !!item.transparent);
  }
  if (detail.type === 'image') {
    const img = $<HTMLImageElement>('img', dialog)!;
    img.src = item.src!;
    img.alt = item.alt || '';
  }
  openDialog = dialog;
  dialog.showModal();
  overlayOpened(dialog, () => togglePopup(null));
}
// However a popup closes (its button, Escape, a click outside), its history entry goes with it.
document.addEventListener('close', (e) => overlayClosed(e.target), true);
document.addEventListener('toggle-popup', (e) => togglePopup(e.detail));
document.addEventListener('click', (e) => {
  const target = e.target as Element;
  const opener = target.closest<HTMLElement>('[data-popup]');
  if (opener) {
    e.preventDefault();
    return emit('toggle-popup', { type: opener.dataset.popup, item: {} });
  }
  const img = target.closest<HTMLImageElement>('img[data-popup-image]');
  if (img) return emit('toggle-popup', { type: 'image', item: { src: img.currentSrc || img.src, alt: img.alt } });
  if (target.closest('[data-close-popup]') || (target.tagName === 'DIALOG' && target === openDialog)) {
    return emit('toggle-popup', null);
  }
  if (target.closest('#popup-alert')) return emit('toggle-popup', null);
});

// ---- Password fields: show/hide toggle.
document.addEventListener('click', (e) => {
  const btn = (e.target as Element).closest<HTMLElement>('[data-toggle-password]');
  if (!btn) return;
  const input = document.getElementById(btn.dataset.togglePassword!) as HTMLInputElement | null;
  if (!input) return;
  const show = input.type === 'password';
  input.type = show ? 'text' : 'password';
  btn.textContent = show ? 'Hide' : 'Show';
  btn.setAttribute('aria-pressed', String(show));
});

// ---- Suggested codes: a field with data-suggest-from (a new event's code) follows the named field
// (its name) as palaro.SuggestEventCode does, until the person types in it; emptied, it follows again.
const suggestCode = (s: string) =>
  s.normalize('NFD').replace(/\p{Mn}/gu, '').toLowerCase().trim()
    .replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80).replace(/-+$/, '');
for (const code of $$<HTMLInputElement>('input[data-suggest-from]')) {
  const from = document.getElementById(code.dataset.suggestFrom!) as HTMLInputElement | null;
  if (!from) continue;
  let edited = code.value !== '' && code.value !== suggestCode(from.value);
  code.addEventListener('input', () => { edited = code.value !== ''; });
  from.addEventListener('input', () => { if (!edited) code.value = suggestCode(from.value); });
}

// ---- Top bar: back arrow goes back in history when there is history; refresh reloads.
$('[data-back]')?.addEventListener('click', (e) => {
  if (history.length > 1 && document.referrer && new URL(document.referrer).origin === location.origin) {
    e.preventDefault();
    history.back();
  }
});
$('[data-refresh]')?.addEventListener('click', () => location.reload());

// ---- Error toast: shows a message, dismissed after 10 s or on click.
const toast = $('#toast');
let toastTimer: number | undefined;
function showToast(detail: ToastDetail | null) {
  if (!toast) return;
  clearTimeout(toastTimer);
  if (!detail) { toast.hidden = true; return; }
  $('.toast-message', toast)!.textContent = detail.message || 'Error occured. Please try again.';
  toast.dataset.type = detail.type || 'error';
  toast.hidden = false;
  placeToast();
  toastTimer = setTimeout(() => { toast.hidden = true; }, TOAST_MS);
}
// placeToast lifts the toast above a bar it must not cover (such as the seat map's Continue button).
function placeToast() {
  const bar = [...document.querySelectorAll('[data-toast-above]')].map((e) => e.getBoundingClientRect())
    .filter((r) => r.height > 0 && r.top < innerHeight && r.bottom > 0).sort((a, b) => a.top - b.top)[0];
  toast!.style.bottom = bar ? `${Math.max(16, innerHeight - bar.top + 12)}px` : '';
}
document.addEventListener('toggle-toast', (e) => showToast(e.detail));
toast?.addEventListener('click', () => showToast(null));

// ---- Loading indicator: on at each request start, off at each response or error.
const loading = $('#loading');
let pending = 0;
function setLoading(on: boolean, reset?: boolean) {
  pending = reset ? 0 : Math.max(0, pending + (on ? 1 : -1));
  if (loading) loading.hidden = pending === 0;
}
document.addEventListener('toggle-loading', (e) => setLoading(!!e.detail));
document.addEventListener('htmx:beforeRequest', () => setLoading(true));
document.addEventListener('htmx:afterRequest', () => setLoading(false));
document.addEventListener('htmx:responseError', (e) => {
  let message: string | undefined = '';
  try { message = (JSON.parse(e.detail.xhr.responseText) as { message?: string }).message; } catch { /* HTML error page */ }
  showToast({ type: 'error', message: message || 'Error occured. Please try again.' });
});
document.addEventListener('htmx:sendError', () => showToast({ type: 'error', message: 'Error occured. Please try again.' }));
// 'Load more' puts the page it loaded in the address (?page=N, which the server renders as pages
// 1 to N), without a history entry: coming back to the list shows what was loaded, where it was.
// The link is swapped out by its response, so its own afterRequest is heard on the link itself.
document.addEventListener('htmx:beforeRequest', (e) => {
  const more = e.detail.elt as HTMLAnchorElement;
  if (!more.matches?.('a.load-more')) return;
  more.addEventListener('htmx:afterRequest', (after) => {
    if (!after.detail.successful) return;
    const url = new URL(more.href);
    history.replaceState(history.state, '', url.pathname + url.search);
  }, { once: true });
});

// ---- Quick buy: the server draws a hidden sheet per ticket; the tap on 'Quick buy' opens it at
// once and loads the quick-buy island, which takes the open sheet over when it arrives (the event
// page ships no React until then). Until then the sheet's form posts to the buy page, with the
// CSRF token from /v1/csrf (the page is the same for everyone and carries none).
// toggle-buy-ticket {code} opens a ticket's sheet; null closes it.
let csrf: Promise<string> | null = null;
function csrfToken(): Promise<string> {
  csrf = csrf || fetch('/v1/csrf', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then((r) => r.json()).then((d: { token?: string }) => d.token || '').catch(() => { csrf = null; return ''; });
  return csrf;
}
function quickSheets() { return $$('[data-quick-sheet]'); }
function openQuickSheet(code: string) {
  const sheet = $(`[data-quick-sheet="${CSS.escape(code)}"]`);
  if (!sheet) return false;
  sheet.hidden = false;
  void sheet.offsetWidth; // lays out the closed state, so the opening runs its transition in this frame
  sheet.classList.add('open');
  $('input[name="email"]', sheet)?.focus();
  csrfToken().then((t) => { for (const i of $$<HTMLInputElement>('input[name="_csrf"]', sheet)) i.value = t; });
  return true;
}
function closeQuickSheets() {
  for (const sheet of quickSheets()) {
    sheet.classList.remove('open');
    setTimeout(() => { if (!sheet.classList.contains('open')) sheet.hidden = true; }, 250);
  }
}
document.addEventListener('click', (e) => {
  const b = (e.target as Element).closest<HTMLAnchorElement>('[data-quick-buy]');
  const host = $('[data-island="quickbuy"][data-src]');
  if (!b || !host) return;
  e.preventDefault();
  const code = b.dataset.quickBuy!;
  palaro.buyTicket = code;
  if (host.hasAttribute('data-mounted')) return emit('toggle-buy-ticket', { code });
  if (!openQuickSheet(code)) return location.assign(b.href);
  emit('toggle-buy-ticket', { code });
  // no fallback needed: without the island, the open sheet still buys through the buy page
  import(host.dataset.src!).catch(() => {});
});
// The server-drawn sheet closes on its button, a tap beside it and Escape, as the island's does.
document.addEventListener('click', (e) => {
  const target = e.target as Element;
  const sheet = target.closest('[data-quick-sheet]');
  if (sheet && (target === sheet || target.closest('[data-quick-close]'))) emit('toggle-buy-ticket', null);
});
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && quickSheets().some((s) => !s.hidden)) emit('toggle-buy-ticket', null);
});
// A sheet sent before its token arrived waits for it, then goes.
document.addEventListener('submit', (e) => {
  const form = e.target as HTMLFormElement;
  const token = form.closest?.('[data-quick-sheet]') && $<HTMLInputElement>('input[name="_csrf"]', form);
  if (!token || token.value) return;
  e.preventDefault();
  csrfToken().then((t) => {
    token.value = t;
    if (t) form.requestSubmit(e.submitter);
    else location.assign(form.action); // the buy page carries its own token
  });
});

document.addEventListener('toggle-buy-ticket', (e) => {
  if (e.detail?.code) overlayOpened('buy', () => emit('toggle-buy-ticket', null));
  else {
    palaro.buyTicket = '';
    closeQuickSheets();
    overlayClosed('buy');
  }
});

// ---- Offline tickets: a ticket or QR page, an order page, /tickets (or a gate's scanner page)
// registers the service worker and asks it to keep the page, the files it loaded and every ticket
// it links to with that ticket's QR page, so all of the buyer's tickets open without a network.
if ('serviceWorker' in navigator && /^\/([tq]\/[^/]+|tickets|payment\/success\/[^/]+|organizer\/events\/[^/]+\/check-in)$/.test(location.pathname)) {
  navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    const files = performance.getEntriesByType('resource').map((r) => r.name).filter((u) => u.includes('/static/'));
    const tickets = new Set<string>();
    $$<HTMLAnchorElement>('a[href^="/t/"], a[href^="/q/"]').forEach((a) => {
      const m = new URL(a.href).pathname.match(/^\/[tq]\/([^/]+)$/);
      if (m) { tickets.add('/t/' + m[1]); tickets.add('/q/' + m[1]); }
    });
    reg.active?.postMessage({ keep: [location.pathname, ...files, ...tickets] });
  }).catch(() => { /* no offline copy: the page still works online */ });
}

// ---- Sign-out on a shared phone: nothing of the account stays. The server's Clear-Site-Data does
// it where the browser honours it (https); this does it everywhere: the gate's kept lists and
// queues (localStorage 'palaro.gate.…') and the pages the service worker kept. Signing out with
// offline check-ins not yet synced asks first, as they would be lost.
{
  const gateKeys = () => Object.keys(localStorage).filter((k) => k.startsWith('palaro.gate.'));
  if (location.pathname === '/sign-in' && new URLSearchParams(location.search).has('signed-out')) {
    try { gateKeys().forEach((k) => localStorage.removeItem(k)); } catch { /* no storage */ }
    if (window.caches) caches.keys().then((names) => Promise.all(names.filter((n) => n.startsWith('palaro-')).map((n) => caches.delete(n)))).catch(() => {});
  }
  document.addEventListener('submit', (e) => {
    if (!(e.target as Element).matches?.('form[action="/sign-out"]')) return;
    let waiting = 0;
    gateKeys().forEach((k) => {
      try { waiting += ((JSON.parse(localStorage.getItem(k) || '{}') as { queue?: unknown[] } | null)?.queue || []).length; } catch { /* not a gate's state */ }
    });
    if (waiting > 0 && !confirm(`${waiting === 1 ? '1 check-in' : waiting + ' check-ins'} on this phone ${waiting === 1 ? 'is' : 'are'} not synced yet. Signing out deletes them. Sign out anyway?`)) e.preventDefault();
  });
}

// ---- Around me: asks for the location and opens the list sorted by distance.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest<HTMLAnchorElement>('a[data-around-me]');
  if (!a || !navigator.geolocation) return;
  e.preventDefault();
  const message = $('.around-me-message');
  const say = (text: string) => { if (message) { message.textContent = text; message.hidden = false; } };
  say('Finding events around you…');
  navigator.geolocation.getCurrentPosition(
    (pos) => {
      const url = new URL(a.href, location.href);
      url.searchParams.set('lat', pos.coords.latitude.toFixed(4));
      url.searchParams.set('lng', pos.coords.longitude.toFixed(4));
      location.assign(url.toString());
    },
    () => say('We could not get your location. Allow location access in your browser to see events around you, or pick another filter.'),
    { timeout: 10000, maximumAge: 600000 },
  );
});

// ---- Profile picture: a file over the server's limit (data-max-bytes, with the server's message
// in data-too-large) is refused here, before it is uploaded; choosing another clears the message.
const pictureTooLarge = (input: HTMLInputElement) => {
  const file = input.files && input.files[0];
  return !!file && file.size > Number(input.dataset.maxBytes);
};
function showPictureError(input: HTMLInputElement, message: string | undefined) {
  const error = $('#' + input.id + '-error');
  const hint = $('#' + input.id + '-hint');
  if (!error) return;
  error.textContent = message ?? null;
  error.hidden = !message;
  if (hint) hint.hidden = !!message;
  input.closest('.field-file')?.classList.toggle('has-error', !!message);
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  input.setAttribute('aria-describedby', message || !hint ? error.id : hint.id);
}
document.addEventListener('change', (e) => {
  const input = (e.target as Element).closest?.<HTMLInputElement>('input[type="file"][data-max-bytes]');
  if (input) showPictureError(input, pictureTooLarge(input) ? input.dataset.tooLarge : '');
});
document.addEventListener('submit', (e) => {
  const input = (e.target as HTMLFormElement).querySelector?.<HTMLInputElement>('input[type="file"][data-max-bytes]');
  if (input && pictureTooLarge(input)) {
    e.preventDefault();
    showPictureError(input, input.dataset.tooLarge);
    input.focus();
  }
});

// ---- Cookie consent: the tag manager and the ad pixel load only after consent.
const CONSENT_KEY = 'palaro-consent';
function loadTrackers() {
  const script = document.currentScript || $('script[data-tag-manager]');
  const gtm = script?.dataset.tagManager;
  const pixel = script?.dataset.pixel;
  if (gtm) {
    window.dataLayer = window.dataLayer || [];
    window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
    const s = document.createElement('script');
    s.async = true;
    s.src = 'https://www.googletagmanager.com/gtm.js?id=' + encodeURIComponent(gtm);
    document.head.appendChild(s);
  }
  if (pixel && !window.fbq) {
    const fbq = function () { fbq.queue.push(arguments); } as Fbq;
    fbq.queue = [];
    window.fbq = fbq;
    fbq('init', pixel);
    fbq('track', 'PageView');
    const s = document.createElement('script');
    s.async = true;
    s.src = 'https://connect.facebook.net/en_US/fbevents.js';
    document.head.appendChild(s);
  }
}
function consent() { try { return localStorage.getItem(CONSENT_KEY); } catch { return null; } }
document.addEventListener('click', (e) => {
  const b = (e.target as Element).closest<HTMLElement>('[data-consent]');
  if (!b) return;
  try { localStorage.setItem(CONSENT_KEY, b.dataset.consent!); } catch { /* private mode */ }
  $('#cookie-notice')?.setAttribute('hidden', '');
  emit('toggle-popup', null);
  if (b.dataset.consent === 'accepted') loadTrackers();
});
if (consent() === 'accepted') loadTrackers();
else if (!consent()) $('#cookie-notice')?.removeAttribute('hidden');

// ---- Build check: hourly; after a new build is found, the next navigation is a full reload.
const buildMeta = $<HTMLMetaElement>('meta[name="palaro-build"]');
let staleBuild = false;
function recentlyReloaded() {
  try { return Date.now() - Number(sessionStorage.getItem('palaro-reloaded-at') || 0) < RELOAD_GUARD_MS; } catch { return false; }
}
function reloadTo(url: string) {
  try { sessionStorage.setItem('palaro-reloaded-at', String(Date.now())); } catch { /* ignore */ }
  location.assign(url);
}
async function checkBuild(): Promise<void> {
  try {
    const res = await fetch('/build.json', { cache: 'no-store' });
    const { build } = (await res.json()) as { build?: string };
    if (build && buildMeta && build !== buildMeta.content) staleBuild = true;
  } catch { /* offline: try again next hour */ }
}
setInterval(checkBuild, BUILD_CHECK_MS);
palaro.checkBuild = checkBuild;
document.addEventListener('htmx:beforeRequest', (e) => {
  if (staleBuild && !recentlyReloaded() && e.detail.requestConfig.verb === 'get') {
    e.preventDefault();
    reloadTo(location.href);
  }
});
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest<HTMLAnchorElement>('a[href]');
  if (staleBuild && a && a.origin === location.origin && !recentlyReloaded()) {
    e.preventDefault();
    reloadTo(a.href);
  }
});
// A failed load of an island's code chunk reloads the page once (guarded by the same window).
window.addEventListener('error', (e) => {
  const t = e.target;
  const src = t instanceof HTMLScriptElement ? t.src : t instanceof HTMLLinkElement && t.rel === 'modulepreload' ? t.href : '';
  if (src && src.includes('/static/dist/') && !recentlyReloaded()) reloadTo(location.href);
}, true);
window.addEventListener('unhandledrejection', (e) => {
  if (/dynamically imported module|Importing a module script failed/i.test(String(e.reason)) && !recentlyReloaded()) reloadTo(location.href);
});

// A same-site link followed from an open overlay (a menu item) replaces the overlay's history entry.
// Registered last, so that the handlers above that keep a click on the page have had their turn.
document.addEventListener('click', (e) => {
  const a = (e.target as Element).closest<HTMLAnchorElement>('a[href]');
  if (!overlayEntry || !a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  if (a.target || a.hasAttribute('download') || a.origin !== location.origin || a.getAttribute('href')!.startsWith('#')) return;
  e.preventDefault();
  leave(a.href);
});

// ---- Auto-submit (the page a booth's QR opens): a form marked data-autosubmit is sent at once,
// except when the page is reached by Back/Forward or from the back-forward cache, so Back from
// the result does not send it again.
{
  const nav = performance.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  if (nav?.type !== 'back_forward') {
    $$<HTMLFormElement>('form[data-autosubmit]').forEach((f) => (f.requestSubmit ? f.requestSubmit() : f.submit()));
  }
}

// ---- The quiz one question at a time: after Back or Next, the new question's progress line
// takes the focus (a screen reader reads where it is) and comes into view.
{
  let quizMoved = false;
  document.addEventListener('htmx:beforeRequest', (e) => { if (e.detail?.elt?.matches?.('.quiz-nav button')) quizMoved = true; });
  document.addEventListener('htmx:afterSettle', () => {
    if (!quizMoved) return;
    quizMoved = false;
    const p = $('.quiz-step .quiz-progress');
    if (p) { p.focus({ preventScroll: true }); p.scrollIntoView({ block: 'nearest' }); }
  });
}
