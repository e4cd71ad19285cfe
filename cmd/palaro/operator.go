package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"palaro"
	"palaro/notify"
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
		text := m.Text
		if palaro.IsJob(m.Kind) {
			text = "(work for the outbox worker, not a message: " + jobDescription(m.Kind) + ")"
		}
		for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
			fmt.Fprintln(w, "    "+termSafe(line))
		}
		fmt.Fprintln(w)
	}
	return nil
}

// jobDescription says what an outbox job does.
func jobDescription(kind string) string {
	if kind == palaro.JobTicketsLink {
		return "it e-mails the address a link to its tickets, if it has any"
	}
	return "job " + kind
}

// printOutboxRaw writes each e-mail of the outbox as the MIME message the SMTP sender sends (an
// SMS and a job, which are no e-mail, as a header line and their text), separated by a line
// naming the message.
func printOutboxRaw(ctx context.Context, w io.Writer, outbox palaro.Outbox, f palaro.OutboxFilter, smtp notify.SMTPConfig) error {
	msgs, err := outbox.ListOutbox(ctx, f)
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		fmt.Fprintln(w, "The outbox is empty.")
		return nil
	}
	for _, m := range msgs {
		fmt.Fprintf(w, "==== #%d  %s  %s  %s\n", m.ID, termSafe(strings.ToUpper(m.Status)), termSafe(m.Channel), termSafe(m.Kind))
		if m.Channel == palaro.ChannelSMS || palaro.IsJob(m.Kind) {
			fmt.Fprintf(w, "To: %s\n\n", termSafe(m.To))
			writeLines(w, cmp.Or(m.Text, jobDescription(m.Kind)))
			fmt.Fprintln(w)
			continue
		}
		msg, err := notify.MIME(m.Message, smtp)
		if err != nil {
			return fmt.Errorf("outbox message %d: %w", m.ID, err)
		}
		var raw bytes.Buffer
		if _, err := msg.WriteTo(&raw); err != nil {
			return fmt.Errorf("outbox message %d: %w", m.ID, err)
		}
		writeLines(w, strings.ReplaceAll(raw.String(), "\r\n", "\n"))
		fmt.Fprintln(w)
	}
	return nil
}

// writeLines writes text line by line, each made safe for the terminal.
func writeLines(w io.Writer, text string) {
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintln(w, termSafe(line))
	}
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
