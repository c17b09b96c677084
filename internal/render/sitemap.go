package render

import (
	"bytes"
	"encoding/xml"
	"fmt"

	"github.com/p2pkb/p2pkb/internal/site"
)

// sitemap lists every page in a language, each with its alternates, at its
// absolute URL. The format allows no other, so without a base URL there is
// no sitemap (Site writes none).
func sitemap(s *site.Site) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	loc := s.URL
	for _, p := range s.Pages {
		if p.Lang.Code == "" || p.Kind == site.KindSearch || p.Kind == site.KindFleet {
			continue
		}
		fmt.Fprintf(&b, "  <url>\n    <loc>%s</loc>\n", esc(loc(p.Path)))
		for _, a := range p.Alternates {
			fmt.Fprintf(&b, "    <xhtml:link rel=\"alternate\" hreflang=\"%s\" href=\"%s\"/>\n", a.Lang.Tag, esc(loc(a.Path)))
		}
		b.WriteString("  </url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func esc(s string) string {
	var b bytes.Buffer
	_ = xml.EscapeText(&b, []byte(s))
	return b.String()
}

func robots(s *site.Site) []byte {
	out := "User-agent: *\nAllow: /\n"
	if u := s.URL("sitemap.xml"); u != "" {
		out += "Sitemap: " + u + "\n"
	}
	return []byte(out)
}
