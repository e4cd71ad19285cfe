package views

import "context"

// Viewer is the signed-in visitor as the page frame shows them.
type Viewer struct {
	Name string
	Role string
}

// RequestInfo is what every page needs from the request: the CSRF token and the viewer.
type RequestInfo struct {
	CSRFToken string
	// Viewer is nil for anonymous visitors.
	Viewer *Viewer
}

type requestInfoKey struct{}

// WithRequestInfo returns ctx carrying info for the views.
func WithRequestInfo(ctx context.Context, info RequestInfo) context.Context {
	return context.WithValue(ctx, requestInfoKey{}, info)
}

func requestInfo(ctx context.Context) RequestInfo {
	info, _ := ctx.Value(requestInfoKey{}).(RequestInfo)
	return info
}

// CSRFToken returns the request's CSRF token: forms send it as the hidden _csrf field (CSRFField)
// and scripts as the X-CSRF-Token header, read from <meta name="csrf-token">.
func CSRFToken(ctx context.Context) string { return requestInfo(ctx).CSRFToken }

// CurrentViewer returns the signed-in visitor, or nil.
func CurrentViewer(ctx context.Context) *Viewer { return requestInfo(ctx).Viewer }

// NoScriptCSS is the one inline style of the layout, inside <noscript>: it hides what needs
// JavaScript. The Content-Security-Policy allows it by its hash.
const NoScriptCSS = ".needs-js { display: none !important; } .js-visible { visibility: hidden !important; }"
