// The island runtime: finds each element marked data-island="name" and mounts the island's React
// component into it once, with the props from the JSON script named by data-props. It runs again
// after htmx swaps content in. An island whose element holds the server's drawing of it (the
// purchase form, the seat map) reads what the visitor already did from that markup while it first
// renders, and its render replaces the markup in one step (same geometry, so nothing moves); the
// field that had the focus gets it back.
import { createElement, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';

/** serverForm returns the server-drawn form inside the island element of name, while it is still there. */
export function serverForm(name: string): HTMLFormElement | null {
  return document.querySelector<HTMLFormElement>(`[data-island="${name}"]:not([data-mounted]) form`);
}

const mounted = new WeakSet<Element>();

/** mountIsland mounts component into every not-yet-mounted element for the named island. */
export function mountIsland<P extends object>(name: string, component: ComponentType<P>): void {
  const run = () => {
    document.querySelectorAll(`[data-island="${name}"]`).forEach((el) => {
      if (mounted.has(el)) return;
      mounted.add(el);
      const propsEl = document.getElementById(el.getAttribute('data-props') || '');
      const props = propsEl ? (JSON.parse(propsEl.textContent || '{}') as P) : ({} as P);
      const active = document.activeElement;
      const focused = active && el.contains(active) && active.id ? active : null;
      const caret = focused instanceof HTMLInputElement ? focused.selectionStart : null;
      const root = createRoot(el);
      flushSync(() => root.render(createElement(component, props)));
      el.setAttribute('data-mounted', 'true');
      if (focused) {
        const again = document.getElementById(focused.id);
        again?.focus();
        if (again instanceof HTMLInputElement && caret !== null) {
          try { again.setSelectionRange(caret, caret); } catch { /* not a text input */ }
        }
      }
    });
  };
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', run, { once: true });
  } else {
    run();
  }
  document.addEventListener('htmx:afterSettle', run);
}
