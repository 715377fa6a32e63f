// Command wisp is a local coding agent whose every shell command runs
// behind the operator's lists, under a kernel sandbox, with a person's
// approval where the risk calls for it.
package main

import (
	"context"
	"os"

	"github.com/wisp-sh/wisp/sandbox"
)

func main() {
	// wisp can be its own sandbox helper (no wisp-sandbox beside it): the
	// helper runs before anything else, and never returns.
	sandbox.MaybeHelperMain()
	handOff(os.Args[1:]) // the lean build's faces are wisp-agent's (faces_lean.go)
	// Ctrl-C and SIGTERM cancel the context of the commands that wait on
	// something (run's command, chat's model): run watches them for those.
	os.Exit(run(context.Background(), newApp(), os.Args[1:]))
}
