package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

// TestSaveWidgetOrigins: the sites saved for an event's widget come back on the public event and
// the console's event, a bad site is refused with its field, and saving none clears them. On
// either engine.
func TestSaveWidgetOrigins(t *testing.T) {
	ctx := context.Background()
	f := newPurchaseFixture(t)
	org := NewOrganizerService(f.db, mailComposer())
	code := f.addTicketType(t, "widget", 0, 50, 4)
	var eventID int64
	var eventCode string
	require.NoError(t, f.db.read.QueryRow(`SELECT e.id, e.code FROM ticket_types t JOIN events e ON e.id = t.event_id WHERE t.code = ?`, code).Scan(&eventID, &eventCode))

	require.NoError(t, org.SaveWidgetOrigins(ctx, eventID, "owner@palaro.test", []string{"https://mysite.ph", "https://Shop.Example.com:8443/"}, f.now))
	ev, err := NewEventService(f.db).FindEventByCode(ctx, eventCode)
	require.NoError(t, err)
	require.Equal(t, []string{"https://mysite.ph", "https://shop.example.com:8443"}, ev.WidgetOrigins)
	ev, err = org.FindEvent(ctx, eventCode)
	require.NoError(t, err)
	require.Equal(t, []string{"https://mysite.ph", "https://shop.example.com:8443"}, ev.WidgetOrigins)

	err = org.SaveWidgetOrigins(ctx, eventID, "owner@palaro.test", []string{"https://mysite.ph/tickets"}, f.now)
	require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
	var pe *palaro.Error
	require.ErrorAs(t, err, &pe)
	require.Contains(t, pe.Fields[palaro.FieldWidgetOrigins], "no path")

	require.NoError(t, org.SaveWidgetOrigins(ctx, eventID, "owner@palaro.test", nil, f.now))
	ev, err = NewEventService(f.db).FindEventByCode(ctx, eventCode)
	require.NoError(t, err)
	require.Empty(t, ev.WidgetOrigins)
	require.Equal(t, palaro.ENOTFOUND, palaro.ErrorCode(org.SaveWidgetOrigins(ctx, 999999, "owner@palaro.test", nil, f.now)))
}
