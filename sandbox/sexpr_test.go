package sandbox_test

import (
	"fmt"
	"strings"
	"testing"
)

// sexpr is a parsed s-expression: an atom (a symbol, "string" or #"regex")
// or a list.
type sexpr struct {
	atom   string
	list   []sexpr
	isList bool
}

// parseProfile parses a Seatbelt profile as the s-expressions SBPL is
// written in: ; comments, strings with \ escapes, #"…" regexes, and
// balanced parentheses. It fails on anything unbalanced or unterminated.
func parseProfile(text string) ([]sexpr, error) {
	p := &sexprParser{s: text}
	var forms []sexpr
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return forms, nil
		}
		form, err := p.parse()
		if err != nil {
			return nil, err
		}
		if !form.isList {
			return nil, fmt.Errorf("top-level atom %q at %d: every rule is a list", form.atom, p.i)
		}
		forms = append(forms, form)
	}
}

type sexprParser struct {
	s string
	i int
}

func (p *sexprParser) skipSpace() {
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == ';':
			for p.i < len(p.s) && p.s[p.i] != '\n' {
				p.i++
			}
		case c == ' ' || c == '\t' || c == '\n':
			p.i++
		default:
			return
		}
	}
}

func (p *sexprParser) parse() (sexpr, error) {
	switch {
	case p.s[p.i] == '(':
		return p.parseList()
	case p.s[p.i] == ')':
		return sexpr{}, fmt.Errorf("unbalanced ) at %d", p.i)
	case p.s[p.i] == '"':
		return p.parseString(p.i)
	case strings.HasPrefix(p.s[p.i:], `#"`):
		p.i++
		return p.parseString(p.i - 1)
	}
	start := p.i
	for p.i < len(p.s) && !strings.ContainsRune(" \t\n();\"", rune(p.s[p.i])) {
		p.i++
	}
	return sexpr{atom: p.s[start:p.i]}, nil
}

func (p *sexprParser) parseList() (sexpr, error) {
	start := p.i
	p.i++
	list := sexpr{isList: true}
	for {
		p.skipSpace()
		if p.i >= len(p.s) {
			return sexpr{}, fmt.Errorf("unclosed ( at %d", start)
		}
		if p.s[p.i] == ')' {
			p.i++
			return list, nil
		}
		item, err := p.parse()
		if err != nil {
			return sexpr{}, err
		}
		list.list = append(list.list, item)
	}
}

// parseString reads "…" from p.i; start is where the atom began (at # for
// a regex).
func (p *sexprParser) parseString(start int) (sexpr, error) {
	p.i++
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\\':
			p.i += 2
			continue
		case '\n':
			return sexpr{}, fmt.Errorf("newline inside the string at %d", start)
		case '"':
			p.i++
			return sexpr{atom: p.s[start:p.i]}, nil
		}
		p.i++
	}
	return sexpr{}, fmt.Errorf("unterminated string at %d", start)
}

// head is a list's first atom.
func (e sexpr) head() string {
	if !e.isList || len(e.list) == 0 {
		return ""
	}
	return e.list[0].atom
}

func (e sexpr) String() string {
	if !e.isList {
		return e.atom
	}
	parts := make([]string, len(e.list))
	for i, x := range e.list {
		parts[i] = x.String()
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// TestParseProfileRejects keeps the well-formedness check honest: each of
// these must fail to parse.
func TestParseProfileRejects(t *testing.T) {
	for _, bad := range []string{
		"(version 1",
		"(version 1))",
		`(allow file-write* (subpath "/x))`,
		"(deny file-write* (subpath \"/a\nb\"))",
		"version",
		`(allow file-write* (regex #"^/dev))`,
	} {
		if _, err := parseProfile(bad); err == nil {
			t.Errorf("parseProfile(%q) succeeded, want an error", bad)
		}
	}
}
