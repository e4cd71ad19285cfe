// The scratch-card island (SPEC.md sections 2, 4 and 9): a popup with a 3×3 grid of canvas covers
// scratched with a finger or the mouse. The server decided and stored the card before this page
// was sent; the island only uncovers it. A cell is revealed when the scratched share of its cover
// passes liftPct at lift or strokePct during the stroke. Three winning cells revealed end a win;
// nine revealed without three winning end a loss. At the end the remaining covers clear, the
// result shows, and the page reloads after reloadMs; the close icon (shown only then) reloads at once.
// "Reveal all" plays the card without scratching, for keyboards and screen readers.
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { mountIsland } from './lib/mount';
import { csrfToken } from './lib/api';

/** ScratchCell mirrors palaro.ScratchCell. */
interface ScratchCell {
  winning: boolean;
  src: string;
  code?: string;
}

/** ScratchPrize mirrors palaro.ScratchPrize. */
interface ScratchPrize {
  code: string;
  name: string;
  imageUrl: string;
}

/** ScratchProps mirrors views.ScratchProps. */
interface ScratchProps {
  card: {
    redirectUrl: string;
    prizes: ScratchPrize[];
    prizeWon?: { code: string; name: string; claimable: boolean };
    cells: ScratchCell[];
  };
  title: string;
  wonTitle: string;
  lostTitle: string;
  redirecting: string;
  noClaim: string;
  strokePct: number;
  liftPct: number;
  brushPx: number;
  reloadMs: number;
  winCells: number;
  revealUrl: string;
}

/** markRevealed tells the server the game ended, so the stored card is not opened again. */
async function markRevealed(url: string) {
  if (!url) return;
  try {
    await fetch(url, { method: 'POST', credentials: 'same-origin', headers: { 'X-CSRF-Token': await csrfToken() } });
  } catch {
    // Offline: the card stays offered on /activities and plays the same stored outcome.
  }
}

/** scratchedShare returns the share (0–100) of the canvas whose cover has been scratched away. */
function scratchedShare(canvas: HTMLCanvasElement): number {
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx || canvas.width === 0) return 0;
  const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
  let clear = 0;
  let total = 0;
  for (let i = 3; i < data.length; i += 16) {
    total++;
    if (data[i] === 0) clear++;
  }
  return total ? (clear * 100) / total : 0;
}

/** paintCover draws the silver cover of a cell. */
function paintCover(canvas: HTMLCanvasElement) {
  const ratio = window.devicePixelRatio || 1;
  const rect = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.round(rect.width * ratio));
  canvas.height = Math.max(1, Math.round(rect.height * ratio));
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) return;
  const g = ctx.createLinearGradient(0, 0, canvas.width, canvas.height);
  g.addColorStop(0, '#c9c6d8');
  g.addColorStop(0.5, '#f1effa');
  g.addColorStop(1, '#a9a5bf');
  ctx.fillStyle = g;
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#5b5678';
  ctx.font = `700 ${Math.round(canvas.width / 7)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillText('SCRATCH', canvas.width / 2, canvas.height / 2);
}

function ScratchCard(props: ScratchProps) {
  const { card } = props;
  const [revealed, setRevealed] = useState<boolean[]>(() => card.cells.map(() => false));
  const [ended, setEnded] = useState(false);
  const canvases = useRef<(HTMLCanvasElement | null)[]>([]);
  const drawing = useRef<number | null>(null);
  const last = useRef<{ x: number; y: number } | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const dialogRef = useRef<HTMLDivElement>(null);
  const marked = useRef<Promise<void>>(Promise.resolve());
  // reloadNow reloads once the end of the game is recorded (or failed to be).
  const reloadNow = () => void marked.current.finally(() => window.location.reload());

  useEffect(() => {
    canvases.current.forEach((c) => c && paintCover(c));
    dialogRef.current?.focus();
  }, []);

  const reveal = useCallback((i: number) => {
    setRevealed((r) => (r[i] ? r : r.map((v, k) => v || k === i)));
  }, []);

  // The end: three winning cells revealed, or all nine.
  useEffect(() => {
    if (ended) return;
    const wins = card.cells.filter((c, i) => c.winning && revealed[i]).length;
    const all = revealed.every(Boolean);
    if (wins >= props.winCells || all) {
      setEnded(true);
      setRevealed(card.cells.map(() => true));
    }
  }, [revealed, ended, card.cells, props.winCells]);

  useEffect(() => {
    if (!ended) return;
    closeRef.current?.focus();
    marked.current = markRevealed(props.revealUrl);
    const t = window.setTimeout(reloadNow, props.reloadMs);
    return () => window.clearTimeout(t);
  }, [ended, props.reloadMs, props.revealUrl]);

  const scratchAt = (i: number, e: PointerEvent<HTMLCanvasElement>) => {
    const canvas = canvases.current[i];
    const ctx = canvas?.getContext('2d', { willReadFrequently: true });
    if (!canvas || !ctx) return;
    const rect = canvas.getBoundingClientRect();
    const sx = canvas.width / rect.width;
    const x = (e.clientX - rect.left) * sx;
    const y = (e.clientY - rect.top) * sx;
    ctx.globalCompositeOperation = 'destination-out';
    ctx.lineWidth = props.brushPx * sx;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.beginPath();
    const from = last.current ?? { x, y };
    ctx.moveTo(from.x, from.y);
    ctx.lineTo(x + 0.01, y);
    ctx.stroke();
    last.current = { x, y };
  };

  const onDown = (i: number) => (e: PointerEvent<HTMLCanvasElement>) => {
    if (ended || revealed[i]) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drawing.current = i;
    last.current = null;
    scratchAt(i, e);
  };
  const onMove = (i: number) => (e: PointerEvent<HTMLCanvasElement>) => {
    if (drawing.current !== i || revealed[i]) return;
    scratchAt(i, e);
    const c = canvases.current[i];
    if (c && scratchedShare(c) > props.strokePct) {
      drawing.current = null;
      reveal(i);
    }
  };
  const onUp = (i: number) => () => {
    if (drawing.current !== i) return;
    drawing.current = null;
    last.current = null;
    const c = canvases.current[i];
    if (c && scratchedShare(c) > props.liftPct) reveal(i);
  };

  const won = card.prizeWon;
  // Only a claimable prize is a win: YOU WON and a highlighted line; any other match says
  // THANKS FOR PLAYING! and that there is nothing to claim, as the activity log does.
  const claimable = !!won?.claimable;
  const title = !ended ? props.title : claimable ? props.wonTitle : props.lostTitle;
  const prizeOf = (cell: ScratchCell) =>
    card.prizes.find((p) => (cell.code ? p.code === cell.code : cell.src !== '' && p.imageUrl === cell.src));
  const nameOf = (cell: ScratchCell) => prizeOf(cell)?.name ?? 'No prize';

  return (
    <div className="scratch-overlay">
      <div
        className="scratch-popup"
        role="dialog"
        aria-modal="true"
        aria-labelledby="scratch-title"
        tabIndex={-1}
        ref={dialogRef}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && ended) reloadNow();
          if (e.key === 'Tab') {
            // Focus stays in the dialog: its one control.
            e.preventDefault();
            (ended ? closeRef.current : dialogRef.current?.querySelector<HTMLButtonElement>('.scratch-reveal'))?.focus();
          }
        }}
      >
        {ended && (
          <button ref={closeRef} type="button" className="scratch-close" aria-label="Close" onClick={reloadNow}>
            ×
          </button>
        )}
        <h2 id="scratch-title" aria-live="polite">
          {title}
        </h2>
        {ended && won && <p className="scratch-prize-name">{won.name}</p>}
        {ended && won && !claimable && <p className="scratch-no-claim">{props.noClaim}</p>}
        <div className="scratch-grid" role="group" aria-label="Scratch card">
          {card.cells.map((cell, i) => (
            <div
              key={i}
              className={`scratch-cell${revealed[i] ? ' revealed' : ''}${ended && cell.winning && claimable ? ' win-cell' : ''}`}
              data-cell={i}
            >
              {cell.src ? (
                <img src={cell.src} alt={revealed[i] ? nameOf(cell) : 'Covered cell'} width={120} height={120} draggable={false} />
              ) : (
                // A prize without a picture: its name on a tile, never a broken image.
                <span className="scratch-tile" role="img" aria-label={revealed[i] ? nameOf(cell) : 'Covered cell'}>
                  {revealed[i] ? nameOf(cell) : ''}
                </span>
              )}
              <canvas
                ref={(el) => {
                  canvases.current[i] = el;
                }}
                aria-hidden="true"
                onPointerDown={onDown(i)}
                onPointerMove={onMove(i)}
                onPointerUp={onUp(i)}
                onPointerCancel={onUp(i)}
              />
            </div>
          ))}
        </div>
        {!ended ? (
          <div className="scratch-actions">
            <button type="button" className="button secondary scratch-reveal" onClick={() => setRevealed(card.cells.map(() => true))}>
              Reveal all
            </button>
          </div>
        ) : (
          <p className="scratch-note" role="status">
            {props.redirecting}
          </p>
        )}
      </div>
    </div>
  );
}

mountIsland('scratch', ScratchCard);
