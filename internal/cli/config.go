package cli

import (
	"errors"
	"fmt"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
)

func newConfigCmd(f *app.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:         "config",
		Annotations: Quick, // its subcommands too
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
			Args:  NoArgs,
			RunE: func(*cobra.Command, []string) error {
				home, err := f.HomePath() // runs with an unsafe home, to find it
				if err != nil {
					return err
				}
				_, err = fmt.Fprintln(f.Stdout, home.ConfigFile())
				return err
			},
		},
		&cobra.Command{
			Use:   "get [KEY]",
			Short: "Print the configuration, or one key of it, with defaults filled in",
			Args:  MaxArgs(1),
			RunE: func(_ *cobra.Command, args []string) error {
				key := ""
				if len(args) == 1 {
					key = args[0]
				}
				return runConfigGet(f, key)
			},
		},
		&cobra.Command{
			Use:   "set KEY VALUE",
			Short: "Change one key of config.json",
			Long: "Change one key of config.json, keeping the rest of the file as it is.\n\nKeys it sets:\n  " +
				joinLines(config.SettableKeys, "\n  "),
			Args: ExactArgs(2),
			RunE: func(_ *cobra.Command, args []string) error {
				return runConfigSet(f, args[0], args[1])
			},
		},
	)
	return cmd
}

// thresholdUnset is what `config get approval.threshold` prints for an
// unset key: which default applies, as `wisp doctor` says for this system.
const thresholdUnset = "(unset: high while commands are confined, moderate with the sandbox off or nested; see wisp doctor)"

func runConfigGet(f *app.Factory, key string) error {
	_, cfg, err := f.Config()
	if err != nil {
		return err
	}
	out, err := config.Get(cfg, key)
	if err != nil {
		return app.UsageError{Err: err}
	}
	if key == "approval.threshold" && cfg.Approval.Threshold == "" {
		out = []byte(thresholdUnset) // "" would read as no threshold at all
	}
	_, err = fmt.Fprintf(f.Stdout, "%s\n", out)
	return err
}

func runConfigSet(f *app.Factory, key, value string) error {
	home, err := f.Home()
	if err != nil {
		return err
	}
	if err := config.Set(home, key, value); err != nil {
		if errors.Is(err, config.ErrKeyNotSettable) {
			return app.UsageError{Err: err}
		}
		var invalid *config.InvalidError
		if !errors.As(err, &invalid) {
			return app.UsageError{Err: err}
		}
		return err
	}
	_, err = fmt.Fprintf(f.Stdout, "%s = %s\n", key, value)
	return err
}
