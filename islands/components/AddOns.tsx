// Add-on picker (categories sorted alphabetically, each collapsible) and the payment buttons,
// shared by the purchase form and the add-ons page of an existing ticket.
import { useState } from 'react';
import { Checkbox } from './Checkbox';
import { peso } from '../lib/api';

/** AddOn is an extra sold with a ticket; price in centavos. */
export type AddOn = { id: number; name: string; price: number; category: string; notes?: string; imageUrl?: string };

/** PaymentOption is a payment type with its button label, such as 'Pay by QR PH'. */
export type PaymentOption = { type: string; label: string; wallet?: boolean };

/** freeAddOnIds lists the free add-ons, which start selected. */
export const freeAddOnIds = (addOns: AddOn[]): number[] => addOns.filter((a) => a.price === 0).map((a) => a.id);

/** addOnsTotal sums the prices of the selected add-ons. */
export const addOnsTotal = (addOns: AddOn[], selected: number[]): number =>
  addOns.reduce((sum, a) => (selected.includes(a.id) ? sum + a.price : sum), 0);

/** AddOnCounts tells a picker to show a quantity stepper per add-on instead of a checkbox. */
export type AddOnCounts = { count: (a: AddOn) => number; max: number; onCount: (id: number, n: number) => void };

/** AddOnStepper is one add-on card with a quantity stepper from 0 to max (one per ticket). */
function AddOnStepper({ a, c }: { a: AddOn; c: AddOnCounts }) {
  const n = c.count(a);
  const nameId = `addon-${a.id}-name`;
  return (
    <div className={`check addon addon-qty${n > 0 ? ' checked' : ''}`}>
      {a.imageUrl && <img src={a.imageUrl} alt="" width={56} height={56} loading="lazy" data-popup-image="" />}
      <span className="check-label" id={nameId}>{a.name}</span>
      <span className="addon-meta">
        <span className="addon-price">{peso(a.price)}</span>
        {a.notes && <span className="addon-notes">{a.notes}</span>}
      </span>
      <div className="stepper" role="group" aria-labelledby={nameId}>
        <button type="button" aria-label={`One less ${a.name}`} disabled={n <= 0} onClick={() => c.onCount(a.id, n - 1)}>−</button>
        <output aria-live="polite" aria-label={`${a.name} quantity`} data-addon-count={a.id}>{n}</output>
        <button type="button" aria-label={`One more ${a.name}`} disabled={n >= c.max} onClick={() => c.onCount(a.id, n + 1)}>+</button>
      </div>
    </div>
  );
}

/**
 * AddOnPicker lists add-ons grouped by category, categories in alphabetical order: checkboxes, or
 * quantity steppers when counts is given (the purchase form: at most one of each per ticket).
 */
export function AddOnPicker(p: { addOns: AddOn[]; selected: number[]; onChange: (ids: number[]) => void; counts?: AddOnCounts }) {
  const [closed, setClosed] = useState<Record<string, boolean>>({});
  const groups = new Map<string, AddOn[]>();
  for (const a of p.addOns) groups.set(a.category || 'Other', [...(groups.get(a.category || 'Other') || []), a]);
  const names = [...groups.keys()].sort((a, b) => a.localeCompare(b));
  const toggle = (id: number, on: boolean) => p.onChange(on ? [...p.selected, id] : p.selected.filter((x) => x !== id));
  return (
    <div className="addons">
      {names.map((name) => {
        const open = !closed[name];
        const listId = `addons-${name.toLowerCase().replace(/\W+/g, '-')}`;
        return (
          <section className="addon-group" key={name}>
            <h3>
              <button type="button" className="addon-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setClosed({ ...closed, [name]: open })}>
                {name}
                <span className="chevron" aria-hidden="true" />
              </button>
            </h3>
            <div id={listId} hidden={!open}>
              {groups.get(name)!.map((a) => p.counts ? <AddOnStepper key={a.id} a={a} c={p.counts} /> : (
                <Checkbox key={a.id} source="addons" name="addOns" value={String(a.id)} label={a.name} imageUrl={a.imageUrl} popupImage
                  checked={p.selected.includes(a.id)} onChange={(on) => toggle(a.id, on)}>
                  <span className="addon-meta">
                    <span className="addon-price">{peso(a.price)}</span>
                    {a.notes && <span className="addon-notes">{a.notes}</span>}
                  </span>
                </Checkbox>
              ))}
            </div>
          </section>
        );
      })}
    </div>
  );
}

/**
 * PayButtons renders one button per payment type, each submitting with its type, or a single
 * 'Submit' when there is one type or nothing to pay.
 */
export function PayButtons(p: { options: PaymentOption[]; free: boolean; disabled: boolean; reason?: string; onPay: (type: string) => void }) {
  const buttons = p.free || p.options.length < 2 ? [{ type: p.options[0]?.type || '', label: 'Submit' }] : p.options;
  const why = p.disabled && p.reason ? p.reason : '';
  return (
    <div className="pay-buttons">
      {why && <p className="pay-reason" id="pay-reason">{why}</p>}
      {buttons.map((o) => (
        <button key={o.type || 'submit'} type="submit" className={'wallet' in o && o.wallet ? 'button block pay-wallet' : 'button block'} disabled={p.disabled} aria-describedby={why ? 'pay-reason' : undefined}
          onClick={(e) => { e.preventDefault(); p.onPay(o.type); }}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
