// Command wisp is a local coding agent whose every shell command runs
// behind the operator's lists, under a kernel sandbox, with a person's
// approval where the risk calls for it.
//
// This is the lean wisp: it links internal/cli alone (run, version, config,
// approvals, policy, logs, sandbox), none of the model, MCP, terminal-UI,
// HTTP or D-Bus code whose initialisers would run at its every start, and
// hands every other command to wisp-agent beside it (docs/architecture.md,
// layer 7; TestLeanBuildLinksNoFace holds it).
package main

import (
	"context"
	"os"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/launch"
	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
)

func main() {
	// wisp can be its own sandbox helper (no wisp-sandbox beside it): the
	// helper runs before anything else, and never returns.
	sandbox.MaybeHelperMain()
	// A bare wisp on a terminal is a chat, as claude, codex and aider start one.
	args := launch.BareArgs(os.Args[1:], cli.IsTerminal(os.Stdin), cli.IsTerminal(os.Stdout))
	cli.HandOff(args) // the agent's commands are wisp-agent's
	f := app.New()
	f.BeforeSession = cli.HandOffForProxy // a run that wants the network proxy is wisp-agent's too
	// Ctrl-C and SIGTERM cancel the context of the commands that wait on
	// something (run's command): run watches them for those.
	os.Exit(cli.Run(context.Background(), f, args, nil))
}
