// Add-on picker (categories sorted alphabetically, each collapsible) and the payment buttons,
// shared by the purchase form and the add-ons page of an existing ticket.
import { useState } from 'react';
import { Checkbox } from './Checkbox';
import { peso } from './api';

/** AddOn is an extra sold with a ticket; price in centavos. */
export type AddOn = { id: number; name: string; price: number; category: string; notes?: string; imageUrl?: string };

/** PaymentOption is a payment type with its button label, such as 'Pay by QR PH'. */
export type PaymentOption = { type: string; label: string };

/** freeAddOnIds lists the free add-ons, which start selected. */
export const freeAddOnIds = (addOns: AddOn[]): number[] => addOns.filter((a) => a.price === 0).map((a) => a.id);

/** addOnsTotal sums the prices of the selected add-ons. */
export const addOnsTotal = (addOns: AddOn[], selected: number[]): number =>
  addOns.reduce((sum, a) => (selected.includes(a.id) ? sum + a.price : sum), 0);

/** AddOnPicker lists add-ons grouped by category, categories in alphabetical order. */
export function AddOnPicker(p: { addOns: AddOn[]; selected: number[]; onChange: (ids: number[]) => void }) {
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
              {groups.get(name)!.map((a) => (
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
export function PayButtons(p: { options: PaymentOption[]; free: boolean; disabled: boolean; onPay: (type: string) => void }) {
  if (p.free || p.options.length < 2) {
    return (
      <div className="pay-buttons">
        <button type="submit" className="button block" disabled={p.disabled} onClick={(e) => { e.preventDefault(); p.onPay(p.options[0]?.type || ''); }}>
          Submit
        </button>
      </div>
    );
  }
  return (
    <div className="pay-buttons">
      {p.options.map((o) => (
        <button key={o.type} type="submit" className="button block" disabled={p.disabled} onClick={(e) => { e.preventDefault(); p.onPay(o.type); }}>
          {o.label}
        </button>
      ))}
    </div>
  );
}
