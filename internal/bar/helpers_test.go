package bar

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or writes it under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file; got:\n%s", name, got)
	}
}

// menuText renders a menu as an indented outline, one item a line: what a
// person sees, with each item's key in brackets.
func menuText(m Menu) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title %q · tooltip %q · count %d\n", m.Title, m.Tooltip, m.Count)
	writeItems(&b, m.Items, "")
	return b.String()
}

func writeItems(b *strings.Builder, items []Item, indent string) {
	for _, it := range items {
		if it.Separator {
			fmt.Fprintf(b, "%s----\n", indent)
			continue
		}
		fmt.Fprintf(b, "%s%s", indent, it.Label)
		if it.Checkbox {
			fmt.Fprintf(b, " [checkbox %v]", it.Checked)
		}
		if it.Disabled {
			b.WriteString(" (disabled)")
		}
		if it.Key != "" {
			fmt.Fprintf(b, "  <%s>", shortKey(it.Key))
		}
		b.WriteString("\n")
		writeItems(b, it.Children, indent+"    ")
	}
}

// shortKey shows a request key with its binding cut to the digest.
func shortKey(key string) string {
	if c, ok := parseKey(key); ok {
		return strings.TrimSuffix(strings.Join([]string{c.verb, c.id, pending.Digest(c.binding), c.scope}, ":"), ":")
	}
	return key
}

var t0 = time.Date(2026, 10, 14, 9, 0, 0, 0, time.UTC)

// request makes a listed request as pending would list it, with bytes and
// a binding that differ per id and content.
func request(id, command string, outside bool, opts ...func(*pending.Request)) pending.Pending {
	r := pending.Request{
		Version: 1, ID: id, Kind: pending.KindCommand, Command: command, Cwd: "/home/ada/src/wisp",
		Level: pending.LevelHigh, Reasons: []string{"deletes files"}, Scopes: pending.AllScopes,
		Face: pending.FaceChat, Requester: pending.Requester{PID: 4242, StartTime: "1234"},
		RequestedAt: t0, ExpiresAt: t0.Add(10 * time.Minute),
	}
	if outside {
		r.Kind, r.OutsideSandbox, r.Level = pending.KindOutsideSandbox, true, pending.LevelModerate
		r.Reasons, r.Scopes = []string{pending.OutsideReason}, []string{pending.ScopeOnce}
	}
	for _, opt := range opts {
		opt(&r)
	}
	data := []byte(fmt.Sprintf("%+v", r))
	return pending.Pending{Request: r, Bytes: data, Binding: pending.Binding(data), File: "/p/" + id + ".request.json"}
}

func at(d time.Duration) func(*pending.Request) {
	return func(r *pending.Request) { r.RequestedAt = t0.Add(d); r.ExpiresAt = r.RequestedAt.Add(10 * time.Minute) }
}

func scopes(s ...string) func(*pending.Request) {
	return func(r *pending.Request) { r.Scopes = s }
}

func cwd(dir string) func(*pending.Request) { return func(r *pending.Request) { r.Cwd = dir } }

func pid(n int) func(*pending.Request) { return func(r *pending.Request) { r.Requester.PID = n } }

func answered(p pending.Pending) pending.Pending { p.Answered = true; return p }
