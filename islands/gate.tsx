// The gate island: checks tickets in by camera or typed code, with a large green or red answer,
// sound and vibration. Online it asks POST /v1/checkin; offline it verifies the QR's Ed25519
// signature and looks the code's hash up in the kept ticket list, queues the check-in and syncs it
// (POST /v1/checkin/sync) when the network returns; typed codes are checked online only. Online,
// it fetches the list's changes every few seconds, so a transferred ticket's old code is refused
// at once. It also sells tickets at the door.
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { mountIsland } from './lib/mount';
import { checkIDLine, checkInOffline, codeHash, findRow, load, manilaTime, markCheckedIn, merge, newID, parse, save, usedLine, type Answer, type GateList, type GateTicket, type Kept } from './lib/gate-offline';
import { QRScanner } from './components/QRScanner';

/** GateProps mirrors views.GateProps. */
interface GateProps {
  eventCode: string;
  eventName: string;
  publicKey: string;
  publicKeys: Record<string, string>;
  listUrl: string;
  member: string;
  consoleHref: string;
  ticketTypes: Array<{ code: string; name: string; price: string; centavos: number; max: number; maxByDate?: Record<string, number> }>;
  /** dates are a series' dates the gate admits to (none for a single-date event); date is today's. */
  dates?: Array<{ slug: string; label: string }>;
  date?: string;
}

/** dateCount counts, in a series' list, the tickets for its date (not another date's, not refused) and those checked in there. */
function dateCount(kept: Kept): { total: number; inside: number } {
  const list = kept.list;
  let total = 0;
  let inside = 0;
  for (const r of list?.tickets || []) {
    const status = r[3] || '';
    if (status === 'wrong_date' || status === 'cancelled' || status === 'pass_used_up') continue;
    total++;
    const local = kept.local[r[0]];
    if (status === 'checked_in' || (local && (local.date || '') === (list?.date || ''))) inside++;
  }
  return { total, inside };
}

// The whole list is fetched once; then only what changed since the kept list's version, every 3 s
// (the server answers with the whole list when the version is too old). The deltas are exact, so
// no periodic whole list is needed: at a stadium 60 phones fetching 55,000 tickets every 30 s
// would be most of the server's work.
const CHANGES_EVERY_MS = 3000;
const SYNC_EVERY_MS = 5000;
const SYNC_BATCH = 100;
const GATE_KEY = 'palaro.gate.name';
const SCAN_TIMEOUT_MS = 4000; // then the phone decides alone
const SYNC_TIMEOUT_MS = 15000;

function csrfHeaders(): Record<string, string> {
  const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content;
  return { Accept: 'application/json', 'Content-Type': 'application/json', ...(csrf ? { 'X-CSRF-Token': csrf } : {}) };
}

/**
 * post sends JSON; it rejects when the network fails or no answer comes within timeoutMs (a venue
 * network often hangs rather than fails).
 */
async function post(url: string, body: unknown, timeoutMs: number): Promise<{ status: number; data: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: csrfHeaders(),
    body: JSON.stringify(body),
    credentials: 'same-origin',
    signal: AbortSignal.timeout(timeoutMs),
  });
  let data: Record<string, unknown> = {};
  try {
    data = await res.json();
  } catch {
    /* an empty or unreadable answer */
  }
  return { status: res.status, data };
}

let audio: AudioContext | null = null;

/** signal beeps (high and short for yes, low and long for no) and vibrates. */
function signal(ok: boolean): void {
  try {
    navigator.vibrate?.(ok ? 120 : [250, 100, 250]);
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = ok ? 'sine' : 'square';
    osc.frequency.value = ok ? 880 : 220;
    gain.gain.value = 0.2;
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + (ok ? 0.15 : 0.45));
  } catch {
    /* no sound on this device */
  }
}

function Gate(props: GateProps) {
  const kept = useRef<Kept>(load(props.member, props.eventCode));
  const [online, setOnline] = useState(navigator.onLine);
  const [syncing, setSyncing] = useState(false);
  const [queued, setQueued] = useState(kept.current.queue.length);
  const [listInfo, setListInfo] = useState(kept.current.list ? kept.current.list.tickets.length : 0);
  const [conflicts, setConflicts] = useState(0);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [answers, setAnswers] = useState(0);
  const [code, setCode] = useState('');
  const [gate, setGate] = useState(() => localStorage.getItem(GATE_KEY) || 'Gate 1');
  const input = useRef<HTMLInputElement>(null);
  const busy = useRef(false);
  // the series date the gate admits to: today's by default, changed with the picker
  const [date, setDate] = useState(props.date || '');
  const dateRef = useRef(date);
  const dateLabel = props.dates?.find((d) => d.slug === date)?.label || '';
  // the kept list's date and version: the page shows them again when a list or changes arrive
  const [listMark, setListMark] = useState('');

  const persist = useCallback(() => {
    save(props.member, props.eventCode, kept.current);
    setQueued(kept.current.queue.length);
  }, [props.member, props.eventCode]);

  // refreshList fetches the whole list (whole true) or what changed since the kept list's version.
  const fetching = useRef(false);
  const refreshList = useCallback(
    async (whole = true) => {
      if (!whole && fetching.current) return; // a list or changes are on the way
      fetching.current = true;
      const version = kept.current.list?.version;
      const on = dateRef.current;
      const query = new URLSearchParams();
      if (!whole && version !== undefined && (kept.current.list?.date || '') === on) query.set('since', String(version));
      if (on) query.set('date', on);
      const qs = query.toString();
      const url = qs ? `${props.listUrl}?${qs}` : props.listUrl;
      try {
        const res = await fetch(url, { headers: { Accept: 'application/json' }, credentials: 'same-origin', signal: AbortSignal.timeout(SYNC_TIMEOUT_MS) });
        if (!res.ok) return;
        const got = (await res.json()) as GateList;
        setOnline(true); // an answer came: whatever the browser thinks, the network works
        if ((got.date || '') !== dateRef.current) return; // the gate changed date meanwhile
        merge(kept.current, got);
        kept.current.skew = new Date(got.generatedAt).getTime() - Date.now();
        // check-ins of this phone that the server has now recorded need no local note any more
        for (const r of got.tickets) if (r[3] === 'checked_in' && !kept.current.queue.some((q) => q.hash === r[0])) delete kept.current.local[r[0]];
        persist();
        setListInfo(kept.current.list?.tickets.length || 0);
        setListMark(`${kept.current.list?.date || ''}@${kept.current.list?.version ?? ''}`);
      } catch {
        /* offline: keep the list we have */
      } finally {
        fetching.current = false;
      }
    },
    [props.listUrl, persist],
  );

  const sync = useCallback(async () => {
    const batch = kept.current.queue.slice(0, SYNC_BATCH);
    if (batch.length === 0 || busy.current) return;
    busy.current = true;
    setSyncing(true);
    try {
      const checkIns = batch.map(({ id, ticket, gate, at, listAt, date }) => ({ id, ticket, gate, at, listAt, date }));
      const { status, data } = await post('/v1/checkin/sync', { eventCode: props.eventCode, checkIns }, SYNC_TIMEOUT_MS);
      if (status < 500) setOnline(true);
      if (status === 200) {
        const done = new Set(batch.map((b) => b.id));
        kept.current.queue = kept.current.queue.filter((q) => !done.has(q.id));
        const results = (data.results as Array<{ result: string }>) || [];
        setConflicts((n) => n + results.filter((r) => r.result === 'conflict').length);
        persist();
        await refreshList(false);
      }
    } catch {
      setOnline(false);
    } finally {
      busy.current = false;
      setSyncing(false);
    }
  }, [props.eventCode, persist, refreshList]);

  useEffect(() => {
    const up = () => {
      setOnline(true);
      void sync();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    // the whole list when none (or another date's) is kept, else what changed since the kept one
    void refreshList(!kept.current.list || (kept.current.list.date || '') !== dateRef.current).then(() => sync());
    const changes = setInterval(() => navigator.onLine && void refreshList(false), CHANGES_EVERY_MS);
    const syncs = setInterval(() => navigator.onLine && void sync(), SYNC_EVERY_MS);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
      clearInterval(changes);
      clearInterval(syncs);
    };
  }, [refreshList, sync]);

  const show = useCallback((a: Answer) => {
    setAnswer(a);
    setAnswers((n) => n + 1);
    signal(a.ok);
  }, []);

  const scan = useCallback(
    async (raw: string) => {
      if (!raw.trim()) return;
      // the scan's id goes with the online call and, if no answer comes, with the queued scan: the
      // server counts it once even when the call did arrive
      const id = newID();
      if (navigator.onLine) {
        try {
          const { status, data } = await post('/v1/checkin', { eventCode: props.eventCode, ticket: raw, gate, id, ...(date ? { date } : {}) }, SCAN_TIMEOUT_MS);
          if (status >= 500 || !data.result) throw new Error('no answer');
          setOnline(true);
          const ticket = data.ticket as GateTicket | undefined;
          const list = kept.current.list;
          if (status === 200 && ticket && list) {
            const h = await codeHash(list.hashKey, ticket.code);
            const row = findRow(list, h);
            if (row) markCheckedIn(row, ticket.checkedInAt || '', ticket.gate || '');
            persist();
          }
          show({
            ok: status === 200,
            title: String(data.message),
            ticket: ticket && (ticket.holderName || ticket.discount || ticket.pass) ? ticket : undefined,
            date: dateLabel || undefined,
          });
          return;
        } catch {
          setOnline(false); // no answer: decide on the phone
        }
      }
      const parsed = await parse(raw, { ...props.publicKeys, ...kept.current.list?.publicKeys });
      const list = kept.current.list;
      const hash = list && parsed.code && !parsed.typed ? await codeHash(list.hashKey, parsed.code) : '';
      // a list of another date is not this gate's: nothing is decided with it
      const a = (kept.current.list?.date || '') === date ? checkInOffline(kept.current, parsed, hash, gate, new Date(), id) : { ok: false, title: 'No list for this date on this phone', detail: 'Connect once to download it.', offline: true };
      persist();
      show({ ...a, date: dateLabel || undefined });
    },
    [props.eventCode, props.publicKeys, gate, date, dateLabel, persist, show],
  );

  const pickDate = (slug: string) => {
    setDate(slug);
    dateRef.current = slug;
    setAnswer(null);
    void refreshList(true);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = code;
    setCode('');
    void scan(value).then(() => input.current?.focus());
  };

  const state = syncing ? 'syncing' : online ? 'online' : 'offline';
  const updated = kept.current.list?.generatedAt ? manilaTime(kept.current.list.generatedAt) : '';
  // the date's counter reads the whole list (55,000 rows at a stadium): counted again when the list,
  // the phone's queue or an answer changed, not at each key of a typed code
  const count = useMemo(
    () => (date && (kept.current.list?.date || '') === date ? dateCount(kept.current) : null),
    [date, listMark, queued, answers],
  );
  return (
    <div className="gate" data-state={state} data-queued={queued} data-date={date || undefined} data-list={listMark || undefined}>
      {props.dates && props.dates.length > 0 && (
        <div className="gate-field gate-date">
          <label htmlFor="gate-date">Date</label>
          <select id="gate-date" value={date} onChange={(e) => pickDate(e.target.value)}>
            {props.dates.map((d) => (
              <option key={d.slug} value={d.slug}>
                {d.label}
              </option>
            ))}
          </select>
        </div>
      )}
      <p className={`gate-status gate-status-${state}`} role="status">
        {state === 'syncing' && <>Syncing {queued} {queued === 1 ? 'check-in' : 'check-ins'}…</>}
        {state === 'online' && (
          <>
            Online · {count ? `${count.inside} of ${count.total} in` : `${listInfo} ${listInfo === 1 ? 'ticket' : 'tickets'} on this phone`}
            {updated && `, updated ${updated}`}
            {queued > 0 && ` · ${queued} waiting to sync (sign in again if this stays)`}
          </>
        )}
        {state === 'offline' && (
          <>
            Offline · {count ? `${count.inside} of ${count.total} in, checked on this phone` : `checking against ${listInfo} ${listInfo === 1 ? 'ticket' : 'tickets'} on this phone`} · {queued} to sync
          </>
        )}
      </p>
      {conflicts > 0 && (
        <p className="gate-conflicts">
          {conflicts} {conflicts === 1 ? 'conflict' : 'conflicts'} on sync: <a href={props.consoleHref}>see the console</a>
        </p>
      )}
      <div aria-live="assertive">
        <div key={answers} className={`gate-answer ${answer ? (answer.ok ? 'gate-answer-ok' : 'gate-answer-bad') : 'gate-answer-ready'}`}>
          {answer ? (
            <>
              <p className="gate-answer-title">{answer.ok ? '✓ ' : '✗ '}{answer.title}</p>
              {answer.ticket && (
                <>
                  {/* offline, the list names no holder: type and seat say what the ticket is */}
                  {(answer.ticket.holderName || !answer.offline) && <p className="gate-answer-name">{answer.ticket.holderName || 'No name'}</p>}
                  <p className="gate-answer-detail">
                    {answer.ticket.ticketType}
                    {answer.ticket.seat ? ` · Seat ${answer.ticket.seat}` : ''}
                  </p>
                </>
              )}
              {answer.ok && answer.ticket && checkIDLine(answer.ticket) && (
                <p className="gate-answer-checkid" data-check-id>
                  {checkIDLine(answer.ticket)}
                  {answer.ticket.discountId ? ` · ID ${answer.ticket.discountId}` : ''}
                </p>
              )}
              {answer.date && (
                <p className="gate-answer-detail" data-answer-date>
                  {answer.date}
                </p>
              )}
              {answer.ticket?.pass && (
                <p className="gate-answer-detail" data-answer-used>
                  {usedLine(answer.ticket.usedDates)}
                </p>
              )}
              {answer.detail && <p className="gate-answer-detail">{answer.detail}</p>}
              {answer.offline && answer.ok && <p className="gate-answer-detail">Saved on this phone; it syncs when the network is back.</p>}
            </>
          ) : (
            <p className="gate-answer-title">Ready to scan</p>
          )}
        </div>
      </div>
      <QRScanner onCode={(value) => void scan(value)} startLabel="Scan with camera" unavailable="The camera is not available. Type the ticket code instead." />
      <form className="gate-manual" onSubmit={submit}>
        <div className="gate-field">
          <label htmlFor="gate-code">Ticket code</label>
          <input id="gate-code" ref={input} value={code} onChange={(e) => setCode(e.target.value)} autoComplete="off" autoCapitalize="characters" spellCheck={false} />
        </div>
        <button type="submit" className="button">
          Check in
        </button>
      </form>
      <div className="gate-field gate-name">
        <label htmlFor="gate-name">This gate</label>
        <input
          id="gate-name"
          value={gate}
          maxLength={40}
          onChange={(e) => {
            setGate(e.target.value);
            localStorage.setItem(GATE_KEY, e.target.value);
          }}
        />
      </div>
      {props.ticketTypes.length > 0 && <BoxOffice {...props} gate={gate} date={date} online={online} onAnswer={show} />}
    </div>
  );
}

/** pesos formats centavos as the server does: ₱1,234.00. */
function pesos(centavos: number): string {
  return '₱' + (centavos / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/**
 * BoxOffice sells tickets at the door for cash or an outside card terminal and checks them in: a
 * quantity up to the type's per-buyer maximum and what is left (on a series, on the gate's date),
 * with the amount to collect shown before the sale is confirmed. On a series it sells for the
 * gate's date (date) and admits there.
 */
function BoxOffice(props: GateProps & { gate: string; online: boolean; onAnswer: (a: Answer) => void }) {
  const [type, setType] = useState(props.ticketTypes[0].code);
  const [quantity, setQuantity] = useState(1);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [method, setMethod] = useState('CASH');
  const [error, setError] = useState('');
  const chosen = props.ticketTypes.find((t) => t.code === type) || props.ticketTypes[0];
  // on a series, the places left on the gate's date (the server enforces them at the sale)
  const onDate = props.date ? chosen.maxByDate?.[props.date] : undefined;
  const most = Math.max(onDate ?? chosen.max, 1);
  const qty = Math.min(quantity, most);
  const amount = chosen.centavos * qty;
  const dateLabel = props.dates?.find((d) => d.slug === props.date)?.label || '';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    try {
      const { status, data } = await post(`/v1/organizer/events/${props.eventCode}/box-office`, {
        ticketType: type,
        quantity: qty,
        holderName: name,
        email,
        paymentMethod: method,
        gate: props.gate,
        ...(props.date ? { date: props.date } : {}),
      }, SYNC_TIMEOUT_MS);
      if (status !== 200) {
        const fields = (data.fields as Record<string, string>) || {};
        setError(Object.values(fields).join(' ') || String(data.message || 'The sale failed.'));
        return;
      }
      setName('');
      setEmail('');
      setQuantity(1);
      props.onAnswer({ ok: true, title: String(data.message), ticket: data.ticket as GateTicket, date: dateLabel || undefined });
      // the answer is at the top of the page: bring it into view after the sale
      requestAnimationFrame(() => document.querySelector('.gate-answer')?.scrollIntoView({ block: 'center' }));
    } catch {
      setError('No network: the box office needs it to sell within the capacity.');
    }
  };
  return (
    <details className="gate-box-office">
      <summary>Box office: sell at the door</summary>
      <form onSubmit={submit} noValidate>
        {dateLabel && <p className="gate-collect" data-box-office-date>For {dateLabel}</p>}
        <div className="org-select">
          <label htmlFor="bo-type">Ticket type</label>
          <select id="bo-type" value={type} onChange={(e) => setType(e.target.value)}>
            {props.ticketTypes.map((t) => (
              <option key={t.code} value={t.code}>
                {t.name} · {t.centavos > 0 ? t.price : 'free'}
              </option>
            ))}
          </select>
        </div>
        <div className="org-select">
          <label htmlFor="bo-quantity">Tickets</label>
          <select id="bo-quantity" value={qty} onChange={(e) => setQuantity(Number(e.target.value))}>
            {Array.from({ length: most }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div className="gate-field">
          <label htmlFor="bo-name">Holder's name</label>
          <input id="bo-name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />
        </div>
        <div className="gate-field">
          <label htmlFor="bo-email">E-mail (optional)</label>
          <input id="bo-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </div>
        <fieldset className="org-checks">
          <legend>Paid by</legend>
          {[
            ['CASH', 'Cash'],
            ['CARD_TERMINAL', 'Card terminal'],
          ].map(([v, label]) => (
            <label key={v} className="check radio org-check" htmlFor={'bo-' + v}>
              <input type="radio" id={'bo-' + v} name="bo-method" value={v} checked={method === v} onChange={() => setMethod(v)} />
              <span className="box" aria-hidden="true"></span>
              {label}
            </label>
          ))}
        </fieldset>
        <p className="gate-collect" aria-live="polite">
          {amount > 0 ? 'Amount to collect' : 'Nothing to collect'}: <strong>{pesos(amount)}</strong>
          {qty > 1 && ` (${qty} × ${pesos(chosen.centavos)})`}
        </p>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button block" disabled={!props.online}>
          {amount > 0 ? `Collected ${pesos(amount)}: sell and check in` : 'Sell and check in'}
        </button>
      </form>
    </details>
  );
}

mountIsland('gate', Gate);
