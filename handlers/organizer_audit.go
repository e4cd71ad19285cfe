package handlers

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode"

	"palaro"
	"palaro/views"
)

// auditActions are the readable names of the audit log's dotted action codes.
var auditActions = map[string]string{
	"check_in.undo":   "check-in undone",
	"box_office.sale": "sold at the box office",
	"activity.save":   "activity saved",
	"prize.image":     "prize picture changed",
}

// auditLabels name the fields of audit details whose words alone read badly.
var auditLabels = map[string]string{
	"maxPurchasable": "Per-buyer maximum", "showPromoField": "Promo code field shown", "withSurvey": "Survey asked",
	"requiredFields": "Required fields", "paymentTypes": "Payment types", "ticketsCancelled": "Tickets cancelled",
	"imageUrl": "Picture", "usageLimit": "Usage limit", "ticketTypes": "Ticket types", "surveyQuestion": "Survey question",
	"surveyAnswers": "Survey answers", "startsAt": "Starts", "endsAt": "Ends", "salesStart": "Sales start", "salesEnd": "Sales end",
	"validFrom": "Valid from", "validUntil": "Valid until", "from": "From", "to": "To", "type": "Ticket type",
}

// auditPayments name the box office's payment methods.
var auditPayments = map[string]string{palaro.PaymentCash: "cash", palaro.PaymentCardTerminal: "card terminal"}

// auditMoneyFields are the audit fields that hold centavos.
var auditMoneyFields = map[string]bool{"price": true, "amount": true, "total": true}

// auditRow makes an audit log entry readable: the action in words, and each field of its detail
// on a line of its own (a change as 'Field: before → after'), times in Manila, no zero times.
func auditRow(a palaro.AuditEntry) views.OrgAuditRow {
	row := views.OrgAuditRow{When: manilaTime(a.CreatedAt), Actor: a.Actor, Action: a.Action}
	if name, ok := auditActions[a.Action]; ok {
		row.Action = name
	}
	detail := strings.TrimSpace(a.Detail)
	var fields map[string]any
	if detail == "" || detail == "{}" || detail == "null" {
		return row
	}
	if !strings.HasPrefix(detail, "{") || json.Unmarshal([]byte(detail), &fields) != nil {
		row.Detail = detail
		return row
	}
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v := fields[k]
		if ch, ok := v.(map[string]any); ok && len(ch) == 2 && hasKeys(ch, "from", "to") {
			row.Changes = append(row.Changes, auditLabel(k)+": "+auditValue(k, ch["from"])+" → "+auditValue(k, ch["to"]))
			continue
		}
		if auditEmpty(v) {
			continue // a new thing's empty fields say nothing
		}
		row.Changes = append(row.Changes, auditLabel(k)+": "+auditValue(k, v))
	}
	return row
}

func hasKeys(m map[string]any, keys ...string) bool {
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// auditLabel turns a field name such as "startsAt" or "EventID" into words.
func auditLabel(key string) string {
	if l, ok := auditLabels[key]; ok {
		return l
	}
	var b strings.Builder
	for i, r := range key {
		if i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rune(key[i-1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	s := b.String()
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// auditEmpty reports whether a detail value says nothing: empty, zero time, false, an empty list.
func auditEmpty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == "" || auditZeroTime(x)
	case bool:
		return !x
	case []any:
		return len(x) == 0
	case map[string]any:
		for _, e := range x {
			if !auditEmpty(e) {
				return false
			}
		}
		return true
	}
	return false
}

// auditZeroTime reports whether s is a time's zero value as JSON writes it.
func auditZeroTime(s string) bool {
	t, err := time.Parse(time.RFC3339Nano, s)
	return err == nil && t.IsZero()
}

// auditValue formats a detail value for a person: times in Manila ('none' for a zero time),
// centavos as pesos, a discount fraction as a percentage, yes or no, lists joined.
func auditValue(key string, v any) string {
	switch x := v.(type) {
	case nil:
		return "none"
	case string:
		if x == "" {
			return "none"
		}
		if name, ok := auditPayments[x]; ok && key == "payment" {
			return name
		}
		if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
			if t.IsZero() {
				return "none"
			}
			return manilaTime(t)
		}
		return x
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case float64:
		switch {
		case auditMoneyFields[key]:
			return palaro.Money(math.Round(x)).String()
		case key == "discount":
			return fmt.Sprintf("%g%%", math.Round(x*10000)/100)
		}
		return fmt.Sprintf("%g", x)
	case []any:
		if len(x) == 0 {
			return "none"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = auditValue(key, e)
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var parts []string
		for _, k := range keys {
			if !auditEmpty(x[k]) {
				parts = append(parts, strings.ToLower(auditLabel(k))+" "+auditValue(k, x[k]))
			}
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, ", ")
	}
	return fmt.Sprint(v)
}
