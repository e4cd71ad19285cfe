// What the gate keeps on the phone so it works without network: the event's ticket list (codes,
// holders, types, seats, status), the Ed25519 public key that verifies ticket QR codes, the
// check-ins made offline waiting to be synced, and the tickets checked in on this phone.
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
}

/** GateList mirrors the answer of GET /v1/organizer/events/{code}/gate-list. */
export interface GateList {
  eventCode: string;
  publicKey: string;
  generatedAt: string;
  tickets: GateTicket[];
}

/** QueuedScan is a check-in made offline, waiting for POST /v1/checkin/sync. */
export interface QueuedScan {
  id: string;
  ticket: string;
  gate: string;
  at: string;
}

/** Kept is everything the phone keeps for one event. */
export interface Kept {
  list: GateList | null;
  queue: QueuedScan[];
  // local holds the tickets checked in on this phone since the list was downloaded.
  local: Record<string, { at: string; gate: string }>;
}

const key = (event: string) => 'palaro.gate.' + event;

/** load returns what the phone keeps for the event. */
export function load(event: string): Kept {
  try {
    const v = JSON.parse(localStorage.getItem(key(event)) || 'null') as Kept | null;
    if (v && Array.isArray(v.queue)) return { list: v.list || null, queue: v.queue, local: v.local || {} };
  } catch {
    /* nothing kept, or unreadable */
  }
  return { list: null, queue: [], local: {} };
}

/** save keeps the event's state on the phone. */
export function save(event: string, kept: Kept): void {
  try {
    localStorage.setItem(key(event), JSON.stringify(kept));
  } catch {
    /* storage full or private mode: the state stays in memory */
  }
}

function fromBase64url(s: string): Uint8Array {
  const b = atob(s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4));
  return Uint8Array.from(b, (c) => c.charCodeAt(0));
}

/** Parsed is what a scan or a typed code reads as: a ticket code, or a QR code that is forged. */
export type Parsed = { code: string; forged: boolean };

/**
 * parse reads a QR payload or a typed code as the server does (palaro.ParseTicketInput). A format 2
 * payload ("PLR2.{code}.{sig}") is verified with the Ed25519 public key; a format 1 payload (HMAC,
 * whose key a phone must never hold) cannot be verified here, so only the ticket list vouches for it.
 */
export async function parse(input: string, publicKey: string): Promise<Parsed> {
  const s = input.trim();
  if (s.startsWith('PLR2.')) {
    const i = s.lastIndexOf('.');
    try {
      const ok = i > 5 && (await verifyAsync(fromBase64url(s.slice(i + 1)), new TextEncoder().encode(s.slice(0, i)), fromBase64url(publicKey)));
      return ok ? { code: s.slice(5, i), forged: false } : { code: '', forged: true };
    } catch {
      return { code: '', forged: true };
    }
  }
  if (s.startsWith('PLR1.')) {
    const i = s.lastIndexOf('.');
    return i > 5 ? { code: s.slice(5, i), forged: false } : { code: '', forged: true };
  }
  return { code: s.replace(/\s+/g, '').toUpperCase(), forged: false };
}

/** Answer is what the gate shows after a scan. */
export interface Answer {
  ok: boolean;
  title: string;
  ticket?: GateTicket;
  offline?: boolean;
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
 * check-in under id. Unknown codes are refused: a ticket bought after the list's download is let in once the
 * list is refreshed or the network is back.
 */
export function checkInOffline(kept: Kept, p: Parsed, gate: string, now: Date, id: string = newID()): Answer {
  if (p.forged) return { ok: false, title: 'Forged QR code: not issued by Palaro', offline: true };
  const t = kept.list?.tickets.find((x) => x.code === p.code);
  if (!t) return { ok: false, title: 'Unknown ticket', offline: true };
  if (t.status === 'cancelled') return { ok: false, title: 'This ticket is cancelled', ticket: t, offline: true };
  const local = kept.local[t.code];
  if (local || t.status === 'checked_in') {
    const at = local ? local.at : t.checkedInAt || '';
    const where = local ? local.gate : t.gate;
    return { ok: false, title: `Already checked in at ${manilaTime(at)} (${where || 'Gate'})`, ticket: t, offline: true };
  }
  const at = now.toISOString();
  kept.local[t.code] = { at, gate };
  kept.queue.push({ id, ticket: t.code, gate, at });
  return { ok: true, title: 'Checked in', ticket: t, offline: true };
}
