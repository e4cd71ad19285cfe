// The seat map island of /s/{ticketTypeCode}: rows from A facing the stage, cut into sections at the
// organizer's aisles (a wider gap between sections) and into blocks of at most five 44 px seats (the
// touch-target size), side by side, so a row stays one line with its aisles as gaps; a map wider than
// a phone scrolls sideways inside its box, never the page. An empty row of the layout is a gap in
// every block. Each seat is the seat look of
// the shared checkbox, its status (available, held, sold) being its style. The buyer ticks up to
// max seats and continues to the buy page with them: /b/{code}?seats=A1,A2 (and &date= for one date
// of a series, whose seats the map shows). The map pans inside its box and zooms (pinch, or the −
// and + buttons) by the seat size. On a stadium's map (islands/arena.tsx) it draws one section,
// whose seats are labelled with it ("112-A12"), and the buyer's best-available hold's seats are
// choosable.
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { mountIsland, serverForm } from './lib/mount';
import { peso, toast } from './lib/api';
import { Checkbox } from './components/Checkbox';

/** SeatRow is one row: its letter and one character per seat, seat 1 first ('a' available, 'h' held, 's' sold). */
type SeatRow = { row: string; status: string };

/** SeatsProps are the island's props, rendered by the server (views.SeatsProps). */
export type SeatsProps = {
  code: string;
  name: string;
  finalPrice: number;
  max: number;
  maxMessage: string;
  rows: SeatRow[];
  /** aisles are the seat numbers an aisle follows, in every row. */
  aisles?: number[];
  /** rowGaps are the rows an empty row follows. */
  rowGaps?: string[];
  selected: string[];
  source: string;
  /** date is the series date the map is for (its slug, such as 2027-01-23); absent for an event of one date. */
  date?: string;
  /** section is the stadium section the rows are; its name starts each seat label. */
  section?: string;
  /** hold is the buyer's best-available hold, whose held seats the buyer may choose. */
  hold?: string;
  held?: string[];
};

const STATUS: Record<string, string> = { a: 'available', h: 'held', s: 'sold' };
const BLOCK = 5;

/** sections cuts seat indexes 0..width-1 at the aisles (seat numbers), then into blocks of at most size seats. */
export function sections(width: number, aisles: number[], size: number): number[][] {
  const cuts = [...new Set(aisles.filter((a) => a > 0 && a < width))].sort((a, b) => a - b);
  const out: number[][] = [];
  let from = 0;
  for (const end of [...cuts, width]) {
    const starts: number[] = [];
    for (let s = from; s < end; s += size) starts.push(s);
    if (starts.length) out.push(starts);
    from = end;
  }
  return out;
}

/** buyHref is the buy page for the chosen seats (labels are letters, digits and hyphens only), for a series date and a best-available hold when given. */
export function buyHref(code: string, seats: string[], source: string, date = '', hold = ''): string {
  const src = source ? `&source=${encodeURIComponent(source)}` : '';
  const day = date ? `&date=${encodeURIComponent(date)}` : '';
  const h = hold ? `&hold=${encodeURIComponent(hold)}` : '';
  return `/b/${encodeURIComponent(code)}?seats=${seats.join(',')}${src}${day}${h}`;
}

/** seatLabel names seat n of row in section ('' without sections): "A12" or "112-A12". */
export function seatLabel(section: string, row: string, n: number): string {
  return section ? `${section}-${row}${n}` : `${row}${n}`;
}

const ZOOM_MIN = 0.4;
const ZOOM_MAX = 1;

/** useZoom is the map's zoom (a scale of the 44 px seat) with pinch on the box: two fingers scale, one pans (natively). */
function useZoom(initial: number) {
  const box = useRef<HTMLDivElement>(null);
  const [zoom, setZoom] = useState(initial);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    let start = 0;
    let from = 1;
    const dist = (e: TouchEvent) => Math.hypot(e.touches[0].clientX - e.touches[1].clientX, e.touches[0].clientY - e.touches[1].clientY);
    const down = (e: TouchEvent) => {
      if (e.touches.length === 2) {
        start = dist(e);
        setZoom((z) => ((from = z), z));
      }
    };
    const move = (e: TouchEvent) => {
      if (e.touches.length !== 2 || !start) return;
      e.preventDefault();
      setZoom(Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, (from * dist(e)) / start)));
    };
    const up = () => (start = 0);
    el.addEventListener('touchstart', down, { passive: true });
    el.addEventListener('touchmove', move, { passive: false });
    el.addEventListener('touchend', up);
    return () => {
      el.removeEventListener('touchstart', down);
      el.removeEventListener('touchmove', move);
      el.removeEventListener('touchend', up);
    };
  }, []);
  return { box, zoom, setZoom };
}

export function Seats(p: SeatsProps) {
  // the seats ticked on the server-drawn map before the island came, else those of the props
  const [selected, setSelected] = useState<string[]>(() => {
    const form = serverForm('seats');
    if (!form || p.hold) return p.selected || [];
    return [...new FormData(form).getAll('seats')].map(String).slice(0, p.max);
  });
  const width = Math.max(0, ...p.rows.map((r) => r.status.length));
  const groups = sections(width, p.aisles || [], BLOCK);
  const bounds = groups.flat().concat(width);
  const gaps = new Set(p.rowGaps || []);
  const full = selected.length >= p.max;
  const section = p.section || '';
  const held = new Set(p.held || []);
  // the map opens at the 44 px touch-target size; the buyer zooms out to see more of it
  const { box, zoom, setZoom } = useZoom(ZOOM_MAX);

  useEffect(() => {
    // Back from the form (page cache): the seats may have changed since, so ask again.
    const onShow = (e: PageTransitionEvent) => e.persisted && window.location.reload();
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const toggle = (label: string, on: boolean) => {
    if (on && full) {
      toast(p.maxMessage);
      return;
    }
    setSelected((s) => (on ? [...s, label] : s.filter((x) => x !== label)));
  };

  return (
    <div className="seat-picker">
      <p className="stage" aria-hidden="true">Stage</p>
      <ul className="seat-legend" aria-label="Legend">
        <li><span className="swatch available" />Available</li>
        <li><span className="swatch selected" />Selected</li>
        <li><span className="swatch held" />On hold</li>
        <li><span className="swatch sold" />Sold</li>
      </ul>
      <div className="seat-zoom" role="group" aria-label="Zoom">
        <button type="button" className="button ghost" aria-label="Zoom out" onClick={() => setZoom((z) => Math.max(ZOOM_MIN, z - 0.15))}>−</button>
        <button type="button" className="button ghost" aria-label="Zoom in" onClick={() => setZoom((z) => Math.min(ZOOM_MAX, z + 0.15))}>+</button>
      </div>
      <div className="seat-blocks" ref={box} style={{ '--seat': `${Math.round(44 * zoom)}px` } as CSSProperties} data-zoomed={zoom < ZOOM_MAX ? '' : undefined}>
        {groups.map((starts) => (
          <div key={starts[0]} className="seat-section" data-grow={bounds[bounds.indexOf(starts[starts.length - 1]) + 1] - starts[0]}>
            {starts.map((start) => {
              const cols = bounds[bounds.indexOf(start) + 1] - start;
              return (
                <fieldset key={start} className="seat-block">
                  <legend>Seats {cols > 1 ? `${start + 1}–${start + cols}` : start + 1}</legend>
                  {p.rows.map((r) => (
                    <div key={r.row} className={`seat-row cols-${cols}${gaps.has(r.row) ? ' gap-after' : ''}`} role="group" aria-label={`Row ${r.row}`}>
                      <span className="row-label" aria-hidden="true">{r.row}</span>
                      {Array.from({ length: cols }, (_, k) => {
                        const i = start + k;
                        const own = held.has(seatLabel(section, r.row, i + 1));
                        const status = own ? 'available' : STATUS[r.status[i]];
                        const label = seatLabel(section, r.row, i + 1);
                        if (!status) return <Checkbox key={label} name="seats" source="seat" label="-" checked={false} onChange={() => {}} />;
                        return (
                          <Checkbox key={label} name="seats" source="seat" value={label} label={section ? label.slice(section.length + 1) : label} status={status}
                            checked={selected.includes(label)} disabled={status !== 'available'} onChange={(on) => toggle(label, on)} />
                        );
                      })}
                    </div>
                  ))}
                </fieldset>
              );
            })}
          </div>
        ))}
      </div>
      <div className="seat-bar" aria-live="polite" data-toast-above>
        <p className="seat-choice">
          {selected.length ? (
            <>
              <strong>{selected.length === 1 ? 'Seat' : 'Seats'} {selected.join(', ')}</strong>
              <span>{peso(p.finalPrice * selected.length)}</span>
            </>
          ) : (
            <span>Choose up to {p.max} {p.max === 1 ? 'seat' : 'seats'}.</span>
          )}
        </p>
        {full && selected.length > 0 && <p className="field-hint">{p.maxMessage}</p>}
        {selected.length ? (
          <a className="button block" href={buyHref(p.code, selected, p.source, p.date, p.hold)}>Continue</a>
        ) : (
          <button type="button" className="button block" disabled>Continue</button>
        )}
      </div>
    </div>
  );
}

mountIsland('seats', Seats);
