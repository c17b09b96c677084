package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// Expr is a parsed condition.
type Expr interface {
	eval(f Facts) result
	String() string
}

type result struct {
	truth   Truth
	reasons []string
}

type token struct {
	kind string // op, fact, num, str, (, ), eof
	text string
	pos  int
}

func lex(src string) ([]token, error) {
	var out []token
	for i := 0; i < len(src); {
		c := rune(src[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case strings.HasPrefix(src[i:], "&&") || strings.HasPrefix(src[i:], "||") || strings.HasPrefix(src[i:], "==") ||
			strings.HasPrefix(src[i:], "!=") || strings.HasPrefix(src[i:], "<=") || strings.HasPrefix(src[i:], ">="):
			out = append(out, token{"op", src[i : i+2], i})
			i += 2
		case c == '<' || c == '>' || c == '!':
			out = append(out, token{"op", string(c), i})
			i++
		case c == '(' || c == ')':
			out = append(out, token{string(c), string(c), i})
			i++
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("column %d: string not closed", i+1)
			}
			out = append(out, token{"str", src[i+1 : i+1+j], i})
			i += j + 2
		case c >= '0' && c <= '9':
			j := i
			for j < len(src) && (src[j] >= '0' && src[j] <= '9' || src[j] == '.') {
				j++
			}
			out = append(out, token{"num", src[i:j], i})
			i = j
		case unicode.IsLetter(c) || c == '_':
			j := i
			for j < len(src) && (unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j])) || src[j] == '_' || src[j] == '.') {
				j++
			}
			out = append(out, token{"fact", src[i:j], i})
			i = j
		default:
			return nil, fmt.Errorf("column %d: unexpected %q", i+1, c)
		}
	}
	return append(out, token{"eof", "", len(src)}), nil
}

// Parse parses a condition. An empty condition is nil: it always applies.
func Parse(src string) (Expr, error) {
	if strings.TrimSpace(src) == "" {
		return nil, nil
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	e, err := p.or()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != "eof" {
		return nil, fmt.Errorf("column %d: unexpected %q", t.pos+1, t.text)
	}
	return e, nil
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token { t := p.toks[p.i]; p.i++; return t }

func (p *parser) or() (Expr, error) {
	l, err := p.and()
	for err == nil && p.peek().text == "||" && p.peek().kind == "op" {
		p.next()
		var r Expr
		if r, err = p.and(); err == nil {
			l = orExpr{l, r}
		}
	}
	return l, err
}

func (p *parser) and() (Expr, error) {
	l, err := p.not()
	for err == nil && p.peek().text == "&&" && p.peek().kind == "op" {
		p.next()
		var r Expr
		if r, err = p.not(); err == nil {
			l = andExpr{l, r}
		}
	}
	return l, err
}

func (p *parser) not() (Expr, error) {
	if t := p.peek(); t.kind == "op" && t.text == "!" {
		p.next()
		e, err := p.not()
		return notExpr{e}, err
	}
	return p.compare()
}

func (p *parser) compare() (Expr, error) {
	l, err := p.operand()
	if err != nil {
		return nil, err
	}
	t := p.peek()
	if t.kind == "op" && t.text != "&&" && t.text != "||" && t.text != "!" {
		p.next()
		r, err := p.operand()
		if err != nil {
			return nil, err
		}
		return cmpExpr{op: t.text, l: l, r: r}, nil
	}
	return l, nil
}

func (p *parser) operand() (Expr, error) {
	t := p.next()
	switch t.kind {
	case "(":
		e, err := p.or()
		if err != nil {
			return nil, err
		}
		if c := p.next(); c.kind != ")" {
			return nil, fmt.Errorf("column %d: missing )", c.pos+1)
		}
		return e, nil
	case "num":
		return lit{text: t.text, num: true}, nil
	case "str":
		return lit{text: t.text}, nil
	case "fact":
		switch t.text {
		case "true", "false":
			return lit{text: t.text, boolean: true}, nil
		}
		if !knownFact(t.text) {
			return nil, fmt.Errorf("column %d: unknown fact %q (see the list in internal/rules)", t.pos+1, t.text)
		}
		return fact(t.text), nil
	case "eof":
		return nil, fmt.Errorf("column %d: expression ends too soon", t.pos+1)
	}
	return nil, fmt.Errorf("column %d: unexpected %q", t.pos+1, t.text)
}
