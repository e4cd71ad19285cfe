package store

import (
	"errors"
	"fmt"

	"palaro"
)

// wrapErr prefixes *errp with the store call that failed (format and args, such as
// "store: CreateOrder(%q)"), so that a logged driver error says where it came from, as
// `defer wrapErr(&err, …)` at the top of each exported method. A *palaro.Error (anywhere in the
// chain) passes unchanged: its code and its message for people are what handlers map and show.
// The wrapped error keeps its chain for errors.Is and errors.As.
func wrapErr(errp *error, format string, args ...any) {
	if *errp == nil {
		return
	}
	var pe *palaro.Error
	if errors.As(*errp, &pe) {
		return
	}
	*errp = fmt.Errorf(format+": %w", append(args, *errp)...)
}
