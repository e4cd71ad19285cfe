// Package static embeds Palaro's CSS, images, fonts and built island bundles, and serves them
// under content-hashed names so browsers may cache them for a year.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"path"
	"strings"
	"sync"
)

//go:embed css img js all:dist
var files embed.FS

// Prefix is the URL path under which assets are served.
const Prefix = "/static/"

// Island describes one built island entry: its script and the chunks it imports.
type Island struct {
	JS      string   `json:"js"`
	Imports []string `json:"imports"`
}

// Assets maps asset names to content-hashed URLs and back.
type Assets struct {
	fsys    fs.FS
	urls    map[string]string // "css/app.css" -> "/static/css/app.1a2b3c4d.css"
	names   map[string]string // "css/app.1a2b3c4d.css" -> "css/app.css"
	islands map[string]Island
	build   string
	gzipped sync.Map // name -> []byte, filled by Gzipped
}

var (
	defaultOnce   sync.Once
	defaultAssets *Assets
)

// Default returns the asset set of the embedded files, computed once.
func Default() *Assets {
	defaultOnce.Do(func() {
		a, err := Load(files)
		if err != nil {
			panic("static: " + err.Error())
		}
		defaultAssets = a
	})
	return defaultAssets
}

// Load hashes every file of fsys. Files under dist/ are already content-hashed by esbuild and keep
// their names; dist/manifest.json describes the islands.
func Load(fsys fs.FS) (*Assets, error) {
	a := &Assets{fsys: fsys, urls: map[string]string{}, names: map[string]string{}, islands: map[string]Island{}}
	all := sha256.New()
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".go") || path.Base(name) == ".gitkeep" {
			return err
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(data)
		all.Write(sum[:])
		hashed := name
		if !strings.HasPrefix(name, "dist/") {
			ext := path.Ext(name)
			hashed = strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:4]) + ext
		}
		a.urls[name] = Prefix + hashed
		a.names[hashed] = name
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.build = hex.EncodeToString(all.Sum(nil)[:6])
	if data, err := fs.ReadFile(fsys, "dist/manifest.json"); err == nil {
		if err := json.Unmarshal(data, &a.islands); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// URL returns the hashed URL of the named asset (such as "css/app.css"), or "" when it does not exist.
func (a *Assets) URL(name string) string { return a.urls[name] }

// Lookup returns the original name of a hashed asset path (without the prefix) and whether it exists.
func (a *Assets) Lookup(hashed string) (string, bool) {
	name, ok := a.names[hashed]
	return name, ok
}

// Read returns the content of the named asset.
func (a *Assets) Read(name string) ([]byte, error) { return fs.ReadFile(a.fsys, name) }

// Island returns the built scripts of the named island and whether it was built.
func (a *Assets) Island(name string) (Island, bool) {
	isl, ok := a.islands[name]
	return isl, ok
}

// compressible lists the extensions of text assets worth gzipping; images such as PNG and WebP
// are compressed already.
var compressible = map[string]bool{".css": true, ".js": true, ".mjs": true, ".json": true, ".svg": true, ".txt": true}

// Gzipped returns the named asset gzipped at the best compression level, compressed once and then
// kept in memory, and false when the asset is not text worth compressing or does not exist.
func (a *Assets) Gzipped(name string) ([]byte, bool) {
	if !compressible[path.Ext(name)] {
		return nil, false
	}
	if gz, ok := a.gzipped.Load(name); ok {
		return gz.([]byte), true
	}
	data, err := a.Read(name)
	if err != nil {
		return nil, false
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	_, _ = zw.Write(data) // writes to a bytes.Buffer cannot fail
	_ = zw.Close()
	gz, _ := a.gzipped.LoadOrStore(name, buf.Bytes())
	return gz.([]byte), true
}

// BuildID identifies this build of the assets; it changes whenever any asset changes.
func (a *Assets) BuildID() string { return a.build }
