package cli

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/sandbox"
)

// Every error that says what to do says it through Hint, and PrintError
// prints it under the error however deep it is wrapped; a hint added
// where the error is understood best is said instead of the inner one.
func TestPrintErrorSaysEveryHint(t *testing.T) {
	root := &sandbox.RootError{What: "the launch directory", Err: sandbox.ErrRootIsSlash}
	for _, tc := range []struct {
		name string
		err  error
		want string
		code int
	}{
		{"plain", errors.New("it broke"), "wisp: error: it broke\n", ExitFailure},
		{"the sandbox's, wrapped", fmt.Errorf("start: %w", root),
			"wisp: error: start: " + root.Error() + "\nwisp: hint: " + root.Hint() + "\n", ExitFailure},
		{"one added over it", WithHint(root, "start wisp mcp in the project's folder"),
			"wisp: error: " + root.Error() + "\nwisp: hint: start wisp mcp in the project's folder\n", ExitFailure},
		{"several", WithHint(errors.New("no agent"), "install wisp again", "or run make install"),
			"wisp: error: no agent\nwisp: hint: install wisp again\nwisp: hint: or run make install\n", ExitFailure},
		{"an invalid config", &config.InvalidError{Path: "/h/config.json", Problems: []string{"bad key"}},
			"wisp: error: /h/config.json is invalid: bad key\nwisp: hint: fix /h/config.json by hand; wisp never overwrites an invalid config\n", ExitUsage},
		{"a home others could change", &config.UnsafeError{Path: "/h", Problem: "is writable by others", Fix: "chmod go-w /h"},
			"", ExitUsage},
		{"a usage mistake", app.UsageError{Err: errors.New("wisp run needs a command line")},
			"wisp: error: wisp run needs a command line\n", ExitUsage},
	} {
		var out bytes.Buffer
		PrintError(&out, tc.err)
		if tc.want == "" {
			tc.want = "wisp: error: " + tc.err.Error() + "\nwisp: hint: chmod go-w /h\nwisp: hint: wisp changes nothing there itself; wisp doctor checks again\n"
		}
		if out.String() != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, out.String(), tc.want)
		}
		if got := ExitCode(tc.err); got != tc.code {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.code)
		}
	}
}
