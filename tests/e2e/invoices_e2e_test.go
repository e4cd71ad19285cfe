package e2e

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"palaro"
	"palaro/store"
)

// pdfPage finds a page object of a PDF (not the /Pages tree).
var pdfPage = regexp.MustCompile(`/Type\s*/Page[^s]`)

// TestInvoice_Print_Browser opens a sales invoice on a phone (it fits the width), then lays it out
// as printed: on A4 and on an 80 mm receipt printer the site's bars are gone, the sheet fits the
// paper's width (the receipt drops the unit price column) and Chromium prints it to one page.
// With PALARO_SCREENSHOTS=1 the phone screenshot, both print layouts and both PDFs are saved.
func TestInvoice_Print_Browser(t *testing.T) {
	a := startApp(t)
	owner := signedIn(t, a, store.DemoOrganizerEmail)
	status, _ := owner.post("/organizer/organization", url.Values{"organization": {demoOwnedOrg(t, a)},
		palaro.FieldRegisteredName: {"Manila Esports League Corporation"}, palaro.FieldTIN: {"123-456-789-00000"},
		palaro.FieldRegisteredAddress: {"5F Tower One and Exchange Plaza, Ayala Triangle, Ayala Avenue, Makati City 1226"},
		palaro.FieldVATRegistered:     {"on"}})
	require.Equal(t, 303, status)
	o := paidOrder(t, a, "printed@example.ph", 2)
	require.NotEmpty(t, o.Invoices)

	ctx := newBrowser(t)
	watchCSP(t, ctx)
	dismissCookieNotice(t, ctx, a.URL+"/")
	var overflow bool
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+palaro.InvoicePath(o.Invoices[0].PublicID)),
		chromedp.WaitVisible(".invoice", chromedp.ByQuery),
		chromedp.Evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth`, &overflow)))
	require.False(t, overflow, "the invoice fits a phone's width")
	screenshot(t, ctx, "invoice-phone")

	save := func(name string, data []byte) {
		if os.Getenv("PALARO_SCREENSHOTS") != "1" {
			return
		}
		dir := filepath.Join("..", "..", "screenshots")
		_ = os.MkdirAll(dir, 0o755)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	for _, paper := range []struct {
		name          string
		widthPx       int64   // the printable width at 96 px an inch, less the margins
		width, height float64 // inches
		unitPrice     bool
	}{
		{"a4", 794 - 91, 8.27, 11.69, true},
		{"80mm", 302 - 23, 3.15, 11.69, false},
	} {
		t.Run(paper.name, func(t *testing.T) {
			var chrome, unitPrice, fits bool
			require.NoError(t, chromedp.Run(ctx,
				emulation.SetEmulatedMedia().WithMedia("print"),
				chromedp.EmulateViewport(paper.widthPx, 1100),
				chromedp.Evaluate(`getComputedStyle(document.querySelector('.topbar')).display !== 'none' ||
					getComputedStyle(document.querySelector('.site-footer')).display !== 'none'`, &chrome),
				chromedp.Evaluate(`getComputedStyle(document.querySelector('.invoice-lines th:nth-child(3)')).display !== 'none'`, &unitPrice),
				chromedp.Evaluate(`document.querySelector('.invoice').scrollWidth <= document.documentElement.clientWidth`, &fits)))
			require.False(t, chrome, "no site bars on paper")
			require.Equal(t, paper.unitPrice, unitPrice, "the unit price column")
			require.True(t, fits, "the sheet fits the paper's width")
			screenshot(t, ctx, "invoice-print-"+paper.name)

			var pdf []byte
			require.NoError(t, chromedp.Run(ctx,
				chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile),
				emulation.SetEmulatedMedia().WithMedia(""),
				chromedp.ActionFunc(func(ctx context.Context) error {
					var err error
					pdf, _, err = page.PrintToPDF().WithPaperWidth(paper.width).WithPaperHeight(paper.height).
						WithPrintBackground(false).Do(ctx)
					return err
				})))
			require.True(t, bytes.HasPrefix(pdf, []byte("%PDF")))
			require.Len(t, pdfPage.FindAll(pdf, -1), 1, "one page")
			save("invoice-"+paper.name+".pdf", pdf)
		})
	}

	// the console's Invoices page and the receipts report, on the same phone
	org := demoOwnedOrg(t, a)
	require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+"/sign-in?next=/organizer"),
		setField("email", store.DemoOrganizerEmail), setField("password", store.DemoOrganizerPassword), submitAndLoad()))
	waitPath(t, ctx, "/organizer")
	for name, path := range map[string]string{"invoices-console": "/organizer/organization?organization=" + org,
		"invoices-receipts": "/organizer/organization/admission-receipts?rate=7.5&organization=" + org} {
		require.NoError(t, chromedp.Run(ctx, chromedp.Navigate(a.URL+path), chromedp.WaitVisible("main h1", chromedp.ByQuery),
			chromedp.Evaluate(`document.documentElement.scrollWidth > document.documentElement.clientWidth`, &overflow)))
		screenshot(t, ctx, name)
		var wide string
		require.NoError(t, chromedp.Run(ctx, chromedp.Evaluate(`[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 8).join(', ')`, &wide)))
		require.False(t, overflow, "%s fits a phone's width: %s", path, wide)
	}
}
