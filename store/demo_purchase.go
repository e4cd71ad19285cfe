package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"palaro"
)

// demoPromoCodes are the promo codes of the demo data: valid for a year from the seeding.
var demoPromoCodes = []palaro.PromoCode{
	{Code: "PALARO10", Kind: palaro.PromoPercent, Percent: 10},
	{Code: "ESPORTS50", Kind: palaro.PromoFixed, Amount: 5000, UsageLimit: 500},
	{Code: "FIRST5", Kind: palaro.PromoPercent, Percent: 50, UsageLimit: 5},
}

// seedDemoPromoCodes adds the demo promo codes inside the demo seed's transaction.
func seedDemoPromoCodes(ctx context.Context, tx *sql.Tx, now time.Time) error {
	for _, p := range demoPromoCodes {
		p.ValidFrom, p.ValidUntil = now.AddDate(0, 0, -1), now.AddDate(1, 0, 0)
		if err := insertPromo(ctx, tx, &p); err != nil {
			return fmt.Errorf("seed promo code %s: %w", p.Code, err)
		}
	}
	return nil
}
