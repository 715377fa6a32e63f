// Command wisp-agent is wisp with the agent's commands: chat, respond and
// the bare prompt, mcp, tui, threads and doctor, beside the lean commands
// wisp runs itself. The lean wisp execs it, found beside itself, for those
// commands and for a run that wants wisp's network proxy; it runs the same
// when started by its own name (docs/architecture.md, layer 7).
package main

import (
	"context"
	"os"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/cli/agentcli"
	"github.com/wisp-sh/wisp/internal/launch"
	_ "github.com/wisp-sh/wisp/internal/netproxy/httpproxy" // the network proxy's HTTP front, which the lean wisp leaves out
	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
)

func main() {
	// wisp-agent, too, can be its own sandbox helper: first, and never
	// returns.
	sandbox.MaybeHelperMain()
	// Ctrl-C and SIGTERM cancel the context of the commands that wait on
	// something (run's command, chat's model): run watches them for those.
	os.Exit(run())
}

// run is one wisp-agent invocation, and its exit code: the tests' binary
// runs it when started as wisp.
func run() int {
	// A bare wisp-agent on a terminal is a chat, as a bare wisp is.
	args := launch.BareArgs(os.Args[1:], cli.IsTerminal(os.Stdin), cli.IsTerminal(os.Stdout))
	return cli.Run(context.Background(), app.New(), args, agentcli.Add)
}
