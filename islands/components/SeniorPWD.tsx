// The senior citizen and PWD discount of each ticket on the purchase form (RA 9994, RA 10754),
// drawn as views/purchase.templ's seniorPWDSection draws it: the kind, then the holder's full name
// and ID number, which the stylesheet hides while the ticket is at full price.
import { TextInput } from './TextInput';

/** SeniorPWDOffer is the discount the ticket type offers (views.SeniorPWDJSON; centavos). */
export type SeniorPWDOffer = { price: number; discount: number; note: string };

/** TicketDiscount is one entry of the purchase payload's discounts. */
export type TicketDiscount = { type: string; holderName: string; idNumber: string };

const KINDS: [string, string][] = [['', 'Full price'], ['senior', 'Senior citizen (60+)'], ['pwd', 'Person with disability']];

/** discountKey names a field of ticket i's entry, as the server's field errors do. */
export const discountKey = (i: number, f: string) => `discounts[${i}].${f}`;

/** discountEntries are the entries of the tickets given a kind, and each one's ticket index. */
export function discountEntries(val: (f: string) => string, tickets: number): { list: TicketDiscount[]; at: number[] } {
  const list: TicketDiscount[] = [];
  const at: number[] = [];
  for (let i = 0; i < tickets; i++) {
    const type = val(discountKey(i, 'type'));
    if (!type) continue;
    list.push({ type, holderName: val(discountKey(i, 'holderName')).trim(), idNumber: val(discountKey(i, 'idNumber')).trim() });
    at.push(i);
  }
  return { list, at };
}

/** discountErrors are the form's own checks of the entries: a name and an ID for a discounted ticket. */
export function discountErrors(val: (f: string) => string, tickets: number): Record<string, string> {
  const errs: Record<string, string> = {};
  for (let i = 0; i < tickets; i++) {
    if (!val(discountKey(i, 'type'))) continue;
    if (!val(discountKey(i, 'holderName')).trim()) errs[discountKey(i, 'holderName')] = 'Enter the full name on the ID.';
    if (!val(discountKey(i, 'idNumber')).trim()) errs[discountKey(i, 'idNumber')] = 'Enter the OSCA ID or PWD ID number.';
  }
  return errs;
}

/** SeniorPWDSection draws one entry per ticket. */
export function SeniorPWDSection(p: {
  offer: SeniorPWDOffer;
  tickets: number;
  val: (f: string) => string;
  set: (f: string) => (v: string) => void;
  touch: (f: string) => () => void;
  shown: (f: string) => string;
}) {
  const blocks = Array.from({ length: p.tickets }, (_, i) => i);
  return (
    <section className="form-section senior-pwd" aria-labelledby="senior-pwd-heading">
      <h2 id="senior-pwd-heading">Senior citizen or PWD discount</h2>
      <p className="field-hint">{p.offer.note}</p>
      {blocks.map((i) => (
        <fieldset key={i} className="senior-pwd-ticket">
          <legend>Ticket {i + 1}</legend>
          <div className="survey-answers">
            {KINDS.map(([value, label]) => (
              <label key={value} className="survey-answer">
                <input type="radio" name={discountKey(i, 'type')} value={value} checked={p.val(discountKey(i, 'type')) === value}
                  onChange={() => p.set(discountKey(i, 'type'))(value)} />
                {label}
              </label>
            ))}
          </div>
          {p.shown(discountKey(i, 'type')) && <p className="field-error">{p.shown(discountKey(i, 'type'))}</p>}
          <div className="senior-pwd-holder">
            <TextInput id={discountKey(i, 'holderName')} name={discountKey(i, 'holderName')} label="Full name on the ID" maxLength={100}
              value={p.val(discountKey(i, 'holderName'))} onChange={p.set(discountKey(i, 'holderName'))} onBlur={p.touch(discountKey(i, 'holderName'))}
              error={p.shown(discountKey(i, 'holderName'))} />
            <TextInput id={discountKey(i, 'idNumber')} name={discountKey(i, 'idNumber')} label="OSCA ID or PWD ID number" maxLength={40} autoComplete="off"
              value={p.val(discountKey(i, 'idNumber'))} onChange={p.set(discountKey(i, 'idNumber'))} onBlur={p.touch(discountKey(i, 'idNumber'))}
              error={p.shown(discountKey(i, 'idNumber'))} />
          </div>
        </fieldset>
      ))}
    </section>
  );
}
