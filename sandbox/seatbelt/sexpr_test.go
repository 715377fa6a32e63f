package seatbelt_test

import (
	"fmt"
	"regexp"
	"slices"
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

// sbplQuery is one operation a confined process attempts, as Seatbelt sees
// it: the operation's name, the path it acts on (a socket's for the
// network), whether that is a Unix socket, and for signals and process
// information whose process it targets ("self", "same-sandbox",
// "outside").
type sbplQuery struct {
	op, path string
	unix     bool
	target   string
}

// sbplDecide applies profile to q as Seatbelt does: the last rule that
// matches decides. It knows the operations and filters wisp's profile uses
// and fails on any other, so that a misspelt one, which would make
// sandbox-exec refuse every profile on a Mac, fails here.
func sbplDecide(t *testing.T, forms []sexpr, params map[string]string, q sbplQuery) (allowed bool, by string) {
	t.Helper()
	by = "no rule"
	for _, f := range forms[1:] {
		ops, filters := splitRule(t, f)
		if !slices.ContainsFunc(ops, func(op string) bool { return opMatches(op, q.op) }) {
			continue
		}
		if len(filters) == 0 || slices.ContainsFunc(filters, func(x sexpr) bool { return filterMatches(t, x, params, q) }) {
			allowed, by = f.head() == "allow", f.String()
		}
	}
	return allowed, by
}

// knownOperations are the SBPL operations wisp's profile may name: Apple's
// own names, as the peers' profiles (Codex, Gemini CLI, Chromium,
// sandbox-runtime) use them.
var knownOperations = []string{"default", "file-read*", "file-read-data", "file-read-metadata",
	"file-write*", "file-write-unlink", "file-write-setugid", "signal", "process-info*",
	"process-exec", "appleevent-send", "lsopen", "network*", "network-outbound",
	"network-inbound", "network-bind"}

func splitRule(t *testing.T, f sexpr) (ops []string, filters []sexpr) {
	t.Helper()
	for _, x := range f.list[1:] {
		if x.isList {
			filters = append(filters, x)
			continue
		}
		if !slices.Contains(knownOperations, x.atom) {
			t.Fatalf("rule %s names the operation %q, which wisp's profile does not use", f, x.atom)
		}
		ops = append(ops, x.atom)
	}
	return ops, filters
}

func opMatches(rule, op string) bool {
	if rule == "default" || rule == op {
		return true
	}
	return strings.HasSuffix(rule, "*") && strings.HasPrefix(op, strings.TrimSuffix(rule, "*"))
}

func filterMatches(t *testing.T, f sexpr, params map[string]string, q sbplQuery) bool {
	t.Helper()
	switch f.head() {
	case "subpath":
		p := sbplValue(t, f.list[1], params)
		return q.path == p || strings.HasPrefix(q.path, p+"/")
	case "literal", "path-literal":
		return q.path == sbplValue(t, f.list[1], params)
	case "regex":
		return regexp.MustCompile(strings.Trim(strings.TrimPrefix(f.list[1].atom, "#"), `"`)).MatchString(q.path)
	case "remote", "local":
		if len(f.list) < 2 || f.list[1].atom != "unix-socket" {
			t.Fatalf("network filter %s: wisp's profile names only unix-socket ones", f)
		}
		return q.unix && (len(f.list) == 2 || filterMatches(t, f.list[2], params, q))
	case "target":
		switch f.list[1].atom {
		case "same-sandbox":
			return q.target == "self" || q.target == "same-sandbox"
		case "others":
			return q.target != "" && q.target != "self"
		}
	}
	t.Fatalf("filter %s is not one wisp's profile uses", f)
	return false
}

// sbplValue is a string atom's text, or the value of (param "NAME").
func sbplValue(t *testing.T, x sexpr, params map[string]string) string {
	t.Helper()
	if x.head() == "param" {
		v, ok := params[strings.Trim(x.list[1].atom, `"`)]
		if !ok {
			t.Fatalf("%s names a parameter no -D defines", x)
		}
		return v
	}
	return strings.Trim(x.atom, `"`)
}
