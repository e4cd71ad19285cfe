package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const samplePage = `<!doctype html><html><head>
<link rel="canonical" href="/">
<link rel="icon" href="/static/img/icon.svg">
<link rel="Stylesheet" href="/static/css/app.css">
<link rel="preload stylesheet" href="/static/css/app.css">
<link rel="modulepreload" href="/static/dist/chunk-A.js"/>
<script src="/static/dist/app.js" defer></script>
<script type="module" src="/static/dist/cal.js"></script>
<script type="module" src=""></script>
<script id="props" type="application/json">{"a":"<script src=x.js>"}</script>
<script src="https://example.com/tag.js"></script>
</head><body><a href="/about">About</a><a href="/e/">x</a><a href="/e/mlbb-finals">MLBB</a><a href="/f/mlbb">MLBB</a></body></html>`

func TestPageRefs_Parse(t *testing.T) {
	t.Run("OK", func(t *testing.T) {
		require.Equal(t, []ref{
			{Kind: "css", URL: "/static/css/app.css"},
			{Kind: "js", URL: "/static/dist/chunk-A.js", Module: true},
			{Kind: "js", URL: "/static/dist/app.js"},
			{Kind: "js", URL: "/static/dist/cal.js", Module: true},
			{Kind: "js", URL: "https://example.com/tag.js"},
		}, pageRefs([]byte(samplePage)))
	})
	t.Run("OKNone", func(t *testing.T) {
		require.Empty(t, pageRefs([]byte(`<p>no assets <img src="/a.png"></p>`)))
	})
}

func TestModuleImports_Parse(t *testing.T) {
	src := `import{a as r}from"./chunk-AB12.js";import"./chunk-CD34.js";import {x} from './y.mjs';` +
		`const s="reimport"+"x";l.from("./no.js");import("./lazy.js");`
	require.Equal(t, []string{"./chunk-AB12.js", "./chunk-CD34.js", "./y.mjs"}, moduleImports([]byte(src)))
	require.Empty(t, moduleImports([]byte(`console.log("from")`)))
}

func TestFirstLink_Prefix(t *testing.T) {
	require.Equal(t, "/e/mlbb-finals", firstLink([]byte(samplePage), "/e/"))
	require.Equal(t, "/f/mlbb", firstLink([]byte(samplePage), "/f/"))
	require.Empty(t, firstLink([]byte(samplePage), "/b/"))
}

func gz(t *testing.T, s string) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

func TestMeasureWeight_Page(t *testing.T) {
	page := `<html><head><link rel="stylesheet" href="/s.css"><script type="module" src="/m/main.js"></script>
<script src="/plain.js"></script></head><body>` + strings.Repeat("<p>event</p>", 200) + `</body></html>`
	files := map[string]string{
		"/":             page,
		"/s.css":        strings.Repeat("body{color:red}", 100),
		"/m/main.js":    `import{a}from"./chunk.js";import("./lazy.js");a();`,
		"/m/chunk.js":   `export const a=()=>1;` + strings.Repeat("/*pad*/", 50),
		"/plain.js":     `import"./never.js"`,
		"/m/lazy.js":    `lazy`,
		"/m/never.js":   `never`,
		"/uncompressed": "",
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := files[r.URL.Path]
		if !ok || r.URL.Path == "/m/lazy.js" || r.URL.Path == "/never.js" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Path == "/plain.js" {
			_, _ = w.Write([]byte(body)) // sent without gzip
			return
		}
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(gz(t, body))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}

	t.Run("OK", func(t *testing.T) {
		w, err := measureWeight(context.Background(), client, srv.URL, "/")
		require.NoError(t, err)
		var urls []string
		for _, a := range w.Assets {
			urls = append(urls, a.Kind+" "+a.URL)
		}
		require.Equal(t, []string{"html /", "css /s.css", "js /m/main.js", "js /plain.js", "js /m/chunk.js"}, urls)
		require.Equal(t, len(gz(t, page)), w.Bytes("html"))
		require.Equal(t, len(gz(t, files["/s.css"])), w.Bytes("css"))
		require.Equal(t, len(gz(t, files["/m/main.js"]))+len(files["/plain.js"])+len(gz(t, files["/m/chunk.js"])), w.Bytes("js"))
		require.Equal(t, w.Bytes("html")+w.Bytes("css"), w.Bytes("html", "css"))
		require.Equal(t, []string{"/plain.js"}, w.Uncompressed())
		require.True(t, w.HasModules())
	})
	t.Run("OKNoModules", func(t *testing.T) {
		files["/"] = `<script src="/plain.js"></script>`
		w, err := measureWeight(context.Background(), client, srv.URL, "/")
		require.NoError(t, err)
		require.Len(t, w.Assets, 2)
		require.False(t, w.HasModules())
	})
	t.Run("ErrMissingAsset", func(t *testing.T) {
		files["/"] = `<script src="/gone.js"></script>`
		_, err := measureWeight(context.Background(), client, srv.URL, "/")
		require.ErrorContains(t, err, "404")
	})
}
