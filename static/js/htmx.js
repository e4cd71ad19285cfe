// htmx, loaded as its own script on pages that use it (pages without islands, or islands pages
// that ask for it), so island pages stay within their JS budget.
import htmx from 'htmx.org';

window.htmx = htmx;
htmx.config.defaultSwapStyle = 'outerHTML';
htmx.config.historyCacheSize = 0;
