package handlers

import (
	"testing"

	"github.com/stretchr/testify/require"

	"palaro"
)

func TestUnmarshalRequest(t *testing.T) {
	type line struct {
		ID       int64 `json:"id"`
		Quantity int   `json:"quantity"`
	}
	type request struct {
		Age          string  `json:"age"`
		MobileNumber string  `json:"mobileNumber"`
		Email        string  `json:"email"`
		Quantity     int     `json:"quantity"`
		AddOns       []int64 `json:"addOns"`
		Lines        []line  `json:"lines"`
		Agreed       bool    `json:"agreed"`
		Price        palaro.Money
	}
	t.Run("OK numbers for digit fields, digits for whole numbers", func(t *testing.T) {
		var r request
		require.NoError(t, unmarshalRequest([]byte(`{"age": 27, "mobileNumber": 639171234567, "quantity": " 2 ",
			"email": "a@b.ph", "addOns": [1, 2], "Price": 100}`), &r, false))
		require.Equal(t, request{Age: "27", MobileNumber: "639171234567", Quantity: 2, Email: "a@b.ph", AddOns: []int64{1, 2},
			Price: 100}, r)
	})
	t.Run("OK as before", func(t *testing.T) {
		var r request
		require.NoError(t, unmarshalRequest([]byte(`{"age": "27", "quantity": 3, "unknown": 1}`), &r, false))
		require.Equal(t, request{Age: "27", Quantity: 3}, r)
	})
	cases := []struct {
		name, body, msg string
		strict          bool
	}{
		{"ErrAgeObject", `{"age": {"years": 27}}`, "age must be text or a number", false},
		{"ErrQuantityWord", `{"quantity": "two"}`, "quantity must be a whole number", false},
		{"ErrQuantityFraction", `{"quantity": 1.5}`, "quantity must be a whole number", false},
		{"ErrQuantityNegativeText", `{"quantity": "-1"}`, "quantity must be a whole number", false},
		{"ErrEmailNumber", `{"email": 5}`, "email must be text", false},
		{"ErrAddOnsText", `{"addOns": ["x"]}`, "addOns must be a list of whole numbers", false},
		{"ErrAddOnsNotAList", `{"addOns": 3}`, "addOns must be a list of whole numbers", false},
		{"ErrNested", `{"lines": [{"id": 1, "quantity": "many"}]}`, "lines.quantity must be a whole number", false},
		{"ErrBool", `{"agreed": "yes"}`, "agreed must be true or false", false},
		{"ErrSyntax", `{"age": 27,}`, "The request body is not valid JSON (error at character 12).", false},
		{"ErrTruncated", `{"age": 27`, "The request body is not valid JSON", false},
		{"ErrEmpty", ` `, "The request body is empty: send a JSON object.", false},
		{"ErrArray", `[{"age": 27}]`, "The request body must be a JSON object.", false},
		{"ErrString", `"age"`, "The request body must be a JSON object.", false},
		{"ErrUnknownStrict", `{"agee": 27}`, `Unknown field "agee".`, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var r request
			err := unmarshalRequest([]byte(tc.body), &r, tc.strict)
			require.Equal(t, palaro.EINVALID, palaro.ErrorCode(err))
			require.Contains(t, palaro.ErrorMessage(err), tc.msg)
		})
	}
}
