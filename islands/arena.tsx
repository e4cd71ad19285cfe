// The stadium seat map island of /s/{ticketTypeCode} for a sectioned plan: it opens on an overview
// of every price zone (the bowl drawn round the stage end, and each section as a chip with its
// free seats), the same size at any venue size; opening a section fetches its seats
// (GET /v1/seats/{code}/sections/{section}) and draws them with the seat map of islands/seats.tsx,
// where the buyer pans and zooms. "Best available" asks the server for the best adjacent seats of
// a zone (POST /v1/seats/{code}/best), which it holds for the buyer: the map opens on their
// section with them chosen, and the buyer buys them or chooses by hand. On a series date (date in
// the props) the counts, a section's seats and best available's hold are that date's.
import { useState } from 'react';
import { mountIsland } from './lib/mount';
import { call, peso, toast, GENERIC_ERROR } from './lib/api';
import { Seats, type SeatsProps } from './seats';

type Section = { name: string; ring: number; from: number; to: number; seats: number; free: number };
type Zone = { code: string; name: string; price: number; max: number; maxMessage: string; free: number; href: string; sections?: Section[] };

/** ArenaProps are the island's props, rendered by the server (views.ArenaProps); date is the series date's slug. */
type ArenaProps = { zone: string; zones: Zone[]; source: string; date?: string; seats?: SeatsProps };

type Hold = { hold: string; seats: string[]; section: string; expiresAt: string; buyHref: string; code: string };

/** Ring radii of the drawing (its units), inner and outer, for ring 1 (lower) and 2 (upper). */
const RINGS: Record<number, [number, number]> = { 1: [44, 66], 2: [70, 96] };

/** point is the drawing's point at radius r and angle deg clockwise from the stage end (up). */
function point(r: number, deg: number): string {
  const a = (deg * Math.PI) / 180;
  return `${(r * Math.sin(a)).toFixed(1)} ${(-r * Math.cos(a)).toFixed(1)}`;
}

/** sectorPath is a section's ring sector from one angle to another. */
export function sectorPath(ring: number, from: number, to: number): string {
  const [r0, r1] = RINGS[ring] || RINGS[1];
  return `M${point(r0, from)}A${r0} ${r0} 0 0 1 ${point(r0, to)}L${point(r1, to)}A${r1} ${r1} 0 0 0 ${point(r1, from)}Z`;
}

function Arena(p: ArenaProps) {
  const seated = p.zones.filter((z) => z.sections?.length);
  const [open, setOpen] = useState<SeatsProps | null>(p.seats || null);
  const [hold, setHold] = useState<Hold | null>(null);
  const [zone, setZone] = useState(seated.some((z) => z.code === p.zone) ? p.zone : seated[0]?.code || '');
  const [qty, setQty] = useState(2);
  const [across, setAcross] = useState(false);
  const [busy, setBusy] = useState(false);
  const zoneOf = (code: string) => p.zones.find((z) => z.code === code);
  const current = zoneOf(zone);

  async function openSection(code: string, section: string, h: Hold | null) {
    const z = zoneOf(code);
    if (!z) return;
    setBusy(true);
    const day = p.date ? `?date=${encodeURIComponent(p.date)}` : '';
    const { status, data } = await call('GET', `/v1/seats/${encodeURIComponent(code)}/sections/${encodeURIComponent(section)}${day}`);
    setBusy(false);
    if (status !== 200 || !data) return toast(data?.message || GENERIC_ERROR);
    const mine = h && h.code === code && h.section === section ? h : null;
    setOpen({
      code, name: z.name, finalPrice: z.price, max: Math.max(1, Math.min(z.max, z.free + (mine ? mine.seats.length : 0))),
      maxMessage: z.maxMessage, rows: data.rows as SeatsProps['rows'], aisles: data.aisles as number[], rowGaps: [],
      selected: mine ? mine.seats : [], source: p.source, date: p.date, section, hold: mine?.hold, held: mine?.seats,
    });
    window.setTimeout(() => document.getElementById('arena-section')?.scrollIntoView({ block: 'start' }), 0);
  }

  async function best() {
    if (!current || busy) return;
    setBusy(true);
    const q = p.source ? `?source=${encodeURIComponent(p.source)}` : '';
    const { status, data } = await call('POST', `/v1/seats/${encodeURIComponent(zone)}/best${q}`, {
      date: p.date || '', quantity: qty, acrossAisle: across, replace: hold?.hold || '',
    });
    setBusy(false);
    if (status !== 200 || !data) return toast(data?.message || GENERIC_ERROR);
    const h = { ...(data as unknown as Hold), code: zone };
    setHold(h);
    await openSection(zone, h.section, h);
  }

  const until = hold ? new Date(hold.expiresAt).toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit', timeZone: 'Asia/Manila' }) : '';
  const holdZone = hold ? zoneOf(hold.code) : undefined;

  return (
    <div className="arena-picker">
      {/* the drawing is for the eyes (tap a section); the section buttons below say the same to everyone */}
      <svg className="arena-map" viewBox="-100 -100 200 200" aria-hidden="true">
        <rect x="-34" y="-40" width="68" height="12" rx="3" className="floor" />
        <text x="0" y="-31.5" textAnchor="middle">STAGE</text>
        {p.zones.filter((z) => !z.sections?.length).map((z, i) => (
          <g key={z.code} onClick={() => window.location.assign(z.href)}>
            <rect x="-30" y={-24 + i * 26} width="60" height="23" rx="4" className="floor" />
            <text x="0" y={-10 + i * 26} textAnchor="middle" style={{ fill: 'var(--muted)' }}>{z.name.replace('General Admission ', 'GA ')}</text>
          </g>
        ))}
        {seated.map((z, zi) => z.sections!.map((s) => (
          <path key={`${z.code}-${s.name}`} d={sectorPath(s.ring, s.from, s.to)}
            className={`z${zi % 2}${s.free === 0 ? ' full' : ''}${open?.code === z.code && open.section === s.name ? ' open' : ''}`}
            onClick={() => openSection(z.code, s.name, hold)}>
            <title>{`Section ${s.name}, ${z.name}: ${s.free} of ${s.seats} free`}</title>
          </path>
        )))}
      </svg>

      {current && (
        <form className="arena-best" onSubmit={(e) => { e.preventDefault(); best(); }}>
          <strong>Best available</strong>
          <div className="row">
            <select id="best-zone" aria-label="Price zone" value={zone} onChange={(e) => setZone(e.target.value)}>
              {seated.map((z) => <option key={z.code} value={z.code}>{z.name} · {peso(z.price)}</option>)}
            </select>
            <select id="best-qty" aria-label="Number of seats" value={qty} onChange={(e) => setQty(Number(e.target.value))}>
              {Array.from({ length: Math.min(current.max, 8) }, (_, i) => i + 1).map((n) => <option key={n} value={n}>{n} {n === 1 ? 'seat' : 'seats'}</option>)}
            </select>
          </div>
          <label className="check default"><input type="checkbox" checked={across} onChange={(e) => setAcross(e.target.checked)} /> <span className="check-label">Seats may be split by an aisle</span></label>
          <button type="submit" className="button block" disabled={busy}>Find best seats</button>
        </form>
      )}

      {hold && holdZone && (
        <div className="notice arena-held" role="status">
          <p><strong>{hold.seats.length === 1 ? 'Seat' : 'Seats'} {hold.seats.join(', ')}</strong> · {peso(holdZone.price * hold.seats.length)}</p>
          <p>Held for you until {until}. Buy them, or choose other seats on the map.</p>
          <a className="button block" href={hold.buyHref}>Buy these seats</a>
        </div>
      )}

      {p.zones.map((z) => (
        <section key={z.code} aria-label={z.name}>
          <h2 className="arena-zone">{z.name} · {peso(z.price)}</h2>
          {z.sections?.length ? (
            <ul className="arena-sections">
              {z.sections.map((s) => (
                <li key={s.name}>
                  <button type="button" className={open?.code === z.code && open.section === s.name ? 'open' : ''} disabled={busy}
                    onClick={() => openSection(z.code, s.name, hold)}>
                    <strong>{s.name}</strong> <span>{s.free === 0 ? 'Sold out' : `${s.free.toLocaleString('en-PH')} of ${s.seats.toLocaleString('en-PH')} free`}</span>
                  </button>
                </li>
              ))}
            </ul>
          ) : (
            <p className="arena-standing"><a href={z.href}>{z.name}</a> · {z.free === 0 ? 'Sold out' : `${z.free.toLocaleString('en-PH')} places left`}</p>
          )}
        </section>
      ))}

      {open && (
        <section id="arena-section" aria-label={`Section ${open.section}`}>
          <h2 className="arena-heading">Section {open.section} · {open.name}</h2>
          <button type="button" className="button ghost" onClick={() => { setOpen(null); window.scrollTo({ top: 0 }); }}>All sections</button>
          <Seats key={`${open.code}-${open.section}-${open.hold || ''}`} {...open} />
        </section>
      )}
    </div>
  );
}

mountIsland('arena', Arena);
