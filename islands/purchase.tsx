// The purchase form island of /b/{ticketTypeCode} (SPEC.md sections 4 and 5). The fields, their
// labels and messages come from the rules the server hands over (palaro.PurchaseRules): e-mail,
// quantity, the personal details the event requires, survey answer and disclaimer; then promo
// code, add-ons, a summary and one button per payment type. No fetch on load.
import { useEffect, useRef, useState } from 'react';
import { mountIsland, serverForm } from './lib/mount';
import { call, isLink, outcome, peso, percent, saveEmail, savedEmail } from './lib/api';
import { check, type FieldRule } from './lib/rules';
import { Select, TextInput } from './components/TextInput';
import { Checkbox } from './components/Checkbox';
import { AddOnPicker, PayButtons, type AddOn, type PaymentOption } from './components/AddOns';
import { SeniorPWDSection, discountEntries, discountErrors, type SeniorPWDOffer } from './components/SeniorPWD';

/** TicketDetails are the ticket details of SPEC.md section 3 (prices in centavos). */
export type TicketDetails = {
  code: string;
  name: string;
  price: number;
  finalPrice: number;
  discount: number;
  maxPurchasable: number;
  quantity: number;
  showPromoField: boolean;
  withSurvey: boolean;
  disclaimer: string;
  paymentTypes: string[];
  addOns: AddOn[];
  event: { code: string; name: string; requiredFields: string[]; surveyQuestion: string; surveyAnswers: string[] };
};

/** PurchaseProps are the island's props, rendered by the server. */
export type PurchaseProps = {
  ticket: TicketDetails;
  rules: FieldRule[];
  payments: PaymentOption[];
  seats: string[];
  source: string;
  sourceRule: FieldRule;
  /** initial is what the server answered to the form posted without JavaScript. */
  initial?: { touched: string[]; error: string; unpaidLink: string; seatsInstead?: string; seatMap?: string };
  /** offer is the waiting-list offer the form buys: its e-mail address and quantity are fixed. */
  offer?: { token: string; quantity: number; email: string };
  /** seatHold is best available's hold: its seats are this buyer's to take. */
  seatHold?: string;
  /** promo is the usable promo code the server-drawn form's code field held, priced in the summary. */
  promo?: Promo;
  /** seniorPwd is the senior citizen and PWD discount the ticket type offers. */
  seniorPwd?: SeniorPWDOffer;
  /** date is the series date the tickets are for (its slug, the buy body's date); absent for an event of one date. */
  date?: string;
};

/** Promo is a usable promo code (views.PromoJSON; amounts in centavos). */
type Promo = { code: string; kind: string; percent?: number; amount?: number; description: string; ticketsOnly: boolean };

/** promoDiscount is what a code takes off tickets and add-ons, as palaro.PriceOrder computes it. */
function promoDiscount(promo: Promo | null, tickets: number, addOns: number): number {
  if (!promo) return 0;
  const covered = promo.ticketsOnly ? tickets : tickets + addOns;
  const d = promo.kind === 'percent' ? Math.floor((covered * Math.min(Math.max(promo.percent || 0, 0), 100)) / 100) : Math.max(promo.amount || 0, 0);
  return Math.min(d, Math.max(covered, 0));
}

/** fromServerForm reads what the visitor entered in the server-drawn form before the island came. */
function fromServerForm(addOns: AddOn[]): { values: Record<string, string>; existing: boolean; counts: Record<number, number> } | null {
  const form = serverForm('purchase');
  if (!form) return null;
  const values: Record<string, string> = {};
  const data = new FormData(form);
  for (const [k, v] of data.entries()) if (typeof v === 'string' && !(k in values)) values[k] = v;
  const counts: Record<number, number> = {};
  for (const a of addOns) {
    const n = Number(values[`addOn${a.id}`]);
    if (values[`addOn${a.id}`] !== undefined && Number.isInteger(n)) counts[a.id] = n;
  }
  return { values, existing: data.has('existingUser'), counts };
}

const AUTOCOMPLETE: Record<string, string> = {
  email: 'email', firstName: 'given-name', lastName: 'family-name', fullName: 'name', mobileNumber: 'tel',
  birthDate: 'bday', companyName: 'organization', designation: 'organization-title',
};

function Purchase(p: PurchaseProps) {
  const t = p.ticket;
  const rules = p.rules;
  const qRule = rules.find((r) => r.field === 'quantity');
  const seatCount = p.seats.length;
  const initialQty = p.offer ? p.offer.quantity : qRule?.locked ? (seatCount || 1) : 1;
  const [server] = useState(() => fromServerForm(t.addOns || []));
  const [values, setValues] = useState<Record<string, string>>(() => ({
    ...(server?.values || {}), email: p.offer?.email || server?.values.email || '', quantity: qRule?.locked ? String(initialQty) : server?.values.quantity || String(initialQty),
    source: server ? server.values.source || '' : p.source || '',
  }));
  const [existing, setExisting] = useState(() => !!server?.existing);
  // counts holds the add-on quantities the buyer set; a free add-on not set goes with every ticket
  const [counts, setCounts] = useState<Record<number, number>>(() => server?.counts || {});
  const [touched, setTouched] = useState<Record<string, boolean>>(() => Object.fromEntries((p.initial?.touched || []).map((f) => [f, true])));
  const [busy, setBusy] = useState(false);
  const [serverError, setServerError] = useState(p.initial?.error || '');
  const [unpaidLink, setUnpaidLink] = useState(p.initial?.unpaidLink || '');
  // after a lost seat race: the buy page with the nearest free seats, and the seat map
  const [seatRace, setSeatRace] = useState(() => ({ instead: p.initial?.seatsInstead || '', map: p.initial?.seatMap || '' }));
  // promo is the check of a typed promo code: the code checked and what the server said of it
  const [promo, setPromo] = useState<{ code: string; state: 'checking' | 'ok' | 'bad'; text: string; found?: Promo } | null>(null);
  const promoTimer = useRef<number | undefined>(undefined);
  // serverFields are the server's messages of the discount entries, by the form's ticket
  const [serverFields, setServerFields] = useState<Record<string, string>>({});

  useEffect(() => {
    const email = savedEmail();
    if (email) setValues((v) => (v.email ? v : { ...v, email }));
  }, []);

  const val = (f: string) => values[f] || '';
  const set = (f: string, touchNow = false) => (value: string) => {
    setValues((v) => ({ ...v, [f]: value }));
    setServerFields((x) => (x[f] ? { ...x, [f]: '' } : x));
    if (touchNow) touch(f)();
    setServerError('');
    setUnpaidLink('');
  };
  const touch = (f: string) => () => setTouched((x) => (x[f] ? x : { ...x, [f]: true }));

  const errors: Record<string, string> = {};
  for (const r of [...rules, p.sourceRule]) if (r) errors[r.field] = check(r, val(r.field), existing);
  const qty = errors.quantity ? 0 : Number(val('quantity'));
  if (!errors.quantity && qty > t.quantity) errors.quantity = t.quantity > 0 ? `Only ${t.quantity} ${t.quantity === 1 ? 'ticket' : 'tickets'} left.` : 'Sold out';
  // a code typed into the promo field is checked with the server; one from a link may be a referral
  const typedCode = val('source').trim();
  const serverPromo = p.promo && p.promo.code.toLowerCase() === typedCode.toLowerCase() ? p.promo : null;
  const promoChecked = !typedCode || typedCode === (p.source || '') || !!serverPromo || (promo?.code === typedCode && promo.state !== 'checking');
  // the usable code the field holds, priced in the summary
  const applied = serverPromo || (promo?.code === typedCode && promo.state === 'ok' ? promo.found || null : null);
  // the code's own rule (length, characters) speaks first
  if (!errors.source && typedCode && promo?.code === typedCode && promo.state === 'bad') errors.source = promo.text;
  else if (!errors.source && !promoChecked) errors.source = 'Checking the promo code…';
  const valid = Object.values(errors).every((e) => !e);
  const shown = (f: string) => (touched[f] ? errors[f] : '');
  const hasPersonal = rules.some((r) => r.requiredWhen === 'newBuyer');

  const maxEach = Math.max(qty, 1);
  const countOf = (a: AddOn) => Math.min(counts[a.id] ?? (a.price === 0 ? maxEach : 0), maxEach);
  const chosen = (t.addOns || []).filter((a) => countOf(a) > 0);
  const addOnSum = chosen.reduce((sum, a) => sum + a.price * countOf(a), 0);
  const free = t.finalPrice === 0 && addOnSum === 0;
  const promoOff = promoDiscount(applied, t.finalPrice * qty, addOnSum);
  // senior citizen and PWD discounts, one entry per ticket; never combined with a promo code: the larger wins
  const discountTickets = p.seniorPwd ? Math.min(Math.max(qty, 1), t.maxPurchasable || Math.max(qty, 1)) : 0;
  const entries = discountEntries(val, Math.min(discountTickets, qty));
  const seniorOff = p.seniorPwd ? entries.list.length * p.seniorPwd.discount : 0;
  const seniorWins = seniorOff > 0 && seniorOff >= promoOff;
  const discount = seniorWins ? 0 : promoOff;
  const total = t.finalPrice * qty + addOnSum - discount - (seniorWins ? seniorOff : 0);
  Object.assign(errors, discountErrors(val, discountTickets), serverFields);
  const valid2 = valid && Object.values(errors).every((e) => !e);

  // the reason the pay buttons are disabled: the first missing item, in the form's order
  const order = [
    ...rules.filter((r) => r.field === 'email'),
    ...rules.filter((r) => r.requiredWhen === 'newBuyer'),
    ...rules.filter((r) => r.input === 'survey'),
    ...rules.filter((r) => r.field === 'quantity'),
    { field: 'source' },
    ...rules.filter((r) => r.input === 'checkbox'),
  ];
  const reason = order.map((r) => errors[r.field]).find((e) => e) || Object.entries(errors).find(([f, e]) => f.startsWith('discounts[') && e)?.[1] || '';

  function checkPromo(code: string) {
    window.clearTimeout(promoTimer.current);
    if (!code || code === (p.source || '') || code.toLowerCase() === p.promo?.code.toLowerCase()) return setPromo(null);
    setPromo({ code, state: 'checking', text: '' });
    promoTimer.current = window.setTimeout(async () => {
      const q = new URLSearchParams({ eventCode: t.event.code, ticketTypeCode: t.code, source: code });
      if (p.date) q.set('date', p.date);
      for (const s of p.seats) q.append('seats', s);
      if (p.offer) q.set('offer', p.offer.token); // the offer's seats are held for this buyer
      if (p.seatHold) q.set('hold', p.seatHold);
      const { data } = await call('GET', `/v1/ticket_type?${q}`);
      const found = data?.promo as Promo | null | undefined;
      const why = typeof data?.promoError === 'string' ? data.promoError : 'Unknown promo code';
      setPromo((cur) => (cur?.code !== code ? cur : found ? { code, state: 'ok', text: found.description || '', found } : { code, state: 'bad', text: why }));
    }, 400);
  }

  async function pay(paymentType: string) {
    if (!valid2 || busy) return;
    setBusy(true);
    setServerError('');
    setUnpaidLink('');
    setSeatRace({ instead: '', map: '' });
    const personal = (f: string) => (existing ? '' : val(f).trim());
    const { status, data } = await call('POST', '/v1/ticket/buy', {
      eventCode: t.event.code,
      ticketCode: t.code,
      quantity: qty,
      email: val('email').trim(),
      existingUser: existing,
      firstName: personal('firstName'),
      lastName: personal('lastName'),
      fullName: personal('fullName'),
      mobileNumber: personal('mobileNumber'),
      gender: personal('gender'),
      birthDate: personal('birthDate'),
      age: personal('age'),
      companyName: personal('companyName'),
      designation: personal('designation'),
      economicClass: personal('economicClass'),
      surveyAnswer: val('surveyAnswer'),
      seats: p.seats,
      date: p.date || '',
      source: val('source').trim(),
      addOns: [],
      addOnQuantities: chosen.map((a) => ({ id: a.id, quantity: countOf(a) })),
      paymentType,
      disclaimerAccepted: val('disclaimerAccepted') === 'yes',
      offer: p.offer?.token || '',
      seatHold: p.seatHold || '',
      discounts: entries.list,
    });
    const o = outcome(status, data);
    if ('go' in o) {
      saveEmail(val('email').trim());
      window.location.assign(o.go);
      return;
    }
    const fields = (data?.fields || {}) as Record<string, string>;
    if (fields.existingUser) {
      // no details are known for this e-mail: show the personal fields again, with their messages
      setExisting(false);
      setTouched((x) => ({ ...x, ...Object.fromEntries(rules.filter((r) => r.requiredWhen === 'newBuyer').map((r) => [r.field, true])) }));
    }
    if (fields.unpaidOrder && isLink(fields.unpaidOrder)) setUnpaidLink(fields.unpaidOrder);
    // the payload's discounts[k] is the form's ticket entries.at[k]
    const mine: Record<string, string> = {};
    for (const [f, msg] of Object.entries(fields)) {
      const m = /^discounts\[(\d+)\]\.(\w+)$/.exec(f);
      if (m && entries.at[Number(m[1])] !== undefined) mine[`discounts[${entries.at[Number(m[1])]}].${m[2]}`] = msg;
    }
    setServerFields(mine);
    setTouched((x) => ({ ...x, ...Object.fromEntries(Object.keys(mine).map((f) => [f, true])) }));
    setSeatRace({ instead: isLink(fields.seatsInstead) ? fields.seatsInstead : '', map: isLink(fields.seatMap) ? fields.seatMap : '' });
    setServerError(o.error);
    setBusy(false);
  }

  const field = (r: FieldRule) => {
    if (r.requiredWhen === 'newBuyer' && existing) return null;
    const common = { id: r.field, name: r.field, label: r.label, required: !!r.requiredWhen, value: val(r.field), error: shown(r.field) };
    switch (r.input) {
      case 'select':
        return <Select key={r.field} {...common} options={r.options || []} onChange={set(r.field, true)} onBlur={touch(r.field)} />;
      case 'survey':
        return (
          <fieldset key={r.field} className="survey">
            <legend>{r.label}</legend>
            <div className="survey-answers">
              {(r.options || []).map((a) => (
                <button key={a} type="button" className="survey-answer" aria-pressed={val(r.field) === a}
                  onClick={() => set(r.field, true)(val(r.field) === a ? '' : a)}>
                  {a}
                </button>
              ))}
            </div>
            {shown(r.field) && <p className="field-error">{shown(r.field)}</p>}
          </fieldset>
        );
      case 'checkbox':
        return (
          <div key={r.field} className="disclaimer">
            <Checkbox name={r.field} label={r.label} checked={val(r.field) === 'yes'} onChange={(on) => set(r.field, true)(on ? 'yes' : '')} />
            {shown(r.field) && <p className="field-error">{shown(r.field)}</p>}
          </div>
        );
      case 'quantity':
        if (r.hidden) return null;
        return (
          <TextInput key={r.field} {...common} numeric noPaste maxLength={r.maxLength} readOnly={r.locked} onChange={set(r.field, true)} onBlur={touch(r.field)}
            hint={seatCount > 0 ? `Seats ${p.seats.join(', ')}` : `Max. ${r.max} per person`} />
        );
      default:
        return (
          <TextInput key={r.field} {...common} type={r.input === 'digits' ? 'text' : r.input} digitsOnly={r.input === 'digits' || r.input === 'tel'}
            maxLength={r.maxLength} autoComplete={AUTOCOMPLETE[r.field]} readOnly={r.locked} onChange={set(r.field)} onBlur={touch(r.field)} />
        );
    }
  };

  const first = rules.filter((r) => r.field === 'email');
  const personal = rules.filter((r) => r.requiredWhen === 'newBuyer');
  const survey = rules.filter((r) => r.input === 'survey');
  const disclaimer = rules.filter((r) => r.input === 'checkbox');

  return (
    <form className="purchase-form" noValidate onSubmit={(e) => e.preventDefault()} aria-label={`Buy ${t.name}`}>
      {p.initial?.error && serverError === p.initial.error && <p className="form-error form-summary" role="alert">{serverError}</p>}
      <section className="form-section" aria-labelledby="buyer-heading">
        <h2 id="buyer-heading">Your details</h2>
        {first.map(field)}
        {hasPersonal && (
          <Checkbox name="existingUser" label="I am an existing user" checked={existing} onChange={(on) => { setExisting(on); setServerError(''); }} />
        )}
        {personal.map(field)}
      </section>

      {survey.length > 0 && <section className="form-section">{survey.map(field)}</section>}

      {(!qRule?.hidden || t.showPromoField || p.source) && (
        <section className="form-section" aria-labelledby="tickets-heading">
          <h2 id="tickets-heading">Tickets</h2>
          {qRule && field(qRule)}
          {seatCount > 0 && !p.offer && (
            <p className="change-seats">
              <a href={`/s/${encodeURIComponent(t.code)}?seats=${p.seats.join(',')}${p.source ? `&source=${encodeURIComponent(p.source)}` : ''}${p.date ? `&date=${encodeURIComponent(p.date)}` : ''}`}>Change seats</a>
            </p>
          )}
          {(t.showPromoField || p.source) && (
            <TextInput id="source" name="source" label={p.sourceRule?.label || 'Promo or referral code'} maxLength={p.sourceRule?.maxLength} autoComplete="off"
              value={val('source')} onChange={(v) => { set('source')(v); checkPromo(v.trim()); }} onBlur={touch('source')}
              error={shown('source') && errors.source !== 'Checking the promo code…' ? errors.source : promo?.state === 'bad' && promo.code === typedCode ? promo.text : ''}
              hint={promo?.state === 'ok' && promo.code === typedCode ? `Promo ${promo.code}: ${promo.text}` : undefined} />
          )}
        </section>
      )}

      {p.seniorPwd && <SeniorPWDSection offer={p.seniorPwd} tickets={discountTickets} val={val} set={(f) => set(f)} touch={touch} shown={shown} />}

      {(t.addOns || []).length > 0 && (
        <section className="form-section" aria-labelledby="addons-heading">
          <h2 id="addons-heading">Add-ons</h2>
          <AddOnPicker addOns={t.addOns} selected={chosen.map((a) => a.id)} onChange={() => undefined}
            counts={{ count: countOf, max: maxEach, onCount: (id, n) => setCounts((c) => ({ ...c, [id]: Math.max(0, Math.min(n, maxEach)) })) }} />
          {maxEach > 1 && <p className="field-hint">Up to one of each add-on per ticket; they go to your tickets in order.</p>}
        </section>
      )}

      <section className="form-section summary" aria-labelledby="summary-heading">
        <h2 id="summary-heading">Summary</h2>
        <dl>
          <div>
            <dt>{t.name}</dt>
            <dd>
              {t.discount > 0 && <s className="price-original">{peso(t.price)}</s>}
              {t.discount > 0 && <span className="discount">-{percent(t.discount)}</span>}
              <span>{peso(t.finalPrice)}</span>
            </dd>
          </div>
          {!qRule?.hidden && (
            <div>
              <dt>Quantity</dt>
              <dd>× {qty}</dd>
            </div>
          )}
          {addOnSum > 0 && (
            <div>
              <dt>Add-ons</dt>
              <dd>{peso(addOnSum)}</dd>
            </div>
          )}
          {seniorWins && (
            <div className="senior-pwd-line">
              <dt>Senior citizen / PWD discount</dt>
              <dd data-senior-pwd>-{peso(seniorOff)}</dd>
            </div>
          )}
          {discount > 0 && applied && (
            <div className="promo-line">
              <dt>Promo {applied.code}</dt>
              <dd data-promo>-{peso(discount)}</dd>
            </div>
          )}
          <div className="total">
            <dt>Total</dt>
            <dd data-total>{errors.quantity ? '—' : peso(total)}</dd>
          </div>
        </dl>
      </section>

      {disclaimer.length > 0 && <section className="form-section">{disclaimer.map(field)}</section>}

      {serverError && (
        <p className="form-error" role="alert">
          {unpaidLink ? <>You have an unpaid order waiting: <a href={unpaidLink}>open it</a></> : serverError}
          {!unpaidLink && !p.offer && !seatCount && /sold out/i.test(serverError) && <> <a href={`/waitlist/${t.code}${p.date ? `?date=${p.date}` : ''}`}>Join the waiting list</a></>}
        </p>
      )}
      {seatRace.map && (
        <div className="seat-race">
          {seatRace.instead && <a className="button block" href={seatRace.instead}>Take these seats</a>}
          <a className="button block secondary" href={seatRace.map}>Choose on the seat map</a>
        </div>
      )}
      <PayButtons options={p.payments} free={free} disabled={!valid2 || busy} reason={busy ? '' : reason} onPay={pay} />
    </form>
  );
}

mountIsland('purchase', Purchase);
