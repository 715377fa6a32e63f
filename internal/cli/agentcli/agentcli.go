// Package agentcli holds the agent's commands: chat, respond (and the bare
// prompt), mcp, tui, threads, undo and doctor. They link the model client, the
// MCP SDK, the terminal UI, HTTP and the desktop bus, whose initialisers
// run at every start of the binary that links them; so only wisp-agent
// links this package, and the lean wisp (internal/cli alone) hands these
// commands to it (docs/architecture.md, layers 6 and 7).
package agentcli

import (
	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/app"
)

// Add adds the agent's commands to wisp's root (cli.AddCommands). A new
// command that talks to a model or a client goes here.
func Add(root *cobra.Command, f *app.Factory) {
	addBarePrompt(root, f) // wisp "PROMPT" is wisp respond "PROMPT"
	root.AddCommand(newChatCmd(f), newRespondCmd(f), newMCPCmd(f), newTUICmd(f), newThreadsCmd(f),
		newUndoCmd(f), newDoctorCmd(f)) // doctor asks the model server and the desktop bus: HTTP and D-Bus
}
