package cli

import (
	"fmt"
	"io"
	"runtime"
	"strconv"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

// `wisp __sandbox-exec`, the hidden helper that confines one command on
// Linux, never reaches cobra: the sandbox package runs it from its init,
// before the rest of wisp is even initialised (sandbox/dispatch.go).

func newSandboxCmd(f *app.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "sandbox",
		Annotations: Quick, // its subcommands too
		Short:       "Show what the kernel sandbox allows a command here",
		Args:        NoArgs,
	}
	cmd.AddCommand(newSandboxProfileCmd(f), newSandboxReportCmd(f))
	return cmd
}

func newSandboxProfileCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "profile",
		Short: "Print the Seatbelt profile and parameters that would apply here",
		Long: `Profile prints the Seatbelt profile wisp gives sandbox-exec on macOS for a
command launched in this directory, then its -D parameters (the writable roots
and the protected paths) as comments, so the whole output is a valid profile.
It prints on any system; on Linux commands run under Landlock instead (see
wisp sandbox report).`,
		Args: NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSandboxProfile(f) },
	}
}

func newSandboxReportCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "report",
		Short: "Say what the sandbox enforces here, and what it does not",
		Args:  NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runSandboxReport(f) },
	}
}

func runSandboxProfile(f *app.Factory) error {
	spec, _, err := app.SandboxSpec(f)
	if err != nil {
		return err
	}
	return writeProfile(f.Stdout, spec)
}

func writeProfile(w io.Writer, spec sandbox.Spec) error {
	network := "on"
	if !spec.Network {
		network = "off"
	}
	fmt.Fprintf(w, "; wisp's Seatbelt profile for %s (network %s)\n", displayPath(spec.Roots[0]), network)
	if runtime.GOOS != "darwin" {
		fmt.Fprintf(w, "; on %s wisp confines commands with Landlock instead: wisp sandbox report\n", runtime.GOOS)
	}
	fmt.Fprint(w, seatbelt.Profile(spec))
	fmt.Fprintln(w, "\n; sandbox-exec parameters:")
	for _, p := range seatbelt.Params(spec) {
		if _, err := fmt.Fprintf(w, "; -D %s=%s\n", p.Name, displayPath(p.Value)); err != nil {
			return err
		}
	}
	return nil
}

// displayPath quotes a path only when it holds something a comment line
// could not show as it is (a newline, say).
func displayPath(p string) string {
	if q := strconv.Quote(p); q[1:len(q)-1] != p {
		return q
	}
	return p
}

func runSandboxReport(f *app.Factory) error {
	st, err := app.SandboxStatus(f)
	if err != nil {
		return err
	}
	for _, line := range st.Lines() {
		fmt.Fprintln(f.Stdout, line)
	}
	return st.Err // its hint, if any, is printed under it (hintsFor)
}
