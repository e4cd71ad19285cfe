package palaro

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPHMobilePattern_AgreesWithNormalizeMobileNumber(t *testing.T) {
	pattern, strip := regexp.MustCompile(PHMobilePattern), regexp.MustCompile(MobileSeparators)
	for _, in := range []string{
		"09171234567", "0917-123-4567", "0917 123 4567", "(0917) 123 4567", "9171234567", "639171234567",
		"+639171234567", "+63 917 123 4567", "+14155550123", "+6512345678",
		"123", "0917123456", "091712345678", "08171234567", "+6312345678", "+63917123456", "+0917123456",
		"+1234567", "6391712345", "abc",
	} {
		_, ok := NormalizeMobileNumber(in)
		require.Equal(t, ok, pattern.MatchString(strip.ReplaceAllString(in, "")), in)
	}
	rule := PurchaseRules(TicketType{}, &Event{RequiredFields: []string{FieldMobileNumber}}, 0)[2]
	require.Equal(t, "Invalid Mobile Number", rule.Check("123", false))
	require.Equal(t, "", rule.Check("0917 123 4567", false))
}

func TestDistributeAddOns(t *testing.T) {
	parking, lanyard := AddOn{ID: 1, Name: "Parking", Quantity: 1}, AddOn{ID: 2, Name: "Lanyard", Quantity: 3}
	got := DistributeAddOns(3, []AddOn{parking, lanyard})
	names := func(as []AddOn) (n []string) {
		for _, a := range as {
			n = append(n, a.Name)
		}
		return n
	}
	require.Equal(t, []string{"Parking", "Lanyard"}, names(got[0]))
	require.Equal(t, []string{"Lanyard"}, names(got[1]))
	require.Equal(t, []string{"Lanyard"}, names(got[2]))
}

func TestPurchaseRequest_AddOnCounts(t *testing.T) {
	r := PurchaseRequest{AddOns: []int64{4, 7, 4}, AddOnQuantities: []AddOnQuantity{{ID: 7, Quantity: 0}, {ID: 9, Quantity: 2}}}
	require.Equal(t, []AddOnQuantity{{ID: 4, Quantity: 1}, {ID: 9, Quantity: 2}}, r.AddOnCounts())
	require.Error(t, CheckAddOnQuantity(AddOn{Name: "Lanyard"}, 3, 2))
	require.NoError(t, CheckAddOnQuantity(AddOn{Name: "Lanyard"}, 2, 2))
}
