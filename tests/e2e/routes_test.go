package e2e

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"palaro/handlers"
	"palaro/payment/sandbox"
)

// routeTable indexes the handlers' route table by "METHOD /path" as Echo's router lists them.
func routeTable() map[string]handlers.Route {
	m := map[string]handlers.Route{}
	for _, r := range handlers.Routes() {
		m[r.Method+" "+r.Path] = r
	}
	return m
}

// TestRouteTable_EveryRoute: the wired app's router has exactly the routes of the handlers' route
// table (handlers/routes.go), each once: no route is registered beside the table, none of the
// table is left out, and the payment sandbox is served under the table's /sandbox/*.
func TestRouteTable_EveryRoute(t *testing.T) {
	a := startApp(t)
	require.Equal(t, "/sandbox/", sandbox.PathPrefix, "the route table serves the sandbox under /sandbox/*")
	table := routeTable()
	require.Len(t, table, len(handlers.Routes()), "each route is on one line of the table")
	seen := map[string]bool{}
	for _, r := range a.Server().Echo().Router().Routes() {
		key := r.Method + " " + r.Path
		_, ok := table[key]
		require.True(t, ok, "%s is on the router but not in the route table", key)
		require.False(t, seen[key], "%s is registered twice", key)
		seen[key] = true
	}
	for key := range table {
		require.True(t, seen[key], "%s is in the route table but not on the router", key)
	}

	t.Run("SignedInAndOperatorGETsRefuseAnonymousVisitors", func(t *testing.T) {
		anonymous := newVisitor(t, a)
		checked := 0
		for _, r := range handlers.Routes() {
			if r.Method != http.MethodGet || (r.Access != "signed-in" && r.Access != "operator") {
				continue
			}
			status, body := anonymous.get(routePath(r.Path))
			if status == http.StatusOK { // a page that asks to sign in, not the account's page
				require.Contains(t, body, `href="/sign-in`, "%s signed out", r.Path)
				require.NotContains(t, body, `action="/sign-out"`, "%s signed out", r.Path)
			} else {
				require.Contains(t, []int{http.StatusSeeOther, http.StatusNotFound}, status, "%s signed out: %.200s", r.Path, body)
			}
			checked++
		}
		require.Positive(t, checked)
	})
}
