package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

// `wisp __sandbox-exec`, the hidden helper that confines one command on
// Linux, never reaches cobra: the sandbox package runs it from its init,
// before the rest of wisp is even initialised (sandbox/dispatch.go).

func newSandboxCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "sandbox",
		Annotations: quick, // its subcommands too
		Short:       "Show what the kernel sandbox allows a command here",
		Args:        noArgs,
	}
	cmd.AddCommand(newSandboxProfileCmd(app), newSandboxReportCmd(app))
	return cmd
}

func newSandboxProfileCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "profile",
		Short: "Print the Seatbelt profile and parameters that would apply here",
		Long: `Profile prints the Seatbelt profile wisp gives sandbox-exec on macOS for a
command launched in this directory, then its -D parameters (the writable roots
and the protected paths) as comments, so the whole output is a valid profile.
It prints on any system; on Linux commands run under Landlock instead (see
wisp sandbox report).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSandboxProfile(app) },
	}
}

func newSandboxReportCmd(app *App) *cobra.Command {
	return &cobra.Command{
		Use:   "report",
		Short: "Say what the sandbox enforces here, and what it does not",
		Args:  noArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runSandboxReport(app) },
	}
}

func runSandboxProfile(app *App) error {
	spec, _, err := sandboxSpec(app)
	if err != nil {
		return err
	}
	return writeProfile(app.Stdout, spec)
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

func runSandboxReport(app *App) error {
	st, err := sandboxStatus(app)
	if err != nil {
		return err
	}
	for _, line := range st.Lines() {
		fmt.Fprintln(app.Stdout, line)
	}
	return sandboxHint(st.Err)
}

// sandboxSpec builds the spec a command launched here would run under.
func sandboxSpec(app *App) (sandbox.Spec, config.Config, error) {
	home, cfg, err := app.Config()
	if err != nil {
		return sandbox.Spec{}, cfg, err
	}
	launch, err := os.Getwd()
	if err != nil {
		return sandbox.Spec{}, cfg, fmt.Errorf("find the launch directory: %w", err)
	}
	userHome, err := app.UserHome()
	if err != nil {
		return sandbox.Spec{}, cfg, fmt.Errorf("find your home directory: %w", err)
	}
	spec, err := sandbox.NewSpec(specOptions(app, cfg, home, launch, userHome))
	spec = runner.PlannedNetwork(cfg, spec) // allowedDomains: the proxy's mode and lists
	return spec, cfg, sandboxHint(err)
}

func sandboxStatus(app *App) (sandbox.Status, error) {
	spec, _, err := sandboxSpec(app)
	if err != nil {
		return sandbox.Status{}, err
	}
	exe, err := app.Executable()
	if err != nil {
		return sandbox.Status{}, fmt.Errorf("find wisp's own binary for the sandbox helper: %w", err)
	}
	return sandbox.Report(exe, spec), nil
}

// doctorSandbox is `wisp doctor`'s sandbox line.
func doctorSandbox(app *App, _ config.Home) (string, error) {
	_, cfg, err := app.Config()
	if err != nil {
		return "", err
	}
	if !cfg.CommandPolicy.Sandbox.Enabled {
		return "off: commandPolicy.sandbox.enabled is false, so commands run unconfined", nil
	}
	st, err := sandboxStatus(app)
	if err == nil {
		err = st.Err
	}
	if err != nil {
		if h := hintOf(err); h != "" {
			return "", fmt.Errorf("%w (%s)", err, h)
		}
		return "", err
	}
	// The roots and protected paths it would use, under the summary line.
	detail := st.Summary()
	for _, line := range st.Lines() {
		if hasAnyPrefix(line, "writable: ", "protected: ", "not covered: ", "unreadable: ", "readable again: ", "NOT unreadable: ", "environment: ") {
			detail += "\n              " + line
		}
	}
	return detail, nil
}

// sandboxHint adds the sandbox's own hint, where its error has one, as a
// `wisp: hint:` line.
func sandboxHint(err error) error {
	if h := hintOf(err); h != "" {
		return withHint(err, h)
	}
	return err
}

func hintOf(err error) string {
	var h interface{ Hint() string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return ""
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
