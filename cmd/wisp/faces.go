//go:build !wisplean

package main

import (
	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/config"
)

// addFaces adds the agent's faces: respond (and the bare prompt), chat,
// mcp and tui. They link the model client, the MCP SDK and the terminal
// UI, whose initialisers run at every start of the binary that links
// them, `wisp run` and `wisp version` included. This build has them all,
// as go install and the tests build it; make builds wisp lean instead
// (faces_lean.go), with these in wisp-agent beside it. A new face goes
// here, and its file carries the same //go:build !wisplean line.
func addFaces(root *cobra.Command, app *App) {
	addBarePrompt(root, app) // wisp "PROMPT" is wisp respond "PROMPT"
	root.AddCommand(newChatCmd(app), newRespondCmd(app), newMCPCmd(app), newTUICmd(app), newThreadsCmd(app),
		newDoctorCmd(app)) // doctor asks the model server and the desktop bus: HTTP and D-Bus
}

// handOff is the lean build's: this one runs every command itself.
func handOff([]string) {}

// handOffForProxy is the lean build's too: this one has wisp's network proxy.
func handOffForProxy(config.Config) error { return nil }
