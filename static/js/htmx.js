// htmx, loaded as its own script on pages that use it (pages without islands, or islands pages
// that ask for it), so island pages stay within their JS budget.
import htmx from 'htmx.org';

window.htmx = htmx;
htmx.config.defaultSwapStyle = 'outerHTML';
htmx.config.historyCacheSize = 0;
// The Content-Security-Policy allows no injected <style>: the indicator styles live in app.css.
htmx.config.includeIndicatorStyles = false;
// Every htmx request carries the CSRF token of the page.
document.addEventListener('htmx:configRequest', (e) => {
  const token = document.querySelector('meta[name="csrf-token"]')?.content;
  if (token) e.detail.headers['X-CSRF-Token'] = token;
});
