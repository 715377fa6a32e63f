package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
)

func newConfigCmd(app *App) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "config",
		Annotations: quick, // its subcommands too
		Short:       "Show and change wisp's configuration (config.json)",
		Long: `Show and change config.json in wisp's home (~/.wisp, or $WISP_HOME).

Every key is optional; a missing key takes its default. "wisp config set"
changes only the keys listed in its help; the command lists are edited by hand.
An invalid config.json is never overwritten.`,
	}
	cmd.AddCommand(
		&cobra.Command{
			Use:   "path",
			Short: "Print the path of config.json",
			Args:  noArgs,
			RunE: func(*cobra.Command, []string) error {
				home, err := app.HomePath() // runs with an unsafe home, to find it
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(app.Stdout, home.ConfigFile())
				return err
			},
		},
		&cobra.Command{
			Use:   "get [KEY]",
			Short: "Print the configuration, or one key of it, with defaults filled in",
			Args:  maxArgs(1),
			RunE: func(_ *cobra.Command, args []string) error {
				key := ""
				if len(args) == 1 {
					key = args[0]
				}
				return runConfigGet(app, key)
			},
		},
		&cobra.Command{
			Use:   "set KEY VALUE",
			Short: "Change one key of config.json",
			Long: "Change one key of config.json, keeping the rest of the file as it is.\n\nKeys it sets:\n  " +
				joinLines(config.SettableKeys, "\n  "),
			Args: exactArgs(2),
			RunE: func(_ *cobra.Command, args []string) error {
				return runConfigSet(app, args[0], args[1])
			},
		},
	)
	return cmd
}

// thresholdUnset is what `config get approval.threshold` prints for an
// unset key: which default applies, as `wisp doctor` says for this system.
const thresholdUnset = "(unset: high while commands are confined, moderate with the sandbox off or nested; see wisp doctor)"

func runConfigGet(app *App, key string) error {
	_, cfg, err := app.Config()
	if err != nil {
		return err
	}
	out, err := config.Get(cfg, key)
	if err != nil {
		return usageError{err}
	}
	if key == "approval.threshold" && cfg.Approval.Threshold == "" {
		out = []byte(thresholdUnset) // "" would read as no threshold at all
	}
	_, err = fmt.Fprintf(app.Stdout, "%s\n", out)
	return err
}

func runConfigSet(app *App, key, value string) error {
	home, err := app.Home()
	if err != nil {
		return err
	}
	if err := config.Set(home, key, value); err != nil {
		if errors.Is(err, config.ErrKeyNotSettable) {
			return usageError{err}
		}
		var invalid *config.InvalidError
		if !errors.As(err, &invalid) {
			return usageError{err}
		}
		return err
	}
	_, err = fmt.Fprintf(app.Stdout, "%s = %s\n", key, value)
	return err
}
