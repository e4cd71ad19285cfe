package handlers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/stretchr/testify/require"
)

// openAPIPath turns Echo's route pattern into the document's: /:code becomes /{code}.
func openAPIPath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		if strings.HasPrefix(s, ":") {
			parts[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(parts, "/")
}

// openAPIOperations lists the document's operations as "METHOD /path".
func openAPIOperations(t *testing.T) []string {
	t.Helper()
	doc, err := OpenAPI()
	require.NoError(t, err)
	var parsed struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	require.NoError(t, json.Unmarshal(doc, &parsed))
	var ops []string
	for path, item := range parsed.Paths {
		for method := range item {
			switch method {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace":
				ops = append(ops, strings.ToUpper(method)+" "+path)
			}
		}
	}
	slices.Sort(ops)
	return ops
}

// TestOpenAPI_DescribesEveryRoute holds the OpenAPI document (openapi.yaml) to the route table:
// every /v1 route is described, with its method, and nothing is described that the table does
// not have. A route added to routes.go fails here until openapi.yaml has it too.
func TestOpenAPI_DescribesEveryRoute(t *testing.T) {
	var routes []string
	for _, r := range Routes() {
		if strings.HasPrefix(r.Path, "/v1/") {
			require.NotEqual(t, ANY, r.Method, "%s: a /v1 route names its method", r.Path)
			routes = append(routes, r.Method+" "+openAPIPath(r.Path))
		}
	}
	slices.Sort(routes)
	require.Greater(t, len(routes), 30, "the /v1 routes of the table")
	described := openAPIOperations(t)
	for _, r := range routes {
		require.Contains(t, described, r, "the route %s is not in handlers/openapi.yaml", r)
	}
	for _, d := range described {
		require.Contains(t, routes, d, "handlers/openapi.yaml describes %s, which the route table does not have", d)
	}
}

// TestOpenAPI_ValidDocument: the document is valid OpenAPI 3.1 (libopenapi builds its model and
// the validator finds nothing wrong with it), every operation has an id and answers, and every
// organizer route an API token may call says so with the bearer token.
func TestOpenAPI_ValidDocument(t *testing.T) {
	raw, err := OpenAPI()
	require.NoError(t, err)
	doc, err := libopenapi.NewDocument(raw)
	require.NoError(t, err)
	require.Equal(t, "3.1.0", doc.GetVersion())
	model, err := doc.BuildV3Model()
	require.NoError(t, err)
	v, errs := validator.NewValidator(doc)
	require.Empty(t, errs)
	ok, verrs := v.ValidateDocument()
	for _, e := range verrs {
		t.Errorf("%s: %s", e.Message, e.Reason)
	}
	require.True(t, ok)

	tokenRoutes := map[string]bool{}
	for _, r := range Routes() {
		if r.Token {
			tokenRoutes[r.Method+" "+openAPIPath(r.Path)] = true
		}
	}
	ids := map[string]bool{}
	for path, item := range model.Model.Paths.PathItems.FromOldest() {
		for method, op := range item.GetOperations().FromOldest() {
			key := strings.ToUpper(method) + " " + path
			require.NotEmpty(t, op.OperationId, key)
			require.False(t, ids[op.OperationId], "%s: operationId %s twice", key, op.OperationId)
			ids[op.OperationId] = true
			require.NotZero(t, op.Responses.Codes.Len(), "%s has answers", key)
			if !tokenRoutes[key] {
				continue
			}
			bearer := slices.ContainsFunc(op.Security, func(s *base.SecurityRequirement) bool {
				_, ok := s.Requirements.Get("bearerToken")
				return ok
			})
			require.True(t, bearer, "%s takes an API token: its security names bearerToken", key)
		}
	}
}

// TestOpenAPI_Served: GET /v1/openapi.json answers the document as JSON from the page cache
// (an ETag, a 304 for it), and HEAD answers like GET.
func TestOpenAPI_Served(t *testing.T) {
	ts := newTestServer(t)
	ts.pages = newPageCache(time.Minute, func() time.Time { return ts.Now() }) // as PALARO_CACHE_SECONDS turns it on
	want, err := OpenAPI()
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	ts.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	require.Contains(t, rec.Header().Get("Content-Type"), "application/json")
	require.JSONEq(t, string(want), rec.Body.String())
	etag := rec.Header().Get("ETag")
	require.NotEmpty(t, etag)

	req := httptest.NewRequest(http.MethodGet, "/v1/openapi.json", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	ts.ServeHTTP(rec, req)
	require.Equal(t, http.StatusNotModified, rec.Code)

	rec = httptest.NewRecorder()
	ts.ServeHTTP(rec, httptest.NewRequest(http.MethodHead, "/v1/openapi.json", nil))
	require.Equal(t, http.StatusOK, rec.Code)
}
