package agentcli

import (
	"errors"
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/cli"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/sandbox"
)

// doctorCheck is one line of `wisp doctor`: a name and a function that
// returns what it found, or an error that says what to do.
type doctorCheck struct {
	name string
	run  func() (string, error)
}

func newDoctorCmd(f *app.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Check wisp's home, configuration and sandbox, one line each",
		Args:  cli.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDoctor(f)
		},
	}
}

func runDoctor(f *app.Factory) error {
	home, err := f.HomePath() // doctor runs with a home wisp does not trust, to say so
	if err != nil {
		return err
	}
	failed := 0
	for _, c := range doctorChecks(f, home) {
		detail, err := c.run()
		if invalid := (*config.InvalidError)(nil); c.name != "config" && errors.As(err, &invalid) {
			err = errConfigInvalid // the config line said what and where, once
		}
		if w := (doctorWarning{}); errors.As(err, &w) {
			fmt.Fprintf(f.Stdout, "WARN %-8s %v\n", c.name, w.err) // said, but not a failure of wisp's own
			continue
		}
		if err != nil {
			failed++
			fmt.Fprintf(f.Stdout, "FAIL %-8s %v\n", c.name, err)
			continue
		}
		fmt.Fprintf(f.Stdout, "ok   %-8s %s\n", c.name, detail)
	}
	if failed > 0 {
		return &cli.ExitError{Code: cli.ExitFailure, Quiet: true}
	}
	return nil
}

// errHomeUnsafe stands for the checks that read the home when the home
// line failed: what they would read is not to be trusted.
var errHomeUnsafe = errors.New("not checked: wisp does not read a home it cannot trust (see the home line)")

// errConfigInvalid stands for an invalid config.json on the lines after
// the config line, which names the problem and where it is.
var errConfigInvalid = errors.New("not checked: config.json is invalid (see the config line)")

// doctorChecks lists the checks in the order they print. Later features
// append theirs.
func doctorChecks(f *app.Factory, home config.Home) []doctorCheck {
	homeErr := home.Check(os.Geteuid())
	return []doctorCheck{
		{"home", func() (string, error) { return doctorHome(home, homeErr) }},
		{"config", func() (string, error) {
			if homeErr != nil {
				return "", errHomeUnsafe
			}
			if _, err := config.Load(home); err != nil {
				return "", err
			}
			return home.ConfigFile() + " is valid", nil
		}},
		{"sandbox", func() (string, error) {
			if homeErr != nil {
				return "", errHomeUnsafe
			}
			return doctorSandbox(f, home)
		}},
		{"apparmor", func() (string, error) { return doctorAppArmor(f, homeErr) }},
		{"approval", func() (string, error) {
			if homeErr != nil {
				return "", errHomeUnsafe
			}
			return doctorThreshold(f)
		}},
		{"wisp-bar", func() (string, error) { return doctorBar(home) }},      // what the menu-bar helper can reach, or on a Mac whether its banners show
		{"model", func() (string, error) { return doctorModel(f, homeErr) }}, // the server answers and has the model
	}
}

// doctorThreshold is the approval line: which threshold applies and why.
// Doctor has no --unsafe, so the sandbox is off only by the config key.
func doctorThreshold(f *app.Factory) (string, error) {
	_, cfg, err := f.Config()
	if err != nil {
		return "", err
	}
	c := approval.Confined
	switch {
	case !cfg.CommandPolicy.Sandbox.Enabled:
		c = approval.SandboxOff
	case sandbox.Nested():
		c = approval.Nested
	}
	// The chat's threshold: wisp run --ask takes no checkpoints and keeps
	// the sandbox's own.
	return "threshold " + approval.ResolveUndoThreshold(cfg.Approval.Threshold, c, cfg.Checkpoints.Enabled).String() +
		"; outside-sandbox runs ask every time", nil
}

// doctorHome is the home line: the same check every other command makes
// before it reads the home, with its fix.
func doctorHome(home config.Home, err error) (string, error) {
	var unsafe *config.UnsafeError
	if errors.As(err, &unsafe) {
		return "", fmt.Errorf("%w; fix: %s", err, unsafe.Fix)
	}
	if err != nil {
		return "", err
	}
	info, statErr := os.Stat(home.Dir)
	if statErr != nil {
		return home.Dir + " does not exist yet; wisp creates it (0700) on first use", nil
	}
	return fmt.Sprintf("%s (%04o, yours, no one else can change it or its files)", home.Dir, info.Mode().Perm()), nil
}
