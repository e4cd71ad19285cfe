// The island runtime: finds each element marked data-island="name" and mounts the island's React
// component into it once, with the props from the JSON script named by data-props. It runs again
// after htmx swaps content in.
import { createElement, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';

const mounted = new WeakSet<Element>();

/** mountIsland mounts component into every not-yet-mounted element for the named island. */
export function mountIsland<P extends object>(name: string, component: ComponentType<P>): void {
  const run = () => {
    document.querySelectorAll(`[data-island="${name}"]`).forEach((el) => {
      if (mounted.has(el)) return;
      mounted.add(el);
      const propsEl = document.getElementById(el.getAttribute('data-props') || '');
      const props = propsEl ? (JSON.parse(propsEl.textContent || '{}') as P) : ({} as P);
      createRoot(el).render(createElement(component, props));
      el.setAttribute('data-mounted', 'true');
    });
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', run, { once: true });
  } else {
    run();
  }
  document.addEventListener('htmx:afterSettle', run);
}
