package palaro

import (
	"errors"
	"fmt"
)

// Error codes shared by every layer; handlers map them to HTTP statuses.
const (
	EINVALID      = "invalid"
	ENOTFOUND     = "not_found"
	ECONFLICT     = "conflict"
	EUNAUTHORIZED = "unauthorized"
	EFORBIDDEN    = "forbidden"
	ETOOMANY      = "too_many_requests"
	EINTERNAL     = "internal"
)

// Error is the application's one error type: a code and a message fit to show a person.
type Error struct {
	Code    string
	Message string
	// Fields holds per-field validation messages keyed by field name, when the error is EINVALID.
	Fields map[string]string
}

// Error implements the error interface.
func (e *Error) Error() string {
	return fmt.Sprintf("palaro error: code=%s message=%s", e.Code, e.Message)
}

// Errorf builds an *Error with the given code and a formatted message.
func Errorf(code string, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of an *Error in err's chain, or EINTERNAL for any other error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the person-facing message of err, or a generic text for internal errors.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal Server Error"
}
