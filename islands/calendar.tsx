// The calendar island: a month grid in six-weeks mode (42 cells, weeks start Sunday) with the
// events of each day linking to their pages, buttons and swipe to change month, and an accessible
// list of the selected day's events. Other months are fetched from /v1/calendar?month=YYYY-MM.
// Each date of a series is an entry of its own, leading to its page (/e/{code}/{date}).
import { useEffect, useMemo, useRef, useState, type TouchEvent } from 'react';
import { mountIsland } from './lib/mount';

/** CalendarEvent mirrors views.CalendarEvent. */
interface CalendarEvent {
  code: string;
  name: string;
  start: string; // RFC 3339 in Manila time, e.g. 2026-11-22T17:00:00+08:00
  end: string;
  place: string;
  url: string; // the event's page, or a series date's: unique among the month's entries
  status?: string; // "Cancelled", "Postponed" or "Rescheduled"; absent when on as planned
}

/** CalendarProps mirrors views.CalendarProps. */
interface CalendarProps {
  month: string; // YYYY-MM
  today: string; // YYYY-MM-DD in Manila time
  events: CalendarEvent[];
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const SWIPE_THRESHOLD_PX = 10;
const GRID_CELLS = 42;
const DAY_MS = 86400000;
const MANILA_OFFSET_MS = 8 * 3600000;
// An event that runs past midnight shows on the next day only when it lasts past this hour there.
const SPILL_HOURS = 6;
const GENERIC_ERROR = 'Error occured. Please try again.';
const OFFLINE = 'You are offline. The calendar will load when the connection returns.';
const UNREACHABLE = 'Palaro could not be reached. The calendar will load when the connection returns, or try again now.';

/** ServerError is an answer from the server that is not a success: it has words of its own. */
class ServerError extends Error {}

// window.palaro, the page script's, is typed in lib/events.ts.
const emit = (name: string, detail?: unknown) => window.palaro?.emit(name, detail);

/** A calendar day as days since 1970-01-01 (Manila dates, no time zone arithmetic needed). */
type Day = number;
const dayOf = (iso: string): Day => Math.floor(Date.parse(iso.slice(0, 10) + 'T00:00:00Z') / DAY_MS);
const dayParts = (d: Day) => {
  const t = new Date(d * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth(), date: t.getUTCDate(), weekday: t.getUTCDay() };
};
const isoDay = (d: Day) => new Date(d * DAY_MS).toISOString().slice(0, 10);
const monthKey = (year: number, month: number) => {
  const t = new Date(Date.UTC(year, month, 1));
  return t.toISOString().slice(0, 7);
};
const shiftMonth = (key: string, by: number) => monthKey(Number(key.slice(0, 4)), Number(key.slice(5, 7)) - 1 + by);
const monthIndex = (key: string) => Number(key.slice(0, 4)) * 12 + Number(key.slice(5, 7)) - 1;
const monthLabel = (key: string) => MONTHS[Number(key.slice(5, 7)) - 1] + ' ' + key.slice(0, 4);
const timeLabel = (iso: string) => {
  const [h, m] = iso.slice(11, 16).split(':').map(Number);
  return `${h % 12 || 12}:${String(m).padStart(2, '0')} ${h < 12 ? 'AM' : 'PM'}`;
};

/** The Manila days an event covers, from its start day to the last day it runs into past SPILL_HOURS. */
function eventDays(ev: CalendarEvent): Day[] {
  const first = dayOf(ev.start);
  const endLocal = Date.parse(ev.end) + MANILA_OFFSET_MS - SPILL_HOURS * 3600000;
  const last = Math.max(first, Math.floor((endLocal - 1) / DAY_MS));
  const days: Day[] = [];
  for (let d = first; d <= last && days.length < 60; d++) days.push(d);
  return days;
}

/** The 42 days of the six-week grid of a month, starting on the Sunday on or before its first day. */
function gridDays(key: string): Day[] {
  const first = dayOf(key + '-01');
  const start = first - dayParts(first).weekday;
  return Array.from({ length: GRID_CELLS }, (_, i) => start + i);
}

function csrfHeaders(): Record<string, string> {
  const token = document.querySelector('meta[name="csrf-token"]')?.getAttribute('content');
  return token ? { 'X-CSRF-Token': token } : {};
}

function Calendar(props: CalendarProps) {
  const [month, setMonth] = useState(props.month);
  const [cache, setCache] = useState<Record<string, CalendarEvent[]>>({ [props.month]: props.events || [] });
  const today = dayOf(props.today);
  const [selected, setSelected] = useState<Day>(() =>
    props.today.startsWith(props.month) ? today : dayOf(props.month + '-01'),
  );
  const touch = useRef<{ x: number; y: number } | null>(null);
  // failed says why the month on screen did not load; attempt counts the tries, to try again.
  const [failed, setFailed] = useState<{ month: string; message: string } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = () => setAttempt((n) => n + 1);

  // Fetch a month the island has not seen yet.
  useEffect(() => {
    if (cache[month]) return;
    let cancelled = false;
    setFailed(null);
    emit('toggle-loading', true);
    fetch('/v1/calendar?month=' + month, { headers: { Accept: 'application/json', ...csrfHeaders() } })
      .then(async (res) => {
        const body = await res.json().catch(() => ({}));
        if (!res.ok) throw new ServerError(body.message || GENERIC_ERROR);
        if (!cancelled) setCache((c) => ({ ...c, [month]: body.events || [] }));
      })
      .catch((err: Error) => {
        if (cancelled) return;
        // A failed fetch is the connection, not the server: say so in words, not 'Failed to fetch'.
        const message = err instanceof ServerError ? err.message : navigator.onLine ? UNREACHABLE : OFFLINE;
        setFailed({ month, message });
      })
      .finally(() => emit('toggle-loading', false));
    return () => {
      cancelled = true;
    };
  }, [month, cache, attempt]);

  // When the connection returns, a month that failed to load is fetched again.
  useEffect(() => {
    if (!failed) return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [failed]);

  const days = useMemo(() => gridDays(month), [month]);
  const byDay = useMemo(() => {
    const map = new Map<Day, CalendarEvent[]>();
    for (const ev of cache[month] || []) {
      for (const d of eventDays(ev)) {
        if (!map.has(d)) map.set(d, []);
        map.get(d)!.push(ev);
      }
    }
    return map;
  }, [cache, month]);

  const go = (by: number) => {
    const next = shiftMonth(month, by);
    setMonth(next);
    setSelected(props.today.startsWith(next) ? today : dayOf(next + '-01'));
    const url = new URL(location.href);
    url.searchParams.set('month', next);
    history.replaceState(history.state, '', url.pathname + url.search);
  };

  const onTouchStart = (e: TouchEvent) => {
    const t = e.touches[0];
    touch.current = t ? { x: t.clientX, y: t.clientY } : null;
  };
  const onTouchEnd = (e: TouchEvent) => {
    const start = touch.current;
    const t = e.changedTouches[0];
    touch.current = null;
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    if (Math.abs(dx) > SWIPE_THRESHOLD_PX && Math.abs(dx) > Math.abs(dy)) go(dx < 0 ? 1 : -1);
  };

  const current = dayParts(dayOf(month + '-01')).month;
  const selParts = dayParts(selected);
  const selEvents = byDay.get(selected) || [];
  const loading = !cache[month];
  const failure = loading && failed?.month === month ? failed.message : '';

  return (
    <div className="cal">
      <div className="cal-head">
        <button type="button" className="icon-button cal-prev" aria-label="Previous month" onClick={() => go(-1)}>
          <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
        <h2 className="cal-title" aria-live="polite">
          {monthLabel(month)}
        </h2>
        <button type="button" className="icon-button cal-next" aria-label="Next month" onClick={() => go(1)}>
          <svg width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <path d="M9 5l7 7-7 7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </button>
      </div>
      {!props.today.startsWith(month) && (
        <p className="cal-today">
          <button type="button" className="button secondary small" onClick={() => go(monthIndex(props.today) - monthIndex(month))}>
            Back to {MONTHS[Number(props.today.slice(5, 7)) - 1]}
          </button>
        </p>
      )}
      {failure && (
        <div className="cal-status notice" role="status">
          <p>{failure}</p>
          <button type="button" className="button secondary small cal-retry" onClick={retry}>
            Try again
          </button>
        </div>
      )}
      <div className="cal-grid" onTouchStart={onTouchStart} onTouchEnd={onTouchEnd} aria-busy={loading}>
        {WEEKDAYS.map((w) => (
          <abbr key={w} className="cal-weekday" title={w}>
            {w.slice(0, 3)}
          </abbr>
        ))}
        {days.map((d) => {
          const p = dayParts(d);
          const evs = byDay.get(d) || [];
          const cls = ['cal-day'];
          if (p.month !== current) cls.push('outside');
          if (d === today) cls.push('today');
          if (d === selected) cls.push('selected');
          if (evs.length) cls.push('has-events');
          return (
            <div key={d} className={cls.join(' ')} data-date={isoDay(d)}>
              <button
                type="button"
                className="cal-date"
                aria-pressed={d === selected}
                aria-current={d === today ? 'date' : undefined}
                aria-label={`${WEEKDAYS[p.weekday]}, ${p.date} ${MONTHS[p.month]} ${p.year}${evs.length ? `, ${evs.length} event${evs.length > 1 ? 's' : ''}` : ''}${evs.some((e) => e.status === 'Cancelled') ? ', cancelled events' : ''}`}
                onClick={() => setSelected(d)}
              >
                <span className="cal-num">{p.date}</span>
              </button>
              {/* Labels, not links: the whole day cell is the target, and the day's list below links the events. */}
              {evs.slice(0, 2).map((ev) => (
                <span key={ev.url} className={'cal-event' + (ev.status ? ' ' + ev.status.toLowerCase() : '')} aria-hidden="true">
                  {ev.status && <span className="cal-event-status">{ev.status} </span>}
                  <span className="cal-event-name">{ev.name}</span>
                </span>
              ))}
              {evs.length > 2 && (
                <span className="cal-more" aria-hidden="true">
                  +{evs.length - 2}
                </span>
              )}
            </div>
          );
        })}
      </div>
      <section className="cal-list" aria-labelledby="cal-list-heading">
        <h3 id="cal-list-heading" aria-live="polite">
          {WEEKDAYS[selParts.weekday]}, {selParts.date} {MONTHS[selParts.month]}
        </h3>
        {selEvents.length === 0 ? (
          <p className="cal-empty">{failure ? 'Events not loaded yet.' : loading ? 'Loading events…' : 'No events on this day.'}</p>
        ) : (
          <ul>
            {selEvents.map((ev) => (
              <li key={ev.url} className={ev.status === 'Cancelled' ? 'cal-cancelled' : undefined}>
                {ev.status && <span className="cal-tag">{ev.status}</span>}{ev.status && ' '}
                <a href={ev.url}>{ev.name}</a>
                <span className="cal-meta">
                  {timeLabel(ev.start)} · {ev.place}
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

mountIsland('calendar', Calendar);
