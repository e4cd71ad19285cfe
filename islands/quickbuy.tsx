// The quick-buy bottom sheet of the event page (SPEC.md sections 2, 4 and 5): e-mail checked on
// blur, quantity capped at what is available, one button per payment type. It loads only when a
// 'Quick buy' button is first pressed, so the event page ships no React until then; the page
// script has already opened the server's drawing of the sheet, which this island takes over (what
// was typed, the open state). It opens on the toggle-buy-ticket event ({code} opens that ticket
// type; null closes).
import { useEffect, useRef, useState } from 'react';
import { mountIsland } from './lib/mount';
import { GENERIC_ERROR, call, outcome, peso, saveEmail, savedEmail, toast } from './lib/api';
import { check, type FieldRule } from './lib/rules';
import { TextInput } from './components/TextInput';
import { PayButtons, type PaymentOption } from './components/AddOns';

/** QuickTicket is a ticket type offered in the sheet; prices in centavos. */
export type QuickTicket = { code: string; name: string; finalPrice: number; maxPurchasable: number; quantity: number; payments: PaymentOption[] };

/** QuickBuyProps are the island's props, rendered by the event page. */
export type QuickBuyProps = {
  eventCode: string;
  tickets: QuickTicket[];
  email: FieldRule;
  /** date is the series date the sheet buys for (its slug, the buy body's date); absent for an event of one date. */
  date?: string;
};

type Palaro = { buyTicket?: string; leave?: (url: string) => void; emit?: (name: string, detail?: unknown) => void };
const palaro = (): Palaro => ((window as unknown as { palaro?: Palaro }).palaro || {});

/** openServerSheet reads the server-drawn sheet the page script opened before the island came, if any. */
function openServerSheet(): { email: string; quantity: string; focused: string } | null {
  const sheet = document.querySelector('[data-island="quickbuy"]:not([data-mounted]) [data-quick-sheet]:not([hidden])');
  const form = sheet?.querySelector('form');
  if (!form) return null;
  const field = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value || '';
  const active = document.activeElement;
  return { email: field('email'), quantity: field('quantity'), focused: active && form.contains(active) ? (active as HTMLInputElement).name : '' };
}

function QuickBuy(p: QuickBuyProps) {
  const [server] = useState(openServerSheet);
  const [code, setCode] = useState(() => palaro().buyTicket || '');
  const [visible, setVisible] = useState(!!server);
  const [email, setEmail] = useState(() => server?.email || savedEmail());
  const [emailError, setEmailError] = useState('');
  const [quantity, setQuantity] = useState(() => server?.quantity || '1');
  const [busy, setBusy] = useState(false);
  // soldOut is the ticket code the server just called sold out: the sheet offers its waiting list
  const [soldOut, setSoldOut] = useState('');
  const [soldOutMessage, setSoldOutMessage] = useState('');
  const sheet = useRef<HTMLDivElement>(null);
  const t = p.tickets.find((x) => x.code === code);

  const close = () => {
    setVisible(false);
    palaro().buyTicket = '';
    window.setTimeout(() => setCode(''), 250);
  };
  // The visitor closes the sheet through the page's event, so that its history entry goes too.
  const dismiss = () => {
    const emit = palaro().emit;
    if (emit) emit('toggle-buy-ticket', null);
    else close();
  };

  useEffect(() => {
    const onToggle = (e: Event) => {
      const d = (e as CustomEvent<{ code?: string } | null>).detail;
      if (d?.code) {
        setCode(d.code);
        setQuantity('1');
      } else close();
    };
    document.addEventListener('toggle-buy-ticket', onToggle);
    return () => document.removeEventListener('toggle-buy-ticket', onToggle);
  }, []);

  useEffect(() => {
    if (!t) return;
    const id = window.requestAnimationFrame(() => setVisible(true));
    // the field the visitor was in on the server's sheet, else the first
    const again = server?.focused && sheet.current?.querySelector<HTMLInputElement>(`input[name="${server.focused}"]`);
    (again || sheet.current?.querySelector<HTMLInputElement>('input'))?.focus();
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && dismiss();
    document.addEventListener('keydown', onKey);
    return () => {
      window.cancelAnimationFrame(id);
      document.removeEventListener('keydown', onKey);
    };
  }, [t?.code]);

  if (!t) return null;
  const cap = Math.max(1, Math.min(t.maxPurchasable || t.quantity, t.quantity));
  const qty = /^[0-9]+$/.test(quantity) ? Number(quantity) : 0;
  const valid = !check(p.email, email) && qty >= 1 && qty <= cap;
  // the first thing missing, shown next to the disabled buttons
  const reason = check(p.email, email) || (qty < 1 ? 'Please input no. of tickets to be purchased' : '');

  const setQty = (v: string) => setQuantity(/^[0-9]+$/.test(v) && Number(v) > cap ? String(cap) : v);

  async function pay(paymentType: string) {
    if (!valid || busy || !t) return;
    setBusy(true);
    // quiet: a sold-out answer is said in the sheet, next to its waiting-list button, not by a
    // toast that would cover that button at the bottom of the screen
    const { status, data } = await call('POST', '/v1/ticket/buy', { eventCode: p.eventCode, ticketCode: t.code, quantity: qty, email: email.trim(), source: '', paymentType, date: p.date || '' }, true);
    setBusy(false);
    const o = outcome(status, data);
    if ('go' in o) {
      close();
      saveEmail(email.trim());
      (palaro().leave || ((url: string) => window.location.assign(url)))(o.go);
      return;
    }
    if (status === 409 && /sold out/i.test(o.error)) {
      setSoldOut(t.code);
      setSoldOutMessage(o.error);
      return;
    }
    dismiss();
    toast(o.error || GENERIC_ERROR);
  }

  return (
    <div className={`sheet-backdrop${visible ? ' open' : ''}`} onClick={(e) => e.target === e.currentTarget && dismiss()}>
      <div className="sheet" role="dialog" aria-modal="true" aria-labelledby="quickbuy-title" ref={sheet}>
        <div className="sheet-head">
          <h2 id="quickbuy-title">Quick buy</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={dismiss}
            // Keeps the focus in the e-mail field: its blur would show 'required' and move the
            // button up under the finger before the click lands.
            onMouseDown={(e) => e.preventDefault()}>
            <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" /></svg>
          </button>
        </div>
        <p className="sheet-ticket">
          <strong>{t.name}</strong> <span className="price">{peso(t.finalPrice)}</span>
        </p>
        <form noValidate onSubmit={(e) => e.preventDefault()}>
          <TextInput id="quick-email" name="email" label="E-mail" type="email" autoComplete="email" required maxLength={254} value={email}
            onChange={(v) => { setEmail(v); if (emailError) setEmailError(check(p.email, v)); }}
            onBlur={() => setEmailError(check(p.email, email))} error={emailError} />
          <TextInput id="quick-quantity" name="quantity" label="No. of tickets" numeric noPaste maxLength={3} required value={quantity}
            onChange={setQty} hint={`Max. ${cap}`} />
          <p className="sheet-total">
            Total <strong>{qty < 1 ? '—' : peso(t.finalPrice * qty)}</strong>
          </p>
          {soldOut === t.code ? (
            <>
              <p className="form-error" role="alert">{soldOutMessage}</p>
              <a className="button block" href={`/waitlist/${t.code}${p.date ? `?date=${p.date}` : ''}`}>Join the waiting list</a>
            </>
          ) : (
            <PayButtons options={t.payments} free={t.finalPrice === 0} disabled={!valid || busy} reason={busy ? '' : reason} onPay={pay} />
          )}
        </form>
      </div>
    </div>
  );
}

mountIsland('quickbuy', QuickBuy);
