// Checkbox in its three looks (SPEC.md "Form pieces"): a seat tile, an add-on with image and
// label, and the default box with a label. The <label> wraps the input, so it names it.
import type { ReactNode } from 'react';

/** CheckboxProps are the checkbox's props of SPEC.md "Form pieces". */
export type CheckboxProps = {
  name: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  source?: 'seat' | 'addons' | 'other';
  value?: string;
  imageUrl?: string;
  disabled?: boolean;
  /** status styles a seat tile (lowercased), such as 'available', 'taken'. */
  status?: string;
  /** popupImage opens the image in the image popup instead of ticking the box. */
  popupImage?: boolean;
  children?: ReactNode;
};

/** Checkbox renders one checkbox in the look its source asks for. */
export function Checkbox(p: CheckboxProps) {
  const source = p.source || 'other';
  if (source === 'seat' && p.label === '-') return <span className="check seat gap" aria-hidden="true" />;
  const look = source === 'seat' ? `seat ${(p.status || '').toLowerCase()}` : source === 'addons' ? 'addon' : 'default';
  return (
    <label className={`check ${look}${p.checked ? ' checked' : ''}${p.disabled ? ' disabled' : ''}`}>
      <input
        type="checkbox"
        name={p.name}
        value={p.value}
        checked={p.checked}
        disabled={p.disabled}
        onChange={(e) => p.onChange(e.target.checked)}
      />
      {source !== 'seat' && <span className="box" aria-hidden="true" />}
      {source === 'addons' && p.imageUrl && (
        <img
          src={p.imageUrl}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          data-popup-image={p.popupImage ? '' : undefined}
          onClick={p.popupImage ? (e) => e.preventDefault() : undefined}
        />
      )}
      <span className="check-label">{p.label}</span>
      {p.children}
    </label>
  );
}
