package refusal

import (
	"slices"
	"testing"
)

// TestSetIDModeLines: a mode change refused with EPERM is the sandbox's
// set-ID rule, as each tool words it; a quoted message (a Go test's got:
// and want:) names no path; other refusals keep their verdicts.
func TestSetIDModeLines(t *testing.T) {
	defer setGOOS("linux")()
	for _, tc := range []struct {
		name, output string
		verdict      Verdict
		paths        []string
	}{
		{"GNU chmod", "chmod: changing permissions of 'tool': Operation not permitted\n", SetIDMode, []string{"/w/proj/tool"}},
		{"GNU install", "install: cannot change permissions of 'inst': Operation not permitted\n", SetIDMode, []string{"/w/proj/inst"}},
		{"GNU cp -p", "cp: preserving permissions for 'copied': Operation not permitted\n", SetIDMode, []string{"/w/proj/copied"}},
		{"Go's PathError in a test", "    tool_test.go:12: chmod /w/proj/tool: operation not permitted\n", SetIDMode, []string{"/w/proj/tool"}},
		{"Node", "Error: EPERM: operation not permitted, chmod '/w/proj/tool'\n", SetIDMode, []string{"/w/proj/tool"}},
		{"Python under os.chmod", "    os.chmod(\"p\", 0o4755)\nPermissionError: [Errno 1] Operation not permitted: 'p'\n", SetIDMode, []string{"/w/proj/p"}},
		{"a Go test's quoted output", "            got:  \"chmod: changing permissions of 'a': Operation not permitted\\nexit status 1\"\n", SetIDMode, nil},
		{"a Go test's quoted want names no path", "            want: \"cd: permission denied: \\\"a\\\"\\nexit status 1\"\n", Guess, nil},
		{"rm of an immutable file is no mode change", "rm: cannot remove 'immutable': Operation not permitted\n", NotTheSandbox, []string{"/w/proj/immutable"}},
		{"a mode change refused by Landlock outside the roots", "chmod: changing permissions of '/etc/x': Permission denied\n", Refused, []string{"/etc/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Check(Input{Output: []byte(tc.output), Dir: "/w/proj", Home: "/w/home", Roots: []string{"/w/proj"}, Resolve: func(p string) string { return p }})
			if r.Verdict != tc.verdict || !slices.Equal(r.Paths, tc.paths) {
				t.Errorf("got %q %q, want %q %q", r.Verdict, r.Paths, tc.verdict, tc.paths)
			}
			if tc.verdict == SetIDMode && (r.Certain() != (len(tc.paths) > 0) || !r.BySandbox()) {
				t.Errorf("Certain %v BySandbox %v: a named file is certain, a quoted message a maybe", r.Certain(), r.BySandbox())
			}
		})
	}
}
