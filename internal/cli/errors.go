package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/config"
)

// Exit codes. Scripts depend on them: docs list them, never renumber.
const (
	ExitOK          = 0
	ExitFailure     = 1
	ExitUsage       = 2 // a usage mistake, an invalid config, or a home others could change
	ExitDenied      = 3 // denied by the operator's policy
	ExitNotApproved = 4 // a person did not approve, or nobody could be asked
)

// ExitError carries an exit code. A quiet one has already said what it had
// to say (wisp run passes on its command's own status this way).
type ExitError struct {
	Code  int
	Err   error
	Quiet bool
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}
func (e *ExitError) Unwrap() error { return e.Err }

// Hinter is an error that says what the person can do about it: one line,
// or several separated by newlines, each printed as `wisp: hint: …`. Every
// error type of wisp's that has a fix says it through this one method.
type Hinter interface {
	error
	Hint() string
}

// hinted adds `wisp: hint:` lines under an error.
type hinted struct {
	err   error
	hints []string
}

func (e hinted) Error() string { return e.err.Error() }
func (e hinted) Unwrap() error { return e.err }
func (e hinted) Hint() string  { return strings.Join(e.hints, "\n") }

// WithHint adds hints to err, printed under it, before any of its own.
func WithHint(err error, hints ...string) error { return hinted{err, hints} }

// ExitCode is the status wisp exits with for err.
func ExitCode(err error) int {
	var ee *ExitError
	var invalid *config.InvalidError
	var unsafe *config.UnsafeError
	switch {
	case errors.As(err, &ee):
		return ee.Code
	case errors.As(err, &invalid), errors.As(err, &unsafe), app.IsUsage(err), isCobraUsage(err):
		return ExitUsage
	}
	return ExitFailure
}

// PrintError writes err in wisp's voice: `wisp: error: …` then any hints.
func PrintError(w io.Writer, err error) {
	msg := err.Error()
	fmt.Fprintf(w, "wisp: error: %s\n", msg)
	for _, h := range hintsFor(err) {
		fmt.Fprintf(w, "wisp: hint: %s\n", h)
	}
}

// hintsFor is the one reader of hints: the outermost Hinter in err's chain
// says them, so a hint added where the error is understood best wins.
func hintsFor(err error) []string {
	var h Hinter
	if errors.As(err, &h) {
		var hints []string
		for _, line := range strings.Split(h.Hint(), "\n") {
			if line != "" {
				hints = append(hints, line)
			}
		}
		if _, ok := h.(*config.UnsafeError); ok {
			hints = append(hints, "wisp changes nothing there itself; wisp doctor checks again")
		}
		return hints
	}
	if isCobraUsage(err) {
		return []string{"run wisp help, or wisp help COMMAND, for the commands and their flags"}
	}
	return nil
}

// isCobraUsage recognises the errors cobra makes itself for an unknown
// command or flag, which carry no type to test.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") ||
		strings.HasPrefix(msg, "unknown shorthand flag") || strings.Contains(msg, "flag needs an argument") ||
		strings.HasPrefix(msg, "invalid argument")
}

// NoArgs is cobra.NoArgs with a usage error that says what was extra.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return app.UsageError{Err: fmt.Errorf("%s takes no arguments, but was given %s", cmd.CommandPath(), strings.Join(args, " "))}
	}
	return nil
}
