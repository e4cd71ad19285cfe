// The add-ons island of /a/{ticketId}: pick add-ons still available for an existing ticket and
// pay for them through the same providers (POST /v1/ticket/add), with the purchase form's
// response rules (SPEC.md section 4).
import { useState } from 'react';
import { mountIsland } from './lib/mount';
import { call, outcome, peso } from './lib/api';
import { AddOnPicker, PayButtons, addOnsTotal, freeAddOnIds, type AddOn, type PaymentOption } from './components/AddOns';

/** AddOnsProps are the island's props, rendered by the server. */
export type AddOnsProps = { ticketId: string; ticketCode: string; addOns: AddOn[]; payments: PaymentOption[] };

function AddOns(p: AddOnsProps) {
  const [selected, setSelected] = useState<number[]>(() => freeAddOnIds(p.addOns));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const total = addOnsTotal(p.addOns, selected);

  async function pay(paymentType: string) {
    if (!selected.length || busy) return;
    setBusy(true);
    setError('');
    const { status, data } = await call('POST', '/v1/ticket/add', { uuid: p.ticketId, ticketCode: p.ticketCode, addOns: selected, paymentType });
    const o = outcome(status, data);
    if ('go' in o) {
      window.location.assign(o.go);
      return;
    }
    setError(o.error);
    setBusy(false);
  }

  return (
    <form className="purchase-form" noValidate onSubmit={(e) => e.preventDefault()} aria-label="Buy add-ons">
      <section className="form-section" aria-labelledby="addons-heading">
        <h2 id="addons-heading">Add-ons</h2>
        <AddOnPicker addOns={p.addOns} selected={selected} onChange={(ids) => { setSelected(ids); setError(''); }} />
      </section>
      <section className="form-section summary" aria-label="Summary">
        <dl>
          <div className="total">
            <dt>Total</dt>
            <dd data-total>{peso(total)}</dd>
          </div>
        </dl>
      </section>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <PayButtons options={p.payments} free={total === 0} disabled={!selected.length || busy} reason={busy ? '' : 'Please choose an add-on'} onPay={pay} />
    </form>
  );
}

mountIsland('addons', AddOns);
