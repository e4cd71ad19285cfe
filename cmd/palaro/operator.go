package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"palaro"
)

// printOutbox writes the outbox's messages, each with its header line and its text body.
func printOutbox(ctx context.Context, w io.Writer, outbox palaro.Outbox, f palaro.OutboxFilter) error {
	msgs, err := outbox.ListOutbox(ctx, f)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		fmt.Fprintln(w, "The outbox is empty.")
		return nil
	}
	for _, m := range msgs {
		fmt.Fprintf(w, "#%d  %s  %s  %s  to=%s  attempts=%d  created=%s\n", m.ID, termSafe(strings.ToUpper(m.Status)),
			termSafe(m.Channel), termSafe(m.Kind), termSafe(m.To), m.Attempts, m.CreatedAt.Format(time.RFC3339))
		if m.Channel != palaro.ChannelSMS {
			fmt.Fprintf(w, "Subject: %s\n", termSafe(m.Subject))
		}
		if m.LastError != "" {
			fmt.Fprintf(w, "Last error: %s\n", termSafe(m.LastError))
		}
		for _, line := range strings.Split(strings.TrimRight(m.Text, "\n"), "\n") {
			fmt.Fprintln(w, "    "+termSafe(line))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// printOrders writes a table of orders; orders to refund are flagged.
func printOrders(ctx context.Context, w io.Writer, purchases palaro.PurchaseService, f palaro.OrderFilter) error {
	orders, err := purchases.ListOrders(ctx, f)
	if err != nil {
		return err
	}
	if len(orders) == 0 {
		fmt.Fprintln(w, "No orders.")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ORDER\tSTATUS\tCREATED\tEMAIL\tEVENT\tITEM\tTOTAL\tPROVIDER\tNOTE")
	for _, o := range orders {
		item := fmt.Sprintf("%d × %s", o.Quantity, termSafe(o.TicketType.Name))
		if o.Kind == palaro.OrderKindAddOns {
			item = fmt.Sprintf("%d add-on(s)", len(o.AddOns))
		}
		note := ""
		if o.Status == palaro.OrderRefund {
			note = "REFUND: paid after its tickets were gone"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", termSafe(o.PublicID), termSafe(o.Status),
			o.CreatedAt.Format(time.RFC3339), termSafe(o.Email), termSafe(o.Event.Code), item, o.Total.Display(),
			termSafe(strings.TrimSpace(o.Provider+" "+o.ProviderRef)), note)
	}
	return tw.Flush()
}

// printPayments writes a table of the payment events received; refused ones say why.
func printPayments(ctx context.Context, w io.Writer, purchases palaro.PurchaseService, f palaro.PaymentEventFilter) error {
	events, err := purchases.ListPaymentEvents(ctx, f)
	if err != nil {
		return err
	}
	if len(events) == 0 {
		fmt.Fprintln(w, "No payment events.")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RECEIVED\tPROVIDER\tEVENT\tSTATUS\tORDER\tREFUSED")
	for _, e := range events {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.ReceivedAt.Format(time.RFC3339), termSafe(e.Provider),
			termSafe(e.EventID), termSafe(e.Status), termSafe(cmp.Or(e.OrderPublicID, "-")), termSafe(e.Refused))
	}
	return tw.Flush()
}
