package build_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/p2pkb/p2pkb/internal/browsertest"
)

// A reader of an entry sees where its signature was copied from and can
// follow it, goes from the entry to the guide that explains it, and from the
// guide back to the entry, in each language, from file://.
func TestBrowserSignatureSourceAndGuides(t *testing.T) {
	b := browsertest.New(t)
	root := (&url.URL{Scheme: "file", Path: buildSite(t, "") + "/"}).String()
	for _, c := range []struct{ lang, label, source, guide, explains string }{
		{"en", "Signature copied from", "our reproduction", "NCCL's transports and its P2P settings", "Entries this guide explains"},
		{"zh", "签名出处", "我们的复现", "NCCL 的传输方式与 P2P 设置", "本指南讲解的条目"},
	} {
		t.Run(c.lang, func(t *testing.T) {
			entry := root + c.lang + "/kb/nccl/p2p-transport-in-use/index.html"
			b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("main")))
			b.Screenshot("signature_source_" + c.lang)
			row := browsertest.Eval[[]string](b, `[...document.querySelectorAll("dl.facts dt")].filter(dt => dt.nextElementSibling.classList.contains("signature-source")).map(dt => [dt.innerText, dt.nextElementSibling.querySelector("a").innerText])[0] || []`)
			if len(row) != 2 || row[0] != c.label || row[1] != c.source {
				t.Fatalf("signature source row = %q, want %q: %q", row, c.label, c.source)
			}
			href := browsertest.Eval[string](b, `document.querySelector("dd.signature-source a").href`)
			b.Do(chromedp.Navigate(href), chromedp.WaitReady(chromedp.CSS("pre")))
			if text := browsertest.Eval[string](b, `document.body.innerText`); !strings.Contains(text, "via P2P/CUMEM") {
				t.Errorf("the reproduction link shows no reproduced line; page starts %.200q", text)
			}

			b.Do(chromedp.Navigate(entry), chromedp.WaitReady(chromedp.CSS("main")))
			guides := browsertest.Eval[[]string](b, `[...document.querySelectorAll("section.guides a")].map(a => a.innerText)`)
			if !contains(guides, c.guide) {
				t.Fatalf("guides = %q, want %q", guides, c.guide)
			}
			b.Do(chromedp.Click(chromedp.CSS(`section.guides a`)), chromedp.WaitReady(chromedp.CSS("section.explains")))
			if h := browsertest.Eval[string](b, `document.querySelector("h1").innerText`); h != c.guide {
				t.Errorf("the guide link opened %q", h)
			}
			heading := browsertest.Eval[string](b, `document.querySelector("section.explains h2").innerText`)
			back := browsertest.Eval[[]string](b, `[...document.querySelectorAll("section.explains a")].map(a => a.href)`)
			if heading != c.explains || len(back) == 0 || !contains(back, entry) {
				t.Errorf("the guide's list %q links %q, want a link back to %s", heading, back, entry)
			}
		})
	}
}
