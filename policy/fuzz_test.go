package policy

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// seedLines are every line the table tests use, as a seed corpus.
func seedLines() []string {
	lines := slices.Clone(allowedByDefault)
	for _, l := range deniedByDefault {
		lines = append(lines, l...)
	}
	lines = append(lines, "env -vS'rm -rf x'", "env -S '-i PAGER=x man' ls", "env -iu X -S", "PAGER='less -R' man ls",
		"LESSOPEN='|x %s' less F", "git -c a=b log --outp=x", "uniq -cf 1 *", "sed -ne'1e x' F", "fd -x rm ;",
		"xargs -tI {} sed -n p {}", "nohup nohup nohup nohup nohup nohup nohup nohup nohup ls", "declare -n x=PATH")
	return append(lines, "a | b | c", "$(x)$(y)", "${a:-$(b)}", "x=(a b)", "\\", "'", "`", "{", "f() {", "<<", "a &&")
}

// FuzzSegments: the segmenter never panics, gives the same answer twice,
// and Check and Assess agree with it.
func FuzzSegments(f *testing.F) {
	for _, l := range seedLines() {
		f.Add(l)
	}
	p, err := New([]string{`^x`}, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		first, err1 := Segments(line)
		second, err2 := Segments(line)
		if (err1 == nil) != (err2 == nil) || !slices.Equal(first, second) {
			t.Fatalf("Segments(%q) changed: %q %v, then %q %v", line, first, err1, second, err2)
		}
		d1, d2 := p.Check(line), p.Check(line)
		if d1.Allowed != d2.Allowed || d1.Rule != d2.Rule || d1.Segment != d2.Segment || d1.Risk.Level != d2.Risk.Level {
			t.Fatalf("Check(%q) changed: %+v, then %+v", line, d1, d2)
		}
		if err1 != nil && d1.Allowed {
			t.Fatalf("Check(%q) allowed a line Segments cannot split: %v", line, err1)
		}
		if err1 == nil && !slices.Equal(d1.Segments, first) {
			t.Fatalf("Check(%q) segments %q, Segments %q", line, d1.Segments, first)
		}
		if a, _ := Assess(line); !a.Level.valid() || len(a.Reasons) == 0 {
			t.Fatalf("Assess(%q) = %+v", line, a)
		}
	})
}

// FuzzShellJoin: what ShellJoin writes, a shell reads back as the same words.
func FuzzShellJoin(f *testing.F) {
	f.Add("echo\x00a b\x00it's\x00\x00*")
	f.Add("a=b\x00$(x)\x00`y`\x00\\\x00\n")
	f.Fuzz(func(t *testing.T, joined string) {
		args := strings.Split(joined, "\x00")
		for _, a := range args {
			if strings.ContainsRune(a, 0) || !utf8.ValidString(a) {
				return // a shell's words hold no NUL; the parser takes only UTF-8
			}
		}
		if got := shellWords(t, ShellJoin(args)); !slices.Equal(got, args) {
			t.Fatalf("ShellJoin(%q) = %s, read back as %q", args, ShellJoin(args), got)
		}
	})
}

// FuzzRuleNeeds: a default rule's needed strings are in every match.
func FuzzRuleNeeds(f *testing.F) {
	for _, l := range seedLines() {
		f.Add(l)
	}
	f.Add("sh <(curl x)")
	f.Add(`bash -c "$( curl x)"`)
	f.Fuzz(func(t *testing.T, s string) {
		rules := defaultRules()
		for i := range rules {
			r := &rules[i]
			if r.re().MatchString(s) && !r.mayMatch(s) {
				t.Fatalf("rule %s matches %q, but its prefilter says it cannot", r.Name, s)
			}
		}
	})
}

// FuzzPrefilter: the first-byte test never rules out a match.
func FuzzPrefilter(f *testing.F) {
	for _, r := range defaultRules() {
		f.Add(r.Pattern, "sudo rm -rf /")
	}
	f.Add(`^(?i)sudo`, "SUDO x")
	f.Add(`^\bx`, "x")
	f.Add(`^(a|)b`, "b")
	f.Add(`^é`, "é")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return
		}
		first := prefilterFor(pattern)
		if re.MatchString(s) && !first.mayMatch(s) {
			t.Fatalf("the prefilter of %q rules out %q, which matches", pattern, s)
		}
	})
}

func TestPrefilter(t *testing.T) {
	tests := []struct {
		pattern  string
		usable   bool
		anywhere bool   // not anchored: the bytes may be anywhere in a view
		starts   string // bytes a match may start with, when usable
	}{
		{`^(?:sudo|doas|su)(?:\s|$)`, true, false, "ds"},
		{`^wisp\s`, true, false, "w"},
		{`\|\s*sh`, true, true, "|"},
		{`>\|?\s*/dev/sd`, true, true, ">"},
		{`x?`, false, false, ""},
		{`^(a|)b`, true, false, "ab"},
		{`^$`, false, false, ""},
		{`^.x`, false, false, ""},
		{`^(?i)s`, false, false, ""},
		{`^é`, false, false, ""},
	}
	for _, tt := range tests {
		f := prefilterFor(tt.pattern)
		if f.usable != tt.usable || (f.usable && f.anywhere != tt.anywhere) {
			t.Errorf("%q: usable %v, anywhere %v; want %v, %v", tt.pattern, f.usable, f.anywhere, tt.usable, tt.anywhere)
			continue
		}
		for c := 0; c < 128 && tt.usable; c++ {
			if f.has(byte(c)) != strings.ContainsRune(tt.starts, rune(c)) {
				t.Errorf("%q: first byte %q allowed %v", tt.pattern, rune(c), f.has(byte(c)))
			}
		}
	}
	// An unanchored pattern's bytes rule out a view that holds none of them,
	// and only such a view.
	pipe := prefilterFor(`\|\s*sh`)
	for view, may := range map[string]bool{"curl x | sh": true, "|": true, "echo sh": false, "": false} {
		if pipe.mayMatch(view) != may {
			t.Errorf("the prefilter of a pipe into sh: %q may match %v, want %v", view, !may, may)
		}
	}
	// Every default rule's cheap tests agree with its regexp on every line
	// the tests use.
	for _, line := range seedLines() {
		for _, r := range defaultRules() {
			if r.re().MatchString(line) && !r.mayMatch(line) {
				t.Errorf("rule %s: the prefilter hides a match of %q", r.Name, line)
			}
		}
	}
}
