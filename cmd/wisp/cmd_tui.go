//go:build !wisplean

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tui"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/sandbox"
)

func newTUICmd(app *App) *cobra.Command {
	var opts chatOptions
	cmd := &cobra.Command{
		Use:   "tui [--resume [ID]]",
		Short: "Talk with the model full-screen: the chat with input modes, a status line and the requests waiting",
		Long: `The chat on the whole terminal: the same agent, lists, sandbox, approvals and
thread records as wisp chat. Type a message; ! at the start of the box turns
it amber (command mode: Enter runs the line yourself in the sandbox), a second
! turns it red (outside mode: Enter runs it OUTSIDE the sandbox). Backspace at
the start steps back a mode. Ctrl-O lists the requests waiting in the pending
channel, from any wisp, answered there. /help says more; docs/tui.md has it all.`,
		Example: `  wisp tui
  wisp tui --resume`,
		Args: resumeArgs(&opts),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTUI(cmd.Context(), app, opts.resumed(args))
		},
	}
	conversationFlags(cmd, &opts)
	return cmd
}

// errNoTerminal: the full screen needs one; a pipe has wisp chat --json.
var errNoTerminal = errors.New("wisp tui needs a terminal on stdin and stdout; from a pipe or a program, use wisp chat --json")

func runTUI(ctx context.Context, app *App, opts chatOptions) error {
	tty := openTTY(app)
	if tty == nil {
		return errNoTerminal
	}
	defer tty.Close()
	s, err := newSession(app, opts.runnerOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, stop := chatSignals(ctx)
	defer stop()
	face := tui.NewFace()
	s.wireGate(gateOptions{face: pending.FaceTUI, yes: opts.yes, extra: []approval.Approver{&tui.Approver{Face: face}}})
	hist, err := chat.OpenHistory(filepath.Join(s.home.Dir, "history"))
	if err != nil {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· no saved history: " + err.Error()})
		hist = &chat.History{}
	}
	defer hist.Close()
	conv, err := openConversation(ctx, app, s, face, convOptions{face: "tui", chat: opts, terminal: tty, check: true})
	if err != nil {
		return err
	}
	defer conv.close()
	home, _ := app.UserHome()
	approvals := &chat.Approvals{Channel: s.channel(), Held: approval.NewHeld(s.home)}
	slash := func(ctx context.Context, line string, w io.Writer) (bool, bool) {
		return chat.RunSlash(ctx, conv.agent, approvals, nil, line, w)
	}
	return tui.Run(ctx, tui.RunOptions{Options: tui.Options{
		Loop: conv.agent, Face: face, History: hist, Channel: s.channel(),
		Status:  tui.Status{Network: networkOn(s)},
		Sandbox: func() string { return sandboxLabel(app, s, home) },
		Slash:   slash, Theme: s.cfg.UI.Theme, Colour: chat.ColourWanted(app.Getenv, true), Home: home,
	}})
}

// networkOn says whether confined commands reach the network.
func networkOn(s *session) bool {
	return s.runner.Resolve(false) != runner.ModeConfined || s.cfg.CommandPolicy.Sandbox.AllowNetwork
}

// sandboxLabel is the status line's sandbox: Landlock ABI n, Seatbelt,
// off, nested, or none and why.
func sandboxLabel(app *App, s *session, userHome string) string {
	switch s.runner.Resolve(false) {
	case runner.ModeSandboxOff:
		if s.runner.Unsafe {
			return "off (--unsafe)"
		}
		return "off"
	case runner.ModeNested:
		return "nested"
	}
	if s.runner.Backend == nil {
		return "none: commands that need it do not run"
	}
	if s.runner.Backend.Name() != "landlock" {
		return "Seatbelt"
	}
	exe, _ := os.Executable()
	spec, err := sandbox.NewSpec(specOptions(app, s.cfg, s.home, s.runner.Dir, userHome))
	if err != nil {
		return "Landlock"
	}
	if st := sandbox.Report(exe, spec); st.Landlock != nil {
		return fmt.Sprintf("Landlock ABI %d", st.Landlock.ABI)
	}
	return "Landlock"
}
