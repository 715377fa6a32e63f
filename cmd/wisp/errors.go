package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
)

// Exit codes. Scripts depend on them: docs list them, never renumber.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2 // a usage mistake, an invalid config, or a home others could change
	exitDenied      = 3 // denied by the operator's policy
	exitNotApproved = 4 // a person did not approve, or nobody could be asked
)

// usageError marks a mistake in how wisp was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitError carries an exit code. A quiet one has already said what it had
// to say (wisp run passes on its command's own status this way).
type exitError struct {
	code  int
	err   error
	quiet bool
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}
func (e *exitError) Unwrap() error { return e.err }

// hinted adds `wisp: hint:` lines under an error.
type hinted struct {
	err   error
	hints []string
}

func (e hinted) Error() string { return e.err.Error() }
func (e hinted) Unwrap() error { return e.err }

func withHint(err error, hints ...string) error { return hinted{err, hints} }

func exitCode(err error) int {
	var ee *exitError
	var invalid *config.InvalidError
	var unsafe *config.UnsafeError
	var usage usageError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.As(err, &invalid), errors.As(err, &unsafe), errors.As(err, &usage), isCobraUsage(err):
		return exitUsage
	}
	return exitFailure
}

// printError writes err in wisp's voice: `wisp: error: …` then any hints.
func printError(w io.Writer, err error) {
	msg := err.Error()
	fmt.Fprintf(w, "wisp: error: %s\n", msg)
	for _, h := range hintsFor(err) {
		fmt.Fprintf(w, "wisp: hint: %s\n", h)
	}
}

func hintsFor(err error) []string {
	var h hinted
	if errors.As(err, &h) {
		return h.hints
	}
	var invalid *config.InvalidError
	if errors.As(err, &invalid) {
		return []string{fmt.Sprintf("fix %s by hand; wisp never overwrites an invalid config", invalid.Path)}
	}
	var unsafe *config.UnsafeError
	if errors.As(err, &unsafe) {
		return []string{unsafe.Fix, "wisp changes nothing there itself; wisp doctor checks again"}
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

// noArgs is cobra.NoArgs with a usage error that says what was extra.
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("%s takes no arguments, but was given %s", cmd.CommandPath(), strings.Join(args, " "))}
	}
	return nil
}
