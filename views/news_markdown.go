package views

import (
	"bytes"

	"github.com/a-h/templ"
	"github.com/microcosm-cc/bluemonday"
	"github.com/yuin/goldmark"
)

// markdownPolicy keeps the HTML a Markdown article may produce: text, links, lists, headings, images.
var markdownPolicy = bluemonday.UGCPolicy()

// Markdown renders a Markdown text (CommonMark, raw HTML left out by goldmark) and sanitises the
// result with bluemonday, so an article body cannot carry scripts or inline styles.
func Markdown(src string) templ.Component {
	var buf bytes.Buffer
	if err := goldmark.Convert([]byte(src), &buf); err != nil {
		return templ.Raw("")
	}
	return templ.Raw(markdownPolicy.Sanitize(buf.String()))
}
