package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// exactArgs and maxArgs are cobra's validators with usage errors that say
// what was expected.
func exactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageError{fmt.Errorf("%s takes %d argument(s), but was given %d; usage: %s", cmd.CommandPath(), n, len(args), cmd.UseLine())}
		}
		return nil
	}
}

func maxArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n {
			return usageError{fmt.Errorf("%s takes at most %d argument(s), but was given %d; usage: %s", cmd.CommandPath(), n, len(args), cmd.UseLine())}
		}
		return nil
	}
}

func joinLines(items []string, sep string) string { return strings.Join(items, sep) }
