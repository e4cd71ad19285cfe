// The page's global events (SPEC.md section 4) and htmx's, with their details, and window.palaro,
// which the page script (islands/page/app.ts) sets and the islands call. Types only: importing this
// module adds no code, and the declarations below apply to every file of the project.
import type { HtmxRequestConfig, HtmxResponseInfo, HttpVerb } from 'htmx.org';

/** Palaro is window.palaro: what the page script offers the islands. */
export interface Palaro {
  /** emit dispatches one of the page's global events on the document. */
  emit: (name: string, detail?: unknown) => void;
  /** leave goes to url, replacing the history entry of an open menu, popup or sheet. */
  leave?: (url: string) => void;
  /** buyTicket is the code of the ticket whose quick-buy sheet is open, or ''. */
  buyTicket?: string;
  /** checkBuild asks the server for its build now (tests call it). */
  checkBuild?: () => Promise<void>;
}

/** PopupDetail opens a popup: its type names the dialog popup-{type}; item fills an alert or an image. */
export type PopupDetail = {
  type: string;
  item?: { title?: string; message?: string; transparent?: boolean; src?: string; alt?: string };
};

/** ToastDetail shows the toast with a message; type is 'error' unless told. */
export type ToastDetail = { type?: string; message?: string };

/** PageEvents are the page's global events and their details; a false or null detail closes. */
export interface PageEvents {
  'toggle-nav': CustomEvent<boolean | null | undefined>;
  'toggle-popup': CustomEvent<PopupDetail | null>;
  'toggle-toast': CustomEvent<ToastDetail | null>;
  'toggle-loading': CustomEvent<unknown>;
  'toggle-buy-ticket': CustomEvent<{ code?: string } | null>;
}

/** HtmxRequestDetail is the detail of htmx's request events, on the element that sent the request. */
export type HtmxRequestDetail = HtmxResponseInfo & { elt: Element };

/** HtmxEvents are the htmx events the page listens to, and their details. */
export interface HtmxEvents {
  'htmx:confirm': CustomEvent<{ verb: HttpVerb; elt: Element; issueRequest: (skipConfirmation?: boolean) => void }>;
  'htmx:configRequest': CustomEvent<Pick<HtmxRequestConfig, 'headers' | 'verb'> & { elt: Element }>;
  'htmx:beforeRequest': CustomEvent<HtmxRequestDetail>;
  'htmx:afterRequest': CustomEvent<HtmxRequestDetail>;
  'htmx:responseError': CustomEvent<HtmxRequestDetail>;
  'htmx:sendError': CustomEvent<HtmxRequestDetail>;
  'htmx:afterSettle': CustomEvent<{ elt: Element }>;
}

declare global {
  interface Window {
    palaro?: Palaro;
  }
  interface DocumentEventMap extends PageEvents, HtmxEvents {}
  interface HTMLElementEventMap extends HtmxEvents {}
}
