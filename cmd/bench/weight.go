package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// response is one HTTP answer as it came over the wire: the body still gzipped if the server
// compressed it.
type response struct {
	Status int
	Header http.Header
	Wire   []byte
}

// gzipped reports whether the body was sent gzip-compressed.
func (r response) gzipped() bool { return r.Header.Get("Content-Encoding") == "gzip" }

// body returns the decompressed body.
func (r response) body() ([]byte, error) {
	if !r.gzipped() {
		return r.Wire, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.Wire))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(zr, 32<<20))
}

// fetch GETs u asking for gzip like a browser and keeps the body as transferred.
func fetch(ctx context.Context, client *http.Client, u string) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	wire, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
	if err != nil {
		return response{}, err
	}
	if resp.StatusCode != http.StatusOK {
		return response{}, fmt.Errorf("GET %s: status %d", u, resp.StatusCode)
	}
	return response{Status: resp.StatusCode, Header: resp.Header, Wire: wire}, nil
}

// ref is a file an HTML page makes the browser download.
type ref struct {
	Kind   string // "css" or "js"
	URL    string // as written in the page
	Module bool   // an ES module, whose static imports are downloaded too
}

// eachTag calls fn with every start tag of an HTML document until fn returns false.
func eachTag(doc []byte, fn func(t html.Token) bool) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			if !fn(z.Token()) {
				return
			}
		}
	}
}

// attr returns the trimmed value of a tag's attribute, or "".
func attr(t html.Token, name string) string {
	for _, a := range t.Attr {
		if a.Key == name {
			return strings.TrimSpace(a.Val)
		}
	}
	return ""
}

// pageRefs returns, in document order and without duplicates, the stylesheets and scripts an HTML
// page references: <link rel=stylesheet>, <link rel=modulepreload> and <script src>.
func pageRefs(doc []byte) []ref {
	var refs []ref
	seen := map[string]bool{}
	add := func(r ref) {
		if r.URL != "" && !seen[r.URL] {
			seen[r.URL] = true
			refs = append(refs, r)
		}
	}
	eachTag(doc, func(t html.Token) bool {
		switch t.Data {
		case "link":
			for _, rel := range strings.Fields(strings.ToLower(attr(t, "rel"))) {
				switch rel {
				case "stylesheet":
					add(ref{Kind: "css", URL: attr(t, "href")})
				case "modulepreload":
					add(ref{Kind: "js", URL: attr(t, "href"), Module: true})
				}
			}
		case "script":
			add(ref{Kind: "js", URL: attr(t, "src"), Module: strings.EqualFold(attr(t, "type"), "module")})
		}
		return true
	})
	return refs
}

// firstLink returns the first <a href> of an HTML page whose path starts with prefix, or "".
func firstLink(doc []byte, prefix string) string {
	var link string
	eachTag(doc, func(t html.Token) bool {
		if href := attr(t, "href"); t.Data == "a" && strings.HasPrefix(href, prefix) && len(href) > len(prefix) {
			link = href
		}
		return link == ""
	})
	return link
}

// importRe matches the static imports of minified ES modules: import"./a.js" and from"./b.js".
var importRe = regexp.MustCompile(`(?:^|[^\w$.])(?:import|from)\s*["']([^"'\s]+\.m?js)["']`)

// moduleImports returns the files an ES module imports statically (dynamic import() is not
// followed: those load later, on demand).
func moduleImports(src []byte) []string {
	var out []string
	for _, m := range importRe.FindAllSubmatch(src, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// Asset is one file a page transfers, with its size on the wire.
type Asset struct {
	Kind   string // "html", "css" or "js"
	URL    string
	Bytes  int  // body bytes as transferred
	Gzip   bool // whether the server compressed it
	Module bool // an ES module script
}

// Weight is what one page transfers on a first visit: the HTML and the CSS and JS it loads.
type Weight struct {
	Path   string
	Assets []Asset
}

// Bytes is the total transferred for the kinds given.
func (w Weight) Bytes(kinds ...string) int {
	n := 0
	for _, a := range w.Assets {
		for _, k := range kinds {
			if a.Kind == k {
				n += a.Bytes
			}
		}
	}
	return n
}

// HasModules reports whether the page loads any ES module (an island).
func (w Weight) HasModules() bool {
	return slices.ContainsFunc(w.Assets, func(a Asset) bool { return a.Module })
}

// Uncompressed lists the assets the server sent without gzip.
func (w Weight) Uncompressed() []string {
	var out []string
	for _, a := range w.Assets {
		if !a.Gzip {
			out = append(out, a.URL)
		}
	}
	return out
}

// measureWeight downloads the page at base+path and every stylesheet and script it loads from the
// same host, following the static imports of ES modules, at most 100 files.
func measureWeight(ctx context.Context, client *http.Client, base, path string) (Weight, error) {
	w := Weight{Path: path}
	pageURL, err := url.Parse(base + path)
	if err != nil {
		return w, err
	}
	page, err := fetch(ctx, client, pageURL.String())
	if err != nil {
		return w, err
	}
	doc, err := page.body()
	if err != nil {
		return w, err
	}
	w.Assets = append(w.Assets, Asset{Kind: "html", URL: path, Bytes: len(page.Wire), Gzip: page.gzipped()})
	queue := pageRefs(doc)
	seen := map[string]bool{}
	for i := 0; i < len(queue) && i < 100; i++ {
		r := queue[i]
		u, err := pageURL.Parse(r.URL)
		if err != nil {
			return w, fmt.Errorf("%s: bad URL %q: %w", path, r.URL, err)
		}
		if u.Host != pageURL.Host || seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		res, err := fetch(ctx, client, u.String())
		if err != nil {
			return w, fmt.Errorf("%s: %w", path, err)
		}
		w.Assets = append(w.Assets, Asset{Kind: r.Kind, URL: u.RequestURI(), Bytes: len(res.Wire), Gzip: res.gzipped(), Module: r.Module})
		if !r.Module {
			continue
		}
		src, err := res.body()
		if err != nil {
			return w, err
		}
		for _, imp := range moduleImports(src) {
			if abs, err := u.Parse(imp); err == nil {
				queue = append(queue, ref{Kind: "js", URL: abs.String(), Module: true})
			}
		}
	}
	return w, nil
}
