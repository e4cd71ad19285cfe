package handlers

import (
	"net/http"
	"testing"
)

// TestRouteTable_Properties: each property of the route table is set only where the middleware
// that reads it acts, so that no line promises what is not done: limits on methods other than
// GET (rateLimitRoutes lets GET and HEAD through), the page cache on public GETs, CSRF exemptions
// on POSTs (or the sandbox's any method), tokens and actions on organizer routes, handlers of
// the right kind on every line.
func TestRouteTable_Properties(t *testing.T) {
	for _, rt := range routeTable {
		name := rt.method + " " + rt.path
		if rt.limit != (limitRule{}) && rt.method == http.MethodGet {
			t.Errorf("%s: a GET is never limited", name)
		}
		if rt.cached && (rt.method != http.MethodGet || rt.access != public) {
			t.Errorf("%s: only a public GET can be a cached page", name)
		}
		if rt.csrfExempt != "" && rt.method != http.MethodPost && rt.method != ANY {
			t.Errorf("%s: only POSTs are exempt from the CSRF check", name)
		}
		if (rt.access == organizer) != (rt.org != nil && rt.action != "") || (rt.org == nil) == (rt.handler == nil) {
			t.Errorf("%s: an organizer route has an action and an organizer handler, any other a handler", name)
		}
		if rt.token && rt.access != organizer {
			t.Errorf("%s: only organizer routes take API tokens", name)
		}
	}
}
