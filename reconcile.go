package palaro

import (
	"context"
	"errors"
	"time"
)

// ReconcileMinAge is how old a pending order must be before its provider is asked about it, so
// that the ordinary webhook has had its chance.
const ReconcileMinAge = 2 * time.Minute

// ReconcilePayments asks the provider about every order still waiting for payment (or expired
// recently) and applies the answer, so a lost webhook does not lose a sale. It returns how many
// orders it checked, and the errors of the ones it could not.
func ReconcilePayments(ctx context.Context, purchases PurchaseService, provider PaymentProvider, now time.Time) (int, error) {
	orders, err := purchases.PendingOrdersForReconciliation(ctx, now, ReconcileMinAge)
	if err != nil {
		return 0, err
	}
	var errs []error
	checked := 0
	for _, o := range orders {
		if o.Provider != provider.Name() {
			continue
		}
		ev, err := provider.SessionStatus(ctx, o.ProviderRef)
		if err == nil && ev.Status != PaymentPending {
			_, err = purchases.ConfirmPayment(ctx, provider.Name(), provider.Live(), ev)
		}
		if err != nil {
			errs = append(errs, err)
		}
		checked++
	}
	return checked, errors.Join(errs...)
}
