package agentcli

import (
	"context"
	"errors"
	"io"
	"path/filepath"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/app/agentapp"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tui"
	"github.com/wisp-sh/wisp/pending"
)

func newTUICmd(f *app.Factory) *cobra.Command {
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
			return runTUI(cmd.Context(), f, opts.resumed(args))
		},
	}
	conversationFlags(cmd, &opts)
	return cmd
}

// errNoTerminal: the full screen needs one; a pipe has wisp chat --json.
var errNoTerminal = errors.New("wisp tui needs a terminal on stdin and stdout; from a pipe or a program, use wisp chat --json")

func runTUI(ctx context.Context, f *app.Factory, opts chatOptions) error {
	tty := openTTY(f)
	if tty == nil {
		return errNoTerminal
	}
	defer tty.Close()
	s, err := app.NewSession(f, opts.SessionOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, stop := chatSignals(ctx)
	defer stop()
	face := tui.NewFace()
	s.WireGate(app.GateOptions{Face: pending.FaceTUI, Yes: opts.yes, Extra: []approval.Approver{&tui.Approver{Face: face}}})
	hist, err := chat.OpenHistory(filepath.Join(s.Home.Dir, "history"))
	if err != nil {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· no saved history: " + err.Error()})
		hist = &chat.History{}
	}
	defer hist.Close()
	conv, err := agentapp.Open(ctx, f, s, face, opts.conversation("tui", tty, true))
	if err != nil {
		return err
	}
	defer conv.Close()
	home, _ := f.UserHome()
	approvals := &chat.Approvals{Channel: s.Channel(), Held: approval.NewHeld(s.Home)}
	slash := func(ctx context.Context, line string, w io.Writer) (bool, bool) {
		return chat.RunSlash(ctx, conv.Agent, approvals, nil, line, w)
	}
	return tui.Run(ctx, tui.RunOptions{Options: tui.Options{
		Loop: conv.Agent, Face: face, History: hist, Channel: s.Channel(),
		Status:  tui.Status{Network: networkOn(s)},
		Sandbox: func() string { return app.SandboxLabel(f, s, home) },
		Slash:   slash, Theme: s.Cfg.UI.Theme, Colour: chat.ColourWanted(f.Getenv, true), Home: home,
	}})
}

// networkOn says whether confined commands reach the network.
func networkOn(s *app.Session) bool {
	return s.Runner.Resolve(false) != runner.ModeConfined || s.Cfg.CommandPolicy.Sandbox.AllowNetwork
}
