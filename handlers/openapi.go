package handlers

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/labstack/echo/v5"
	"go.yaml.in/yaml/v3"
)

// openAPIYAML is the OpenAPI 3.1 description of the /v1 API, kept beside the route table it
// describes (TestOpenAPI_DescribesEveryRoute holds the two together).
//
//go:embed openapi.yaml
var openAPIYAML []byte

// OpenAPI returns the OpenAPI document as JSON, converted once from openapi.yaml.
var OpenAPI = sync.OnceValues(func() ([]byte, error) {
	var doc any
	if err := yaml.Unmarshal(openAPIYAML, &doc); err != nil {
		return nil, fmt.Errorf("handlers: openapi.yaml: %w", err)
	}
	return json.Marshal(doc)
})

// openAPI answers GET /v1/openapi.json: the OpenAPI document (a public page of the page cache,
// with its ETag).
func (s *Server) openAPI(c *echo.Context) error {
	doc, err := OpenAPI()
	if err != nil {
		return err
	}
	return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, doc)
}
