// htmx, loaded as its own script on pages that use it (pages without islands, or islands pages
// that ask for it), so island pages stay within their JS budget.
// The build makes it a classic script (an IIFE), as the page script.
import htmx from 'htmx.org';
import type {} from '../lib/events'; // the htmx events' details

declare global {
  interface Window {
    htmx?: typeof htmx;
  }
}

window.htmx = htmx;
htmx.config.defaultSwapStyle = 'outerHTML';
htmx.config.historyCacheSize = 0;
// The Content-Security-Policy allows no injected <style>: the indicator styles live in app.css.
htmx.config.includeIndicatorStyles = false;
// A cached public page carries no CSRF token: before a state-changing request, it is fetched
// from /v1/csrf (which starts the visitor's session) and kept in a meta element.
document.addEventListener('htmx:confirm', (e) => {
  if (e.detail.verb === 'get' || document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content) return;
  e.preventDefault();
  fetch('/v1/csrf', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
    .then((res) => res.json())
    .then(({ token }: { token?: string }) => {
      if (!token) return;
      const m = document.createElement('meta');
      m.name = 'csrf-token';
      m.content = token;
      document.head.appendChild(m);
    })
    .catch(() => { /* the server refuses the request and the toast says so */ })
    .finally(() => e.detail.issueRequest(true));
});
// Every htmx request carries the CSRF token of the page.
document.addEventListener('htmx:configRequest', (e) => {
  const token = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  if (token) e.detail.headers['X-CSRF-Token'] = token;
});
