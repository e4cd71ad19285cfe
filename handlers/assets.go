package handlers

import (
	"mime"
	"net/http"
	"path"
	"strings"

	"github.com/labstack/echo/v5"
)

// serveAsset serves an embedded static file by its hashed name, cacheable for a year; text files
// go out gzipped from memory to clients that accept it.
func (s *Server) serveAsset(c *echo.Context) error {
	hashed := strings.TrimPrefix(c.Request().URL.Path, "/static/")
	name, ok := s.assets.Lookup(hashed)
	if !ok {
		return errPageNotFound
	}
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	ctype := mime.TypeByExtension(path.Ext(name))
	if gz, ok := s.assets.Gzipped(name); ok && strings.Contains(c.Request().Header.Get(echo.HeaderAcceptEncoding), "gzip") {
		// Compressed once at the best level, not on every request.
		h.Set(echo.HeaderContentEncoding, "gzip")
		return c.Blob(http.StatusOK, ctype, gz)
	}
	data, err := s.assets.Read(name)
	if err != nil {
		return err
	}
	if ctype == "" {
		ctype = http.DetectContentType(data)
	}
	return c.Blob(http.StatusOK, ctype, data)
}

// buildInfo answers the build identifier the page script polls hourly.
func (s *Server) buildInfo(c *echo.Context) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]string{"build": s.assets.BuildID()})
}
