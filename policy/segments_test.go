package policy

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestSegments(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{"cd src && go test ./... | tee out.txt", []string{"cd src", "go test ./...", "tee out.txt"}},
		{"a\tb\n  c ;d", []string{"a b", "c", "d"}},
		{`echo "a b" 'c' d\ e`, []string{"echo 'a b' c 'd e'"}},
		{`"su"do -u 'x'`, []string{"sudo -u x"}},
		{"FOO=1 BAR='x y' make all", []string{"FOO=1 BAR='x y' make all"}},
		{"echo $(date) && ls", []string{"echo $(date)", "date", "ls"}},
		{"echo `date`", []string{"echo `date`", "date"}},
		{"(a; b) | { c; }", []string{"a", "b", "c"}},
		{"if a; then b; elif c; then d; else e; fi", []string{"a", "b", "c", "d", "e"}},
		{"for f in *.go; do gofmt -l $f; done", []string{"gofmt -l $f"}},
		{"while read l; do echo $l; done < x", []string{"read l", "echo $l"}},
		{"case $x in a) b;; *) c;; esac", []string{"b", "c"}},
		{"f() { a; }; f", []string{"a", "f"}},
		{"diff <(ls a) >(wc -l)", []string{"diff <(ls a) >(wc -l)", "ls a", "wc -l"}},
		{"bash -c 'ls; pwd'", []string{"bash -c 'ls; pwd'", "ls", "pwd"}},
		{`eval "a && b"`, []string{"eval 'a && b'", "a", "b"}},
		{"find . -name '*.go' -exec gofmt -l {} +", []string{"find . -name '*.go' -exec gofmt -l {} +", "gofmt -l {}"}},
		{"ls *.go ~/x", []string{"ls *.go ~/x"}},
		{`ls "*.go" '~'`, []string{"ls '*.go' '~'"}},
		{`rm "my file"*`, []string{"rm 'my file'*"}},
		{"x=1", nil},
		{"export A=1 B", []string{"export A=1 B"}},
		{"cat <<EOF\nhello $(id)\nEOF", []string{"cat", "id"}},
		{"", nil},
		{"# a comment", nil},
		{`echo $'a\tb'`, []string{"echo 'a\tb'"}},
	}
	for _, tt := range tests {
		got, err := Segments(tt.line)
		if err != nil {
			t.Errorf("Segments(%q): %v", tt.line, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Segments(%q)\n got %q\nwant %q", tt.line, got, tt.want)
		}
	}
}

func TestSegmentsError(t *testing.T) {
	_, err := Segments(`echo "abc`)
	if err == nil || !strings.Contains(err.Error(), "reached EOF without closing quote") {
		t.Fatalf("Segments of an unclosed quote: %v; want the parser's message", err)
	}
}

// A segment's canonical text, parsed again, is that same segment: the
// canonical form means to the shell what the line meant.
func TestSegmentTextIsCanonical(t *testing.T) {
	for _, line := range []string{
		`"su"do -u 'a b' $'\x41' "it's" x\ y`, "ls *.go '*.go' ~ '~' a'b c'*", `echo "" '' x`,
		"FOO='a b' env -i x", `printf '%s\n' "$HOME"`,
	} {
		segs, err := Segments(line)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range segs {
			again, err := Segments(s)
			if err != nil || len(again) != 1 || again[0] != s {
				t.Errorf("%q: segment %q parses again as %q (%v)", line, s, again, err)
			}
		}
	}
}

func TestShellJoin(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"ls"}, "ls"},
		{[]string{"echo", "a b"}, "echo 'a b'"},
		{[]string{"echo", "it's"}, `echo 'it'\''s'`},
		{[]string{"x", ""}, "x ''"},
		{[]string{"a=b", "x"}, "'a=b' x"},
		{[]string{"x", "a=b"}, "x a=b"},
		{[]string{"ls", "*", "~", "$HOME", "a;b", "#c"}, `ls '*' '~' '$HOME' 'a;b' '#c'`},
		{[]string{"git", "commit", "-m", "fix: x\ny"}, "git commit -m 'fix: x\ny'"},
		{[]string{"echo", "é"}, "echo é"},
		{nil, ""},
	}
	for _, tt := range tests {
		if got := ShellJoin(tt.args); got != tt.want {
			t.Errorf("ShellJoin(%q) = %s; want %s", tt.args, got, tt.want)
		}
	}
}

// shellWords parses line and returns the values of its one command's words.
func shellWords(t testing.TB, line string) []string {
	t.Helper()
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		t.Fatalf("%q does not parse: %v", line, err)
	}
	if len(f.Stmts) != 1 {
		t.Fatalf("%q is %d statements, not one", line, len(f.Stmts))
	}
	call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 {
		t.Fatalf("%q is not one simple command without assignments", line)
	}
	var b valueBuilder
	var out []string
	for _, w := range call.Args {
		b.reset()
		if !b.collect(w.Parts, false) {
			t.Fatalf("%q: word %d is not literal", line, len(out))
		}
		out = append(out, string(b.value))
	}
	return out
}

func TestShellJoinRoundTrip(t *testing.T) {
	for _, args := range [][]string{
		{"echo", "a b", "it's", "", "*", "$(x)", "`x`", "a\\b", "\"q\"", "new\nline", "tab\t", "!", "{a,b}"},
		{"a=b"}, {"#x", "y"},
	} {
		if got := shellWords(t, ShellJoin(args)); !slices.Equal(got, args) {
			t.Errorf("ShellJoin(%q) = %s, which a shell reads as %q", args, ShellJoin(args), got)
		}
	}
}

func TestDecodeANSIC(t *testing.T) {
	tests := map[string]string{
		`\x73udo`: "sudo", `\163udo`: "sudo", `\u0073udo`: "sudo", `\U00000073udo`: "sudo",
		`a\tb\n`: "a\tb\n", `\'`: "'", `\\`: `\`, `\cA`: "\x01", `\e`: "\x1b", `\q`: `\q`, `x\`: `x\`,
	}
	for in, want := range tests {
		if got := decodeANSIC(in); got != want {
			t.Errorf("decodeANSIC(%q) = %q; want %q", in, got, want)
		}
	}
}
