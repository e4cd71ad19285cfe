package store

import (
	"context"
	"fmt"
	"regexp"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// addAddOn adds an add-on to the demo event of addTicketType and returns its id.
func (f *purchaseFixture) addAddOn(t *testing.T, name string, price palaro.Money) int64 {
	t.Helper()
	id, err := insertID(context.Background(), f.db.write, `INSERT INTO add_ons (event_id, name, price, category) SELECT id, ?, ?, 'Extras'
		FROM events WHERE code = 'tekken-tuesdays-cubao'`, name, price)
	require.NoError(t, err)
	require.NoError(t, err)
	return id
}

func addOnNames(t palaro.Ticket) []string {
	var names []string
	for _, a := range t.AddOns {
		names = append(names, a.Name)
	}
	return names
}

func TestPurchaseService_AddOnDistribution(t *testing.T) {
	ctx := context.Background()
	t.Run("OK 3 tickets, 1 parking, 3 lanyards", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "group", 20000, 10, 5)
		parking := f.addAddOn(t, "Parking", 5000)
		lanyard := f.addAddOn(t, "Lanyard", 1000)
		req := freeRequest(code, 3, "group@x.ph")
		req.AddOns = []int64{parking} // the old way: one of each
		req.AddOnQuantities = []palaro.AddOnQuantity{{ID: lanyard, Quantity: 3}}
		o, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		require.Equal(t, palaro.Money(3*20000+5000+3*1000), o.Total)
		require.NoError(t, f.purchases.AttachCheckout(ctx, o.ID, "sandbox", palaro.CheckoutSession{ID: "cs_g", URL: "https://pay.test/g"}))
		got, err := f.purchases.ConfirmPayment(ctx, "sandbox", false, paid("evt_g", "cs_g", o.Total))
		require.NoError(t, err)
		require.Len(t, got.Tickets, 3)
		require.Equal(t, []string{"Lanyard", "Parking"}, addOnNames(got.Tickets[0]))
		require.Equal(t, []string{"Lanyard"}, addOnNames(got.Tickets[1]))
		require.Equal(t, []string{"Lanyard"}, addOnNames(got.Tickets[2]))
		require.Len(t, got.AddOns, 2)
		for _, a := range got.AddOns {
			require.Equal(t, map[string]int{"Parking": 1, "Lanyard": 3}[a.Name], a.Quantity, a.Name)
		}
		mail, err := f.outbox.ListOutbox(ctx, palaro.OutboxFilter{To: "group@x.ph"})
		require.NoError(t, err)
		require.Len(t, mail, 1)
		require.Regexp(t, regexp.QuoteMeta(got.Tickets[2].Code)+"(?s:.*)Lanyard", mail[0].Text,
			"the e-mail lists the third ticket with its lanyard")
	})
	t.Run("ErrInvalid more of an add-on than tickets", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "group", 20000, 10, 5)
		lanyard := f.addAddOn(t, "Lanyard", 1000)
		req := freeRequest(code, 2, "group@x.ph")
		req.AddOnQuantities = []palaro.AddOnQuantity{{ID: lanyard, Quantity: 3}}
		_, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		req.AddOnQuantities[0].Quantity = 2 // control: one per ticket
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
	})
}

func TestPurchaseService_MaxPerBuyer(t *testing.T) {
	ctx := context.Background()
	t.Run("ErrInvalid second free order by the same e-mail", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "one-free", 0, 10, 1)
		_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, "one@x.ph"), f.now)
		require.NoError(t, err)
		_, err = f.purchases.CreateOrder(ctx, freeRequest(code, 1, " ONE@x.ph"), f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, "Maximum ticket limit per user is 1.", palaro.ErrorMessage(err))
		_, err = f.purchases.CreateOrder(ctx, freeRequest(code, 1, "two@x.ph"), f.now) // control
		require.NoError(t, err)
	})
	t.Run("ErrInvalid the same account with another e-mail", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "one-per-account", 0, 10, 1)
		var ids []int64
		for i := range 2 {
			id, err := insertID(context.Background(), f.db.write, `INSERT INTO users (email, mobile_number) VALUES (?, ?)`,
				fmt.Sprintf("acc%d@x.ph", i), fmt.Sprintf("+63917000000%d", i))
			require.NoError(t, err)
			require.NoError(t, err)
			ids = append(ids, id)
		}
		req := freeRequest(code, 1, "first@x.ph")
		req.UserID = ids[0]
		_, err := f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
		req.Email = "second@x.ph"
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.Equal(t, "Maximum ticket limit per user is 1.", palaro.ErrorMessage(err))
		req.UserID = ids[1] // control: another account with that e-mail
		_, err = f.purchases.CreateOrder(ctx, req, f.now)
		require.NoError(t, err)
	})
	t.Run("ErrInvalid unpaid orders count too", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "paid-two", 20000, 10, 2)
		first := freeRequest(code, 1, "p@x.ph")
		first.SessionKey = "browser-a"
		_, err := f.purchases.CreateOrder(ctx, first, f.now)
		require.NoError(t, err)
		other := freeRequest(code, 2, "p@x.ph")
		other.SessionKey = "browser-b"
		_, err = f.purchases.CreateOrder(ctx, other, f.now)
		require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err), "the e-mail's unpaid order from another browser")
		require.Contains(t, palaro.ErrorMessage(err), "An unpaid order for this e-mail address is waiting")
		other.Quantity = 1 // control: within the maximum with the unpaid one
		_, err = f.purchases.CreateOrder(ctx, other, f.now)
		require.NoError(t, err)
	})
	t.Run("OK concurrent orders by one e-mail: exactly one passes", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "race", 0, 100, 1)
		race := func(email func(i int) string) (ok int) {
			var wg sync.WaitGroup
			var mu sync.Mutex
			for i := range 12 {
				wg.Go(func() {
					_, err := f.purchases.CreateOrder(ctx, freeRequest(code, 1, email(i)), f.now)
					if err == nil {
						mu.Lock()
						ok++
						mu.Unlock()
					} else {
						require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err), "%v", err)
					}
				})
			}
			wg.Wait()
			return ok
		}
		require.Equal(t, 1, race(func(int) string { return "same@x.ph" }))
		// control: the same storm with twelve addresses passes twelve times
		require.Equal(t, 12, race(func(i int) string { return fmt.Sprintf("b%d@x.ph", i) }))
	})
}

func TestPurchaseService_UnpaidHolds(t *testing.T) {
	ctx := context.Background()
	t.Run("ErrConflict one browser cannot hold more than the maximum with many e-mails", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "hold", 20000, 5, 1)
		req := func(email, session string) palaro.PurchaseRequest {
			r := freeRequest(code, 1, email)
			r.SessionKey = session
			return r
		}
		first, err := f.purchases.CreateOrder(ctx, req("a@x.ph", "browser"), f.now)
		require.NoError(t, err)
		for _, email := range []string{"b@x.ph", "c@x.ph", "d@x.ph", "e@x.ph"} {
			_, err = f.purchases.CreateOrder(ctx, req(email, "browser"), f.now)
			require.Equal(t, palaro.ECONFLICT, palaro.ErrorCode(err))
			require.Equal(t, "You have an unpaid order waiting: "+palaro.OrderPath(first.PublicID), palaro.ErrorMessage(err))
		}
		_, held, _ := f.counts(t, code)
		require.Equal(t, 1, held)
		// control: other browsers behind the same address are other buyers
		for i, email := range []string{"b@x.ph", "c@x.ph", "d@x.ph"} {
			_, err = f.purchases.CreateOrder(ctx, req(email, fmt.Sprintf("browser-%d", i)), f.now)
			require.NoError(t, err)
		}
		_, held, _ = f.counts(t, code)
		require.Equal(t, 4, held)
	})
	t.Run("OK starting again replaces the buyer's own unpaid order", func(t *testing.T) {
		f := newPurchaseFixture(t)
		code := f.addTicketType(t, "again", 20000, 5, 2)
		r := freeRequest(code, 2, "again@x.ph")
		r.SessionKey = "browser"
		first, err := f.purchases.CreateOrder(ctx, r, f.now)
		require.NoError(t, err)
		r.Quantity = 1
		second, err := f.purchases.CreateOrder(ctx, r, f.now)
		require.NoError(t, err)
		_, held, _ := f.counts(t, code)
		require.Equal(t, 1, held, "the first order's hold was released")
		got, err := f.purchases.FindOrderByPublicID(ctx, first.PublicID)
		require.NoError(t, err)
		require.Equal(t, palaro.OrderExpired, got.Status)
		require.NotEqual(t, first.PublicID, second.PublicID)
	})
}

func TestPurchaseService_ExistingUser(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	code := f.addTicketType(t, "named", 0, 10, 1)
	_, err := f.db.write.Exec(`UPDATE events SET required_fields = '["firstName","mobileNumber"]' WHERE code = 'tekken-tuesdays-cubao'`)
	require.NoError(t, err)
	t.Run("ErrInvalid existing user without history", func(t *testing.T) {
		r := freeRequest(code, 1, "new@x.ph")
		r.ExistingUser = true
		_, err := f.purchases.CreateOrder(ctx, r, f.now)
		require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
		require.Equal(t, palaro.MsgExistingUserUnknown, palaro.ErrorMessage(err))
	})
	t.Run("OK existing user's details come from an earlier order", func(t *testing.T) {
		other := f.addTicketType(t, "named-2", 0, 10, 1)
		r := freeRequest(other, 1, "known@x.ph")
		r.FirstName, r.MobileNumber = "Ana", "0917 123 4567"
		_, err := f.purchases.CreateOrder(ctx, r, f.now)
		require.NoError(t, err)
		again := freeRequest(code, 1, "known@x.ph")
		again.ExistingUser = true
		o, err := f.purchases.CreateOrder(ctx, again, f.now)
		require.NoError(t, err)
		require.Equal(t, "Ana", o.Buyer.FirstName)
		require.Equal(t, "+639171234567", o.Buyer.MobileNumber)
	})
}
