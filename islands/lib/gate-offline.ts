// What the gate keeps on the phone so it works without network: the event's ticket list (each
// ticket named by a keyed hash of its code, never the code, with holder, type, seat and status),
// the key that hashes a scanned code the same way, the Ed25519 public keys (by key id) that verify
// ticket QR codes, the check-ins made offline waiting to be synced, and the tickets checked in on
// this phone.
// A lost phone holds no code that works at a gate: a scanned QR is looked up by its code's hash,
// and a typed code is only checked online.
import { verifyAsync } from '@noble/ed25519';

/** GateTicket mirrors palaro.GateTicket. */
export interface GateTicket {
  code: string;
  holderName: string;
  ticketType: string;
  seat?: string;
  status: string; // valid, checked_in, cancelled
  checkedInAt?: string;
  gate?: string;
  /** discount is a senior citizen's or PWD's ticket's ('senior', 'pwd'): the gate checks the holder's ID. */
  discount?: string;
  discountHolder?: string;
  /** discountId is the ID number's last 4, masked. */
  discountId?: string;
  /** date is, for a series, the date (slug) a day ticket is for, or the date a pass was scanned on. */
  date?: string;
  /** pass describes a season pass ("Every date"); usedDates are the dates (slugs) it was admitted on. */
  pass?: string;
  usedDates?: string[];
}

/** checkIDLine is what the gate says of a discounted ticket, as palaro.CheckIDLine says it. */
export function checkIDLine(t: { discount?: string; discountHolder?: string }): string {
  if (!t.discount) return '';
  return `Check ID: ${t.discount === 'pwd' ? 'person with disability' : 'senior citizen'}, ${t.discountHolder || ''}`;
}

/** ListTicket is a ticket in the gate list: GateTicket with its code's hash instead of the code. */
export interface ListTicket extends Omit<GateTicket, 'code'> {
  hash: string;
}

/**
 * ListRow is a ticket as the gate list (format 2) sends and the phone keeps it: its code's hash,
 * the index of its type's name in the list's types, then seat, status ('' for valid), checkedInAt,
 * gate, discount, the discount's ID holder and the ID's last 4; empty ones at the end are left out.
 * No holder names: 55,000 tickets stay well inside what a phone's storage keeps. A series' list
 * (format 3) is of one date: each row is the ticket's state on it (status 'wrong_date' for a day
 * ticket of another date, 'pass_used_up' for a pass with no date left; a pass's check-in is the
 * date's), then the date a wrong_date ticket is for, the dates a pass was admitted on (slugs,
 * comma-separated) and the pass's description ("Every date"; '' for a day ticket).
 */
export type ListRow = [string, number, ...string[]];

/** LIST_FORMATS are the gate list's formats this phone reads (2: one date, 3: a series' date); a kept list of another is dropped. */
export const LIST_FORMATS = [2, 3];

/**
 * GateList mirrors the answer of GET /v1/organizer/events/{code}/gate-list: the whole list, or
 * with since set the tickets changed after that version and the hashes of replaced codes.
 */
export interface GateList {
  format: number;
  eventCode: string;
  publicKey: string;
  // publicKeys are every key that verifies a ticket QR code, by the key id a format 3 code names.
  publicKeys?: Record<string, string>;
  hashKey: string;
  version: number;
  since?: number;
  generatedAt: string;
  types: string[];
  tickets: ListRow[];
  voided?: string[];
  /** date is a series' list's date (slug), dateLabel its name at the gate ("Match Day 3 · Sat 12 Dec"). */
  date?: string;
  dateLabel?: string;
}

/** listTicket reads a kept row as a ticket. */
export function listTicket(list: GateList, row: ListRow): ListTicket {
  const [hash, type, seat, status, checkedInAt, gate, discount, discountHolder, discountId, date, used, pass] = row;
  return {
    hash,
    ticketType: list.types[type] || '',
    seat,
    status: status || 'valid',
    checkedInAt,
    gate,
    discount,
    discountHolder,
    discountId,
    holderName: '',
    date: date || list.date,
    usedDates: used ? used.split(',') : pass ? [] : undefined,
    pass: pass || undefined,
  };
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** dateSlugLabel names a date by its slug as palaro.DateSlugLabel does: "Sat 9 Jan 2027", ", session 2" for a later session. */
export function dateSlugLabel(slug: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:-(\d+))?$/.exec(slug);
  if (!m) return slug;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}${m[4] ? `, session ${m[4]}` : ''}`;
}

/** usedLine says which dates a pass was admitted on: "Used: 28 Nov, 5 Dec", or "Not used before". */
export function usedLine(slugs: string[] | undefined): string {
  const days = (slugs || []).map((s) => /^\d{4}-(\d{2})-(\d{2})/.exec(s)).filter((m) => m !== null);
  if (days.length === 0) return 'Not used before';
  return 'Used: ' + days.map((m) => `${+m[2]} ${MONTHS[+m[1] - 1]}`).join(', ');
}

/** findRow returns the kept row of the ticket whose code hashes to hash. */
export function findRow(list: GateList | null | undefined, hash: string): ListRow | undefined {
  return list?.tickets.find((r) => r[0] === hash);
}

/** markCheckedIn notes in a kept row that the ticket is checked in, at and where the server says. */
export function markCheckedIn(row: ListRow, at: string, gate: string): void {
  while (row.length < 6) row.push('');
  row[3] = 'checked_in';
  row[4] = at;
  row[5] = gate;
}

/** QueuedScan is a check-in made offline, waiting for POST /v1/checkin/sync. */
export interface QueuedScan {
  id: string;
  ticket: string;
  gate: string;
  at: string;
  // listAt is when the list the phone decided with was made (server time): no scan is older.
  listAt?: string;
  hash?: string;
  /** date is, for a series, the date (slug) the gate admitted to. */
  date?: string;
}

/** Kept is everything the phone keeps for one event. */
export interface Kept {
  list: GateList | null;
  queue: QueuedScan[];
  // local holds the tickets (by hash) checked in on this phone since the list was downloaded.
  // For a series, date is the date (slug) it was checked in for.
  local: Record<string, { at: string; gate: string; date?: string }>;
  // skew is the server's clock minus the phone's, in ms, as of the last list: offline scans are
  // timed by the server's clock even when the phone's is wrong.
  skew?: number;
}

// Everything the gate keeps is under this prefix and names the signed-in member, so another
// member signing in on a shared phone does not see it (and sign-out clears it).
const PREFIX = 'palaro.gate.';

const key = (member: string, event: string) => PREFIX + member + '.' + event;

/** load returns what the phone keeps for the event for the signed-in member. */
export function load(member: string, event: string): Kept {
  try {
    // the former key (no member, a list with raw codes): its unsynced scans move over, the rest goes
    const legacy = localStorage.getItem(PREFIX + event);
    if (legacy !== null) {
      localStorage.removeItem(PREFIX + event);
      const old = JSON.parse(legacy) as Kept | null;
      if (old && Array.isArray(old.queue) && old.queue.length) {
        const now = (JSON.parse(localStorage.getItem(key(member, event)) || 'null') as Kept | null) || { list: null, queue: [], local: {} };
        const ids = new Set(now.queue.map((q) => q.id));
        now.queue = now.queue.concat(old.queue.filter((q) => !ids.has(q.id)));
        localStorage.setItem(key(member, event), JSON.stringify(now));
      }
    }
    const v = JSON.parse(localStorage.getItem(key(member, event)) || 'null') as Kept | null;
    // a list of a former format is dropped: raw codes (no hash key) held working codes, and the
    // one before format 2 held every holder's name and versions of another kind
    const list = v && v.list && v.list.hashKey && LIST_FORMATS.includes(v.list.format) ? v.list : null;
    if (v && Array.isArray(v.queue)) return { list, queue: v.queue, local: list ? v.local || {} : {}, skew: v.skew || 0 };
  } catch {
    /* nothing kept, or unreadable */
  }
  return { list: null, queue: [], local: {} };
}

/** save keeps the event's state on the phone for the signed-in member. */
export function save(member: string, event: string, kept: Kept): void {
  try {
    localStorage.setItem(key(member, event), JSON.stringify(kept));
  } catch {
    /* storage full or private mode: the state stays in memory */
  }
}

/** forgetAll removes everything every gate kept on this phone (at sign-out). */
export function forgetAll(): void {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (k && k.startsWith(PREFIX)) localStorage.removeItem(k);
    }
  } catch {
    /* no storage */
  }
}

/**
 * merge applies a gate-list answer to what the phone keeps: a whole list replaces it; a delta drops
 * the replaced codes' hashes and puts the changed tickets in place.
 */
export function merge(kept: Kept, got: GateList): void {
  if (got.since === undefined || got.since === null) {
    kept.list = { ...got, since: undefined, voided: undefined };
    return;
  }
  // the server's gate-list key changed (an operator replaced it): the kept hashes name nothing, so
  // the list goes and the next fetch brings it whole
  if (kept.list && kept.list.hashKey !== got.hashKey) {
    kept.list = null;
    kept.local = {};
    return;
  }
  // a delta from another version than the kept one (two answers crossed), or of another date than
  // the kept list's (the gate changed date meanwhile): the next one catches up
  if (!kept.list || kept.list.version !== got.since || kept.list.date !== got.date) return;
  const types = kept.list.types.slice();
  const gone = new Set(got.voided || []);
  const changed = new Map<string, ListRow>();
  for (const r of got.tickets) {
    // the delta counts types in its own list: count them in the kept one
    const name = got.types[r[1]] || '';
    let i = types.indexOf(name);
    if (i < 0) i = types.push(name) - 1;
    changed.set(r[0], [r[0], i, ...(r.slice(2) as string[])]);
  }
  const tickets = kept.list.tickets.filter((r) => !gone.has(r[0]) && !changed.has(r[0]));
  kept.list = { ...kept.list, version: got.version, generatedAt: got.generatedAt, publicKey: got.publicKey, publicKeys: got.publicKeys, types, tickets: tickets.concat([...changed.values()]) };
  for (const h of gone) delete kept.local[h];
}

/** codeHash names a ticket code as the gate list does (palaro.GateCodeHash): HMAC-SHA256, 40 bits, hex. */
export async function codeHash(hashKey: string, code: string): Promise<string> {
  const k = await crypto.subtle.importKey('raw', fromBase64url(hashKey), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(code)));
  return Array.from(mac.slice(0, 5), (x) => x.toString(16).padStart(2, '0')).join('');
}

function fromBase64url(s: string): Uint8Array<ArrayBuffer> {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/**
 * Parsed is what a scan or a typed code reads as: a ticket code, a QR code that is forged, a QR code
 * signed by a key the phone does not know yet (unknownKey: the kept keys predate a key rotation), or
 * (typed true) a bare code someone typed, which only the server checks.
 */
export type Parsed = { code: string; forged: boolean; typed?: boolean; unknownKey?: boolean };

/** verifyQR reports whether sig (base64url) is the Ed25519 signature of msg under publicKey (base64url). */
async function verifyQR(msg: string, sig: string, publicKey: string): Promise<boolean> {
  try {
    return await verifyAsync(fromBase64url(sig), new TextEncoder().encode(msg), fromBase64url(publicKey));
  } catch {
    return false;
  }
}

/**
 * parse reads a QR payload or a typed code as the server does (palaro.ParseTicketInput). A format 3
 * payload ("PLR3.{kid}.{code}.{sig}") is verified with the public key of its key id; a format 2
 * payload ("PLR2.{code}.{sig}", no key id; accepted until the events that sold tickets before
 * format 3 have ended, see checkin.go) with any of the keys.
 */
export async function parse(input: string, publicKeys: Record<string, string>): Promise<Parsed> {
  const s = input.trim();
  const i = s.lastIndexOf('.');
  if (s.startsWith('PLR3.')) {
    const k = s.indexOf('.', 5);
    if (k <= 5 || i <= k + 1) return { code: '', forged: true };
    const key = publicKeys[s.slice(5, k)];
    if (!key) return { code: '', forged: false, unknownKey: true };
    return (await verifyQR(s.slice(0, i), s.slice(i + 1), key)) ? { code: s.slice(k + 1, i), forged: false } : { code: '', forged: true };
  }
  if (s.startsWith('PLR2.')) {
    for (const key of Object.values(publicKeys)) {
      if (i > 5 && (await verifyQR(s.slice(0, i), s.slice(i + 1), key))) return { code: s.slice(5, i), forged: false };
    }
    return { code: '', forged: true };
  }
  return { code: s.replace(/\s+/g, '').toUpperCase(), forged: false, typed: true };
}

/** Answer is what the gate shows after a scan. */
export interface Answer {
  ok: boolean;
  title: string;
  detail?: string;
  ticket?: GateTicket;
  offline?: boolean;
  /** date names the series date the gate admitted to ("Match Day 3 · Sat 12 Dec"). */
  date?: string;
}

/** manilaTime formats an instant as the server does in "Already checked in at 3:04 PM". */
export function manilaTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-US', { timeZone: 'Asia/Manila', hour: 'numeric', minute: '2-digit' });
}

/** newID names an offline scan, so that a sync sent twice counts it once. */
export function newID(): string {
  const b = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * checkInOffline decides a scan with the kept list alone and, when the ticket may enter, queues the
 * check-in under id; hash is the scanned code's codeHash. Typed codes are refused: the list holds
 * no codes, so only the server can check one. Unknown codes are refused: a ticket bought after the
 * list's download is let in once the list is refreshed or the network is back.
 */
export function checkInOffline(kept: Kept, p: Parsed, hash: string, gate: string, now: Date, id: string = newID()): Answer {
  if (p.forged) return { ok: false, title: 'Forged QR code: not issued by Palaro', offline: true };
  // a key this phone does not know: forged, or signed after a rotation the kept keys predate
  if (p.unknownKey) return { ok: false, title: 'Forged QR code: not issued by Palaro', detail: 'Or signed with a newer key: scan it again once online.', offline: true };
  if (p.typed) return { ok: false, title: 'Scan the QR code', detail: 'No network: typed codes are checked online only.', offline: true };
  const row = kept.list ? findRow(kept.list, hash) : undefined;
  if (!kept.list || !row) return { ok: false, title: 'Unknown ticket', offline: true };
  const t = listTicket(kept.list, row);
  const shown = { ...t, code: p.code };
  if (t.status === 'cancelled') return { ok: false, title: 'This ticket is cancelled', ticket: shown, offline: true };
  if (t.status === 'wrong_date') return { ok: false, title: `This ticket is for ${dateSlugLabel(t.date || '')}`, ticket: shown, offline: true };
  if (t.status === 'pass_used_up') return { ok: false, title: 'This pass has no dates left', ticket: shown, offline: true };
  // a check-in on this phone counts on its date only: a pass admitted on one date may come on the next
  const date = kept.list.date;
  const local = kept.local[hash] && (kept.local[hash].date || '') === (date || '') ? kept.local[hash] : undefined;
  // a pass's answer lists the dates it used, tonight's included once this phone let it in
  const usedTonight = () => [...(t.usedDates || []).filter((d) => d !== date), date || ''].sort();
  if (t.pass && date && local) shown.usedDates = usedTonight();
  if (local || t.status === 'checked_in') {
    const at = local ? local.at : t.checkedInAt || '';
    const where = local ? local.gate : t.gate;
    return { ok: false, title: `Already checked in at ${manilaTime(at)} (${where || 'Gate'})`, ticket: shown, offline: true };
  }
  // the server's time as the phone estimates it: a phone whose clock is wrong still sends a true time
  const at = new Date(now.getTime() + (kept.skew || 0)).toISOString();
  kept.local[hash] = { at, gate, date };
  kept.queue.push({ id, ticket: p.code, gate, at, listAt: kept.list.generatedAt, hash, date });
  if (t.pass && date) shown.usedDates = usedTonight();
  return { ok: true, title: 'Checked in', ticket: shown, offline: true };
}
