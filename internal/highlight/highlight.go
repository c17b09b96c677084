// Package highlight configures chroma once for the whole site: which lexer a
// fence gets (with a CUDA lexer chroma lacks), HTML with CSS classes rather
// than inline styles, and the light and dark stylesheets generated from
// chroma styles. It writes code and CSS; it does not parse Markdown.
package highlight

import (
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Config is the site's highlighting. The zero value is not usable; use Default.
type Config struct {
	Light string // chroma style for light mode
	Dark  string // chroma style for dark mode (prefers-color-scheme: dark)

	formatter *html.Formatter
	cache     sync.Map // lang + "\x00" + code -> highlighted HTML: articles repeat their examples
}

// Default is the site's configuration: GitHub (light) and One Dark (dark), both of which colour CUDA's built-ins, types and constants.
func Default() *Config {
	return &Config{
		Light:     "github",
		Dark:      "onedark",
		formatter: html.New(html.WithClasses(true), html.TabWidth(4)),
	}
}

// Lexer picks the lexer for a fence's language tag. C and C++ that call CUDA
// get the CUDA lexer; an unknown or empty tag gets plain text.
func Lexer(lang, code string) chroma.Lexer {
	lang = strings.ToLower(strings.TrimSpace(lang))
	switch lang {
	case "c", "cpp", "c++", "cxx", "cc":
		if usesCUDA(code) {
			return CUDA
		}
	}
	if l := lexers.Get(lang); l != nil && lang != "" {
		return chroma.Coalesce(l)
	}
	return lexers.Fallback
}

// Code writes code highlighted as lang: <pre class="chroma"> with class names.
// The same code is highlighted once: the result is kept by content.
func (c *Config) Code(w io.Writer, lang, code string) error {
	key := lang + "\x00" + code
	if h, ok := c.cache.Load(key); ok {
		_, err := io.WriteString(w, h.(string))
		return err
	}
	it, err := Lexer(lang, code).Tokenise(nil, code)
	if err != nil {
		return fmt.Errorf("highlight %s: %w", lang, err)
	}
	var b strings.Builder
	if err := c.formatter.Format(&b, styles.Get(c.Light), it); err != nil {
		return err
	}
	c.cache.Store(key, b.String())
	_, err = io.WriteString(w, b.String())
	return err
}

// CSS writes the stylesheet of the named chroma style, with the class names
// Code uses.
func (c *Config) CSS(w io.Writer, style string) error {
	s := styles.Get(style)
	if s == nil || (s == styles.Fallback && style != styles.Fallback.Name) {
		return fmt.Errorf("highlight: no chroma style %q", style)
	}
	return c.formatter.WriteCSS(w, s)
}
