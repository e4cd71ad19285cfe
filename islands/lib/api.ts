// Shared helpers of the purchase islands: JSON calls with the loading/toast conventions of
// SPEC.md section 7, money formatting (section 9), the redirect rule of section 4 and the
// remembered buyer e-mail.

/** GENERIC_ERROR is the message for an empty or unreadable response (SPEC.md section 8). */
export const GENERIC_ERROR = 'Error occured. Please try again.';

const EMAIL_KEY = 'palaro-email';

type Emit = (name: string, detail?: unknown) => void;

function emit(name: string, detail?: unknown): void {
  const palaro = (window as unknown as { palaro?: { emit?: Emit } }).palaro;
  if (palaro?.emit) palaro.emit(name, detail);
  else document.dispatchEvent(new CustomEvent(name, { detail }));
}

/** toast shows the page's error toast with message. */
export function toast(message: string): void {
  emit('toggle-toast', { type: 'error', message });
}

/** ApiResult is the body of a /v1 answer; null when the response was empty or not JSON. */
export type ApiResult = { responseCode?: number; redirectUrl?: string; message?: string; [k: string]: unknown } | null;

/**
 * csrfToken returns the page's CSRF token: from its meta element, or, on a cached public page
 * that carries none, from GET /v1/csrf (which starts the visitor's session), kept in a new meta
 * element for the next call. It resolves with '' when the token cannot be had.
 */
export async function csrfToken(): Promise<string> {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (meta?.content) return meta.content;
  try {
    const res = await fetch('/v1/csrf', { headers: { Accept: 'application/json' }, credentials: 'same-origin' });
    const { token } = (await res.json()) as { token?: string };
    if (!token) return '';
    const m = document.createElement('meta');
    m.name = 'csrf-token';
    m.content = token;
    document.head.appendChild(m);
    return token;
  } catch {
    return '';
  }
}

/**
 * call sends a JSON request to a /v1 endpoint with the CSRF header, shows the loading indicator
 * while it runs and the error toast when it fails (unless quiet: the caller shows the error
 * itself). It resolves with the HTTP status and the parsed body (null when empty).
 */
export async function call(method: 'GET' | 'POST', url: string, body?: unknown, quiet = false): Promise<{ status: number; data: ApiResult }> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  emit('toggle-loading', true);
  let status = 0;
  let data: ApiResult = null;
  try {
    const csrf = method === 'GET' ? document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content : await csrfToken();
    if (csrf) headers['X-CSRF-Token'] = csrf;
    const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
    status = res.status;
    const text = await res.text();
    if (text) data = JSON.parse(text);
  } catch {
    data = null;
  } finally {
    emit('toggle-loading', false);
  }
  if (!quiet && (status !== 200 || !data)) toast(data?.message || GENERIC_ERROR);
  return { status, data };
}

/**
 * isLink reports whether a redirect value is somewhere to go: an http, https or ftp URL, or a
 * path on this site (such as /payment/success/…), which the browser resolves to an https link.
 */
export function isLink(value: string | undefined): value is string {
  if (!value || /\s/.test(value)) return false;
  return /^(https?|ftp):\/\/[^/]/i.test(value) || /^\/(?!\/)/.test(value);
}

/** Outcome is what a purchase-like call ended in: a place to go, or a message to show inline. */
export type Outcome = { go: string } | { error: string };

/** outcome applies SPEC.md section 4's response rules to a /v1 answer. */
export function outcome(status: number, data: ApiResult): Outcome {
  if (!data) return { error: GENERIC_ERROR };
  const code = data.responseCode ?? status;
  if (code === 200 && status === 200) {
    if (isLink(data.redirectUrl)) return { go: data.redirectUrl };
    return { error: data.redirectUrl || data.message || GENERIC_ERROR };
  }
  return { error: data.message || GENERIC_ERROR };
}

/** peso formats centavos as '₱1,234.00', or 'FREE' for zero. */
export function peso(centavos: number): string {
  if (!centavos) return 'FREE';
  const sign = centavos < 0 ? '-' : '';
  const v = Math.abs(Math.round(centavos));
  const whole = String(Math.floor(v / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}₱${whole}.${String(v % 100).padStart(2, '0')}`;
}

/** percent formats a discount fraction such as 0.15 as '15%'. */
export function percent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}

/** digits keeps only the digits of s. */
export const digits = (s: string): string => s.replace(/\D+/g, '');

/** savedEmail returns the e-mail kept after the last successful purchase, or ''. */
export function savedEmail(): string {
  try {
    return localStorage.getItem(EMAIL_KEY) || '';
  } catch {
    return '';
  }
}

/** saveEmail keeps the buyer's e-mail for the next purchase. */
export function saveEmail(email: string): void {
  try {
    localStorage.setItem(EMAIL_KEY, email);
  } catch {
    /* private mode: nothing to keep */
  }
}
