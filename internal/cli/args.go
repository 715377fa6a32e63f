package cli

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/app"

	"github.com/spf13/cobra"
)

// ExactArgs and MaxArgs are cobra's validators with usage errors that say
// what was expected.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return app.UsageError{Err: fmt.Errorf("%s takes %d argument(s), but was given %d; usage: %s", cmd.CommandPath(), n, len(args), cmd.UseLine())}
		}
		return nil
	}
}

func MaxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return app.UsageError{Err: fmt.Errorf("%s takes at most %d argument(s), but was given %d; usage: %s", cmd.CommandPath(), n, len(args), cmd.UseLine())}
		}
		return nil
	}
}

func joinLines(items []string, sep string) string { return strings.Join(items, sep) }
