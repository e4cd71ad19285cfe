package handlers

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"
	"github.com/stretchr/testify/require"
)

// compressed serves handler behind the compress middleware and returns its answer to a GET with
// the given Accept-Encoding.
func compressed(t *testing.T, acceptEncoding string, handler echo.HandlerFunc) *httptest.ResponseRecorder {
	t.Helper()
	e := echo.New()
	e.Use(compress)
	e.GET("/", handler)
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, req)
	return rec
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	require.NoError(t, err)
	plain, err := io.ReadAll(zr)
	require.NoError(t, err)
	return string(plain)
}

func TestCompress_Responses(t *testing.T) {
	page := strings.Repeat("<p>Discover upcoming events</p>", 100)

	t.Run("OK", func(t *testing.T) {
		rec := compressed(t, "gzip, deflate, br", func(c *echo.Context) error {
			c.Response().Header().Set("Content-Length", "999")
			return c.HTML(http.StatusCreated, page)
		})
		require.Equal(t, http.StatusCreated, rec.Code)
		require.Equal(t, "gzip", rec.Header().Get("Content-Encoding"))
		require.Equal(t, "Accept-Encoding", rec.Header().Get("Vary"))
		require.Empty(t, rec.Header().Get("Content-Length"))
		require.Contains(t, rec.Header().Get("Content-Type"), "text/html")
		require.Less(t, rec.Body.Len(), len(page)/10)
		require.Equal(t, page, gunzip(t, rec.Body.Bytes()))
	})
	t.Run("OKManyWrites", func(t *testing.T) {
		rec := compressed(t, "gzip", func(c *echo.Context) error {
			for i := range 100 {
				if _, err := io.WriteString(c.Response(), page[i*len(page)/100:(i+1)*len(page)/100]); err != nil {
					return err
				}
			}
			return nil
		})
		require.Equal(t, http.StatusOK, rec.Code)
		require.Equal(t, page, gunzip(t, rec.Body.Bytes()))
	})
	t.Run("OKFlush", func(t *testing.T) {
		rec := compressed(t, "gzip", func(c *echo.Context) error {
			_, _ = io.WriteString(c.Response(), "first ")
			http.NewResponseController(c.Response()).Flush()
			require.True(t, recorderOf(c).Flushed, "the flush reaches the client")
			_, err := io.WriteString(c.Response(), page)
			return err
		})
		require.Equal(t, "first "+page, gunzip(t, rec.Body.Bytes()))
	})
	t.Run("OKShortBodyPlain", func(t *testing.T) {
		rec := compressed(t, "gzip", func(c *echo.Context) error { return c.String(http.StatusAccepted, "short") })
		require.Equal(t, http.StatusAccepted, rec.Code)
		require.Empty(t, rec.Header().Get("Content-Encoding"))
		require.Equal(t, "short", rec.Body.String())
	})
	t.Run("OKNotAccepted", func(t *testing.T) {
		rec := compressed(t, "", func(c *echo.Context) error { return c.HTML(http.StatusOK, page) })
		require.Empty(t, rec.Header().Get("Content-Encoding"))
		require.Equal(t, "Accept-Encoding", rec.Header().Get("Vary"))
		require.Equal(t, page, rec.Body.String())
	})
	t.Run("OKAlreadyEncoded", func(t *testing.T) {
		var pre bytes.Buffer
		zw := gzip.NewWriter(&pre)
		_, _ = zw.Write([]byte(page))
		require.NoError(t, zw.Close())
		rec := compressed(t, "gzip", func(c *echo.Context) error {
			c.Response().Header().Set("Content-Encoding", "gzip")
			return c.Blob(http.StatusOK, "text/css", pre.Bytes())
		})
		require.Equal(t, pre.Bytes(), rec.Body.Bytes(), "sent as the handler encoded it, not twice")
		require.Equal(t, page, gunzip(t, rec.Body.Bytes()))
	})
	t.Run("OKNoBody", func(t *testing.T) {
		rec := compressed(t, "gzip", func(c *echo.Context) error { return c.NoContent(http.StatusNoContent) })
		require.Equal(t, http.StatusNoContent, rec.Code)
		require.Empty(t, rec.Header().Get("Content-Encoding"))
		require.Zero(t, rec.Body.Len())
	})
	t.Run("ErrNothingWritten", func(t *testing.T) {
		rec := compressed(t, "gzip", func(c *echo.Context) error { return errors.New("boom") })
		require.Equal(t, http.StatusInternalServerError, rec.Code, "the error handler still answers")
		require.NotEmpty(t, rec.Body.String())
	})
}

// recorderOf finds the test recorder under the compressing writer.
func recorderOf(c *echo.Context) *httptest.ResponseRecorder {
	var w http.ResponseWriter = c.Response()
	for {
		switch v := w.(type) {
		case *httptest.ResponseRecorder:
			return v
		case interface{ Unwrap() http.ResponseWriter }:
			w = v.Unwrap()
		default:
			return nil
		}
	}
}
