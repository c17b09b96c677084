// Package markdown renders the site's Markdown with goldmark: GitHub-flavoured
// Markdown, footnotes, heading anchors, and fenced code highlighted by the
// highlight package with a copy button. Raw HTML in the source is dropped,
// which is why its output alone may be trusted as template.HTML.
package markdown

import (
	"bufio"
	"bytes"
	"fmt"
	"html/template"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/p2pkb/p2pkb/internal/highlight"
)

// Heading is one entry of an article's table of contents.
type Heading struct {
	Level int    // 2 or 3
	ID    string // anchor
	Text  string // plain text
}

// Document is a rendered Markdown document.
type Document struct {
	HTML template.HTML
	TOC  []Heading // h2 and h3, in order
}

// Renderer renders Markdown for one language of the site.
type Renderer struct {
	md goldmark.Markdown
}

// Option configures a Renderer.
type Option func(*config)

type config struct {
	highlight   *highlight.Config
	copyLabel   string
	anchorLabel string
}

// WithHighlight sets the highlighting of fenced code.
func WithHighlight(c *highlight.Config) Option { return func(o *config) { o.highlight = c } }

// WithLabels sets the copy button's text and the heading anchors' accessible name.
func WithLabels(copyLabel, anchorLabel string) Option {
	return func(o *config) { o.copyLabel, o.anchorLabel = copyLabel, anchorLabel }
}

// New returns a Renderer. Raw HTML is never passed through.
func New(opts ...Option) *Renderer {
	c := config{highlight: highlight.Default(), copyLabel: "Copy", anchorLabel: "Link to this section"}
	for _, o := range opts {
		o(&c)
	}
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM, extension.Footnote, &codeBlocks{c}, &anchors{c}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
	)
	return &Renderer{md: md}
}

// Document renders a whole Markdown document and collects its headings.
func (r *Renderer) Document(src []byte) (Document, error) {
	ctx := parser.NewContext(parser.WithIDs(newIDs()))
	doc := r.md.Parser().Parse(text.NewReader(src), parser.WithContext(ctx))
	var toc []Heading
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok || h.Level < 2 || h.Level > 3 {
			return ast.WalkContinue, nil
		}
		id, _ := h.AttributeString("id")
		idb, _ := id.([]byte)
		toc = append(toc, Heading{Level: h.Level, ID: string(idb), Text: plainText(h, src)})
		return ast.WalkSkipChildren, nil
	})
	if err != nil {
		return Document{}, err
	}
	var buf bytes.Buffer
	if err := r.md.Renderer().Render(&buf, src, doc); err != nil {
		return Document{}, fmt.Errorf("markdown: %w", err)
	}
	return Document{HTML: template.HTML(buf.String()), TOC: toc}, nil
}

// Inline renders a short text such as a KB field: inline Markdown (code,
// emphasis, links) without the surrounding paragraph.
func (r *Renderer) Inline(src string) (template.HTML, error) {
	if !mayBeMarkdown(src) {
		return template.HTML(template.HTMLEscapeString(src)), nil
	}
	b := inlineBuffers.Get().(*[]byte)
	defer inlineBuffers.Put(b)
	out, err := r.AppendInline((*b)[:0], src)
	*b = out[:0]
	if err != nil {
		return "", err
	}
	return template.HTML(out), nil
}

// AppendInline appends Inline's HTML for src to dst: a page that writes
// the HTML straight on makes no string of it.
func (r *Renderer) AppendInline(dst []byte, src string) ([]byte, error) {
	if !mayBeMarkdown(src) {
		// Nothing Markdown could act on: escaping is the whole rendering.
		return append(dst, template.HTMLEscapeString(src)...), nil
	}
	if out, ok := appendCodeSpans(dst, src); ok {
		return out, nil
	}
	h, err := r.parsedInline(src)
	return append(dst, h...), err
}

// mayBeMarkdown says whether src holds a character inline Markdown acts on.
func mayBeMarkdown(src string) bool { return strings.ContainsAny(src, "`*_[]<>&\\!~:#|\n") }

// inlineBuffers hold Inline's HTML while it is made.
var inlineBuffers = sync.Pool{New: func() any { return new([]byte) }}

// parsedInline is Inline by goldmark, for any Markdown.
func (r *Renderer) parsedInline(src string) (template.HTML, error) {
	w := inlineWriters.Get().(*inlineWriter)
	defer inlineWriters.Put(w)
	w.buf.Reset()
	w.Reset(&w.buf)
	if err := r.md.Convert([]byte(src), w); err != nil {
		return "", fmt.Errorf("markdown: %w", err)
	}
	out := strings.TrimSpace(w.buf.String())
	if strings.HasPrefix(out, "<p>") && strings.HasSuffix(out, "</p>") && strings.Count(out, "<p>") == 1 {
		out = out[len("<p>") : len(out)-len("</p>")]
	}
	return template.HTML(out), nil
}

// inlineWriter is what Inline renders into. goldmark wraps any writer that
// is not buffered in a new 4 KB bufio.Writer: for the few dozen texts of
// every entry page, that was half of the garbage of rendering them.
type inlineWriter struct {
	*bufio.Writer
	buf bytes.Buffer
}

var inlineWriters = sync.Pool{New: func() any {
	w := &inlineWriter{}
	w.Writer = bufio.NewWriter(&w.buf)
	return w
}}

func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

// codeBlocks renders fenced and indented code through the highlight package,
// wrapped with a copy button.
type codeBlocks struct{ c config }

func (e *codeBlocks) Extend(m goldmark.Markdown) {
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(e, 100)))
}

func (e *codeBlocks) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindFencedCodeBlock, e.render)
	reg.Register(ast.KindCodeBlock, e.render)
}

func (e *codeBlocks) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	var lang string
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		lang = string(f.Language(src))
	}
	var code bytes.Buffer
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code.Write(seg.Value(src))
	}
	fmt.Fprintf(w, `<div class="code"><button type="button" class="copy">%s</button>`, template.HTMLEscapeString(e.c.copyLabel))
	if err := e.c.highlight.Code(w, lang, code.String()); err != nil {
		return ast.WalkStop, err
	}
	_, _ = w.WriteString("</div>\n")
	return ast.WalkSkipChildren, nil
}

// anchors adds a self-link to every h2-h4, so a section can be linked to.
type anchors struct{ c config }

func (e *anchors) Extend(m goldmark.Markdown) {
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(e, 100)))
}

func (e *anchors) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHeading, e.render)
}

func (e *anchors) render(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	h := n.(*ast.Heading)
	id, _ := h.AttributeString("id")
	idb, _ := id.([]byte)
	if entering {
		fmt.Fprintf(w, "<h%d", h.Level)
		if len(idb) > 0 {
			fmt.Fprintf(w, ` id="%s"`, template.HTMLEscapeString(string(idb)))
		}
		w.WriteByte('>')
		return ast.WalkContinue, nil
	}
	if len(idb) > 0 && h.Level >= 2 && h.Level <= 4 {
		fmt.Fprintf(w, ` <a class="anchor" href="#%s" aria-label="%s">#</a>`,
			template.HTMLEscapeString(string(idb)), template.HTMLEscapeString(e.c.anchorLabel))
	}
	fmt.Fprintf(w, "</h%d>\n", h.Level)
	return ast.WalkContinue, nil
}

// plainParser reads inline Markdown for Plain; one parser serves every call.
// CommonMark alone: GFM's autolinks made it several times slower, and a
// bare URL is text anyway.
var plainParser = goldmark.DefaultParser()

// Plain is inline Markdown as plain text: code spans keep their text,
// links their label, emphasis and raw HTML go. It is for the places that
// take no markup, such as search result snippets.
func Plain(src string) string {
	if isPlainText(src) {
		// Text or single-backtick code spans, the usual KB field: a code
		// span is its text, and parsing cost a large build most of its
		// snippets' time.
		return strings.Join(strings.Fields(strings.ReplaceAll(src, "`", "")), " ")
	}
	return parsedPlain(src)
}

// isPlainText reports whether src is text and single-backtick code spans
// only, which Plain need not parse: no line begins a block (each starts with
// a letter or a backtick, or is blank outside a code span), the backticks
// pair up, and outside the code spans there is none of the characters the
// rest of inline Markdown is made of. Inside a code span they are text
// (CUDA_VISIBLE_DEVICES), and a code span binds before emphasis and links.
func isPlainText(src string) bool {
	if strings.Contains(src, "``") || !utf8.ValidString(src) {
		return false
	}
	code := false
	for i := 0; i < len(src); i++ {
		if i == 0 || src[i-1] == '\n' {
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			if strings.Trim(src[i:i+end], " \t") == "" {
				if code { // a blank line ends the paragraph, and the code span with it
					return false
				}
				i += end
				continue
			}
			if r, _ := utf8.DecodeRuneInString(src[i:]); r != '`' && !unicode.IsLetter(r) {
				return false
			}
		}
		switch c := src[i]; {
		case c == '`':
			// A code span loses a space at each end, when it has both:
			// a span that starts or ends with white space is parsed.
			if !code && i+1 < len(src) && isSpace(src[i+1]) || code && isSpace(src[i-1]) {
				return false
			}
			code = !code
		case c < ' ' && c != '\n' && c != '\t' || c == 0x7f:
			return false
		case !code && strings.IndexByte("*_[]<>&\\!~", c) >= 0:
			return false
		}
	}
	return !code
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// appendCodeSpans appends to dst the HTML of a one-line text of words and
// single-backtick code spans the way goldmark writes it, without parsing it:
// most KB fields are such a sentence with a variable or a call in it, and
// parsing them was most of the time an entry page took. It refuses (ok false) anything else: a
// line that could open a block, an unpaired or doubled backtick, a code
// span with a space at either end, and outside the spans any character
// inline Markdown acts on, including what GFM turns into links (a
// scheme's "://", www., an address's @).
func appendCodeSpans(dst []byte, src string) (_ []byte, ok bool) {
	src = strings.TrimRight(src, " \t") // a paragraph's trailing spaces go
	if src == "" || strings.Contains(src, "``") || !utf8.ValidString(src) {
		return dst, false
	}
	if r, _ := utf8.DecodeRuneInString(src); r != '`' && !unicode.IsLetter(r) {
		return dst, false
	}
	b := slices.Grow(dst, len(src)+len(src)/4)
	code, start := false, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c < ' ' && c != '\t' || c == 0x7f:
			return dst, false
		case c == '`':
			if !code && (i+1 == len(src) || isSpace(src[i+1])) || code && isSpace(src[i-1]) {
				return dst, false
			}
			if code {
				b = append(b, "<code>"...)
				b = appendEscaped(b, src[start:i])
				b = append(b, "</code>"...)
			} else {
				b = appendEscaped(b, src[start:i])
			}
			code, start = !code, i+1
		case !code && strings.IndexByte("*_[]<>&\\!~#|@", c) >= 0:
			return dst, false
		case !code && c == ':' && i+1 < len(src) && src[i+1] == '/':
			return dst, false // a URL's scheme, which GFM links
		case !code && (c == 'w' || c == 'W') && len(src)-i >= 4 && strings.EqualFold(src[i:i+4], "www."):
			return dst, false
		}
	}
	if code {
		return dst, false
	}
	return appendEscaped(b, src[start:]), true
}

// appendEscaped appends s escaped as goldmark escapes text.
func appendEscaped(b []byte, s string) []byte {
	for {
		i := strings.IndexAny(s, "<>&\"")
		if i < 0 {
			return append(b, s...)
		}
		b = append(b, s[:i]...)
		switch s[i] {
		case '<':
			b = append(b, "&lt;"...)
		case '>':
			b = append(b, "&gt;"...)
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		}
		s = s[i+1:]
	}
}

// parsedPlain is Plain by goldmark's parser, for any Markdown.
func parsedPlain(src string) string {
	b := []byte(src)
	doc := plainParser.Parse(text.NewReader(b))
	var out strings.Builder
	_ = ast.Walk(doc, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			out.Write(t.Segment.Value(b))
			if t.SoftLineBreak() || t.HardLineBreak() {
				out.WriteByte(' ')
			}
		case *ast.String:
			out.Write(t.Value)
		case *ast.AutoLink:
			out.Write(t.Label(b))
		case *ast.Paragraph:
			if out.Len() > 0 {
				out.WriteByte(' ')
			}
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(out.String()), " ")
}
