package policy

import (
	"errors"
	"strings"
	"testing"
)

func TestAllowList(t *testing.T) {
	allow := []string{`^cd\b`, `^go (build|test|vet)\b`, `^tee\b`, `^ls\b`, `^/usr/bin/make\b`, `^echo\b`}
	p, err := New(nil, allow)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line    string
		allowed bool
		segment string // the segment no pattern matched
	}{
		{"cd src && go test ./... | tee out.txt", true, ""},
		{"cd src && go run .", false, "go run ."},
		{"ls; rm x", false, "rm x"},
		// Every segment counts, wherever it sits.
		{"echo $(date)", false, "date"},
		{"ls | (cd x && curl y)", false, "curl y"},
		{"bash -c 'ls'", false, "bash -c ls"},
		// Wrappers and assignments are seen through; the program by its base name or path as written.
		{"env ls", true, ""},
		{"FOO=1 ls -la", true, ""},
		{"nohup go build ./... &", true, ""},
		{"/bin/ls -l", true, ""},
		{"/usr/bin/make all", true, ""},
		{"make all", false, "make all"},
		// Quoting does not help a command past the list, nor stop one on it.
		{`"l"s`, true, ""},
		{`'cu'rl x`, false, "curl x"},
		// A line that runs nothing has nothing to refuse.
		{"", true, ""},
	}
	for _, tt := range tests {
		d := p.Check(tt.line)
		if d.Allowed != tt.allowed {
			t.Errorf("%q: allowed %v, want %v (%s)", tt.line, d.Allowed, tt.allowed, d.ModelMessage())
			continue
		}
		if !tt.allowed && (d.Rule != RuleAllowList || d.Segment != tt.segment) {
			t.Errorf("%q: rule %q segment %q; want %s, %q", tt.line, d.Rule, d.Segment, RuleAllowList, tt.segment)
		}
	}
}

func TestDenyWinsOverAllow(t *testing.T) {
	p, err := New([]string{`^git\s+push\b`}, []string{`.*`})
	if err != nil {
		t.Fatal(err)
	}
	for line, rule := range map[string]string{
		"sudo ls":            "sudo",
		"git push":           "commandPolicy.deny[0]",
		"cd x && wisp chat":  "nested-wisp",
		"curl x | sh":        "pipe-to-shell",
		"env 'git' push -f":  "commandPolicy.deny[0]",
		"ls && git   push x": "commandPolicy.deny[0]",
	} {
		if d := p.Check(line); d.Allowed || d.Rule != rule {
			t.Errorf("%q: allowed %v by %q; want denied by %s", line, d.Allowed, d.Rule, rule)
		}
	}
	if d := p.Check("git status"); !d.Allowed {
		t.Errorf("git status: %s", d.ModelMessage())
	}
}

// Configured deny patterns add to the defaults and are matched against each
// simple command and the whole line.
func TestConfiguredDeny(t *testing.T) {
	p, err := New([]string{`^npm\s+publish`, `\|\s*tee\b`, `^make\b`}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ line, rule, segment string }{
		{"cd pkg && npm publish", "commandPolicy.deny[0]", "npm publish"},
		{"ls | tee x", "commandPolicy.deny[1]", "ls | tee x"},
		{"env FOO=1 make", "commandPolicy.deny[2]", "env FOO=1 make"},
		{"/usr/bin/make all", "commandPolicy.deny[2]", "/usr/bin/make all"},
		{"sudo make", "sudo", "sudo make"},
	}
	for _, tt := range tests {
		d := p.Check(tt.line)
		if d.Allowed || d.Rule != tt.rule || d.Segment != tt.segment {
			t.Errorf("%q: allowed %v, rule %q, segment %q; want %s on %q", tt.line, d.Allowed, d.Rule, d.Segment, tt.rule, tt.segment)
		}
	}
	if d := p.Check("npm test"); !d.Allowed {
		t.Errorf("npm test: %s", d.ModelMessage())
	}
}

func TestNewRefusesBadPatterns(t *testing.T) {
	tests := []struct {
		deny, allow []string
		want        string
		index       int
	}{
		{[]string{"ok", "(bad"}, nil, "commandPolicy.deny[1] is not a valid regular expression: ", 1},
		{nil, []string{"^ls", "^go", "[z-a]"}, "commandPolicy.allow[2] is not a valid regular expression: ", 2},
		{[]string{""}, nil, "commandPolicy.deny[0] is not a valid regular expression: it is empty", 0},
		{nil, []string{"  "}, "commandPolicy.allow[0] is not a valid regular expression: it is empty", 0},
	}
	for _, tt := range tests {
		_, err := New(tt.deny, tt.allow)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("New(%q, %q) = %v; want an error starting %q", tt.deny, tt.allow, err, tt.want)
			continue
		}
		var pe *PatternError
		if !errors.As(err, &pe) || pe.Index != tt.index {
			t.Errorf("New(%q, %q): %v is not a *PatternError at index %d", tt.deny, tt.allow, err, tt.index)
		}
	}
}

func TestDefaultRulesAreDescribed(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range DefaultRules() {
		if r.Name == "" || r.Pattern == "" || r.Reason == "" || r.Hint == "" || r.Scope == 0 {
			t.Errorf("rule %+v lacks a name, pattern, reason, hint or scope", r)
		}
		if seen[r.Name] {
			t.Errorf("two rules are named %s", r.Name)
		}
		seen[r.Name] = true
	}
	for rule := range deniedByDefault {
		if !seen[rule] {
			t.Errorf("the tests expect a rule %s that the list does not have", rule)
		}
	}
	for name := range seen {
		if len(deniedByDefault[name]) == 0 {
			t.Errorf("rule %s has no test of a line it denies", name)
		}
	}
}

// Check is safe for concurrent use: the pooled checkers never share state.
func TestCheckConcurrently(t *testing.T) {
	p := defaultPolicy(t)
	lines := append([]string{}, allowedByDefault...)
	lines = append(lines, deniedByDefault["sudo"]...)
	want := make([]Decision, len(lines))
	for i, l := range lines {
		want[i] = p.Check(l)
	}
	done := make(chan error, 4)
	for range 4 {
		go func() {
			for i, l := range lines {
				if got := p.Check(l); got.Allowed != want[i].Allowed || got.Segment != want[i].Segment ||
					strings.Join(got.Segments, "\n") != strings.Join(want[i].Segments, "\n") {
					done <- errors.New(l)
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Errorf("a concurrent check of %q answered differently", err)
		}
	}
}
