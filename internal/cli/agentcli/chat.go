package agentcli

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/app/agentapp"
	"github.com/wisp-sh/wisp/internal/cli"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/pending"
)

type chatOptions struct {
	app.SessionOptions
	yes    bool
	json   bool
	resume string // a thread id, "latest", or "" for a new thread
	here   bool   // resume a thread of another folder in this one
}

func newChatCmd(f *app.Factory) *cobra.Command {
	var opts chatOptions
	cmd := &cobra.Command{
		Use:   "chat [--resume [ID]]",
		Short: "Talk with the model; every command it runs goes through the lists and the sandbox",
		Long: `Talk with the model in the terminal. It streams its words and runs commands
through the operator's lists and the kernel sandbox, asking you where the risk
calls for it (and out of band too, with approval.outOfBand). You run commands
yourself with !COMMAND (in the sandbox) and !!COMMAND (outside it); /help says
more. Ctrl-C stops the model's answer or a running command; Ctrl-D leaves.

With --json it speaks one JSON object a line on stdin and stdout instead
(docs/chat.md has the schema). Every conversation is recorded under wisp's
home in threads/ from its first message; --resume continues the newest of
this folder, or the one with ID (wisp threads lists them).`,
		Example: `  wisp chat
  wisp chat --resume
  wisp chat --json < requests.jsonl`,
		Args: resumeArgs(&opts),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runChat(cmd.Context(), f, opts.resumed(args))
		},
	}
	conversationFlags(cmd, &opts)
	cmd.Flags().BoolVar(&opts.json, "json", false, "speak JSON lines on stdin and stdout instead of the terminal")
	return cmd
}

// resumeArgs takes a thread id after --resume, and nothing else.
func resumeArgs(opts *chatOptions) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && (opts.resume == "" || len(args) > 1) {
			return app.UsageError{Err: fmt.Errorf("%s takes no arguments but a thread id after --resume; usage: %s", cmd.CommandPath(), cmd.UseLine())}
		}
		return nil
	}
}

// resumed is opts with the thread id given after --resume, if any.
func (opts chatOptions) resumed(args []string) chatOptions {
	if len(args) == 1 {
		opts.resume = args[0]
	}
	return opts
}

// conversation is how a face with these flags opens its conversation.
func (opts chatOptions) conversation(face string, tty *os.File, check bool) agentapp.Options {
	return agentapp.Options{Face: face, Yes: opts.yes, Resume: opts.resume, Here: opts.here, Terminal: tty, Check: check}
}

// conversationFlags are the flags of every face a person talks in.
func conversationFlags(cmd *cobra.Command, opts *chatOptions) {
	fl := cmd.Flags()
	fl.BoolVar(&opts.yes, "yes", false, "approve every command that would ask you, without you (never a run outside the sandbox)")
	fl.BoolVar(&opts.Unsafe, "unsafe", false, "run every command without the sandbox (said at the start and on every run)")
	fl.StringVar(&opts.resume, "resume", "", "continue a recorded thread: the latest, or ID")
	fl.Lookup("resume").NoOptDefVal = "latest"
	fl.BoolVar(&opts.here, "here", false, "with --resume ID: continue a thread of another folder in this one")
}

func runChat(ctx context.Context, f *app.Factory, opts chatOptions) error {
	s, err := app.NewSession(f, opts.SessionOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	// SIGINT stops a turn, not wisp; SIGTERM and SIGHUP end the chat.
	ctx, stop := chatSignals(ctx)
	defer stop()
	if opts.json {
		return runChatJSON(ctx, f, s, opts)
	}
	return runChatTerminal(ctx, f, s, opts)
}

// chatSignals detaches from the process's context, which the first
// SIGINT cancels, and ends on SIGTERM or SIGHUP instead.
func chatSignals(parent context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	quit := make(chan os.Signal, 1)
	signal.Notify(quit, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case <-quit:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, func() { signal.Stop(quit); cancel() }
}

func interrupts() (<-chan os.Signal, func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt)
	return ch, func() { signal.Stop(ch) }
}

func runChatTerminal(ctx context.Context, f *app.Factory, s *app.Session, opts chatOptions) error {
	tty := openTTY(f)
	colour := chat.ColourWanted(f.Getenv, tty != nil && cli.IsTerminal(f.Stdout))
	face := chat.NewTerminalFace(f.Stdout, f.Stdout, colour)
	var approvers []approval.Approver
	if t := approval.OpenTerminal(); t != nil {
		approvers = append(approvers, chat.FreshKeys{Terminal: t, Face: face})
	}
	s.WireGate(app.GateOptions{Face: pending.FaceChat, Yes: opts.yes, Extra: approvers})
	lines := chatLines(f, s, tty, face)
	if ed, ok := lines.(*chat.Editor); ok {
		defer ed.Close()
	}
	// On a terminal the prompt comes at once and the model is checked
	// beside it; read from a pipe, the check comes first, so its note is
	// in order with the rest.
	ed, onTTY := lines.(*chat.Editor)
	co := opts.conversation("chat", tty, !onTTY)
	co.CheckpointAsk = chat.CheckpointAsk(chat.TerminalOptions{Face: face, Lines: lines})
	conv, err := agentapp.Open(ctx, f, s, face, co)
	if err != nil {
		return err
	}
	defer conv.Close()
	if onTTY {
		go conv.CheckBeside(ctx, face, ed)
	}
	sigint, stopSigint := interrupts()
	defer stopSigint()
	return chat.RunTerminal(ctx, chat.TerminalOptions{
		Agent: conv.Agent, Face: face, Lines: lines, Interrupts: sigint,
		Approvals: &chat.Approvals{Channel: s.Channel(), Held: approval.NewHeld(s.Home)},
		Status:    func() []string { return conv.Status(s) },
	})
}

// openTTY opens the terminal for line editing when stdin and stdout are
// one; nil when wisp reads a pipe.
func openTTY(f *app.Factory) *os.File {
	if !cli.IsTerminal(f.Stdout) || !cli.IsTerminal(f.Stdin) {
		return nil
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return tty
}

func chatLines(f *app.Factory, s *app.Session, tty *os.File, face agent.Face) chat.LineReader {
	if tty == nil {
		return chat.NewPlainLines(f.Stdin)
	}
	hist, err := chat.OpenHistory(filepath.Join(s.Home.Dir, "history"))
	if err != nil {
		// Recall within this session still works; only the file is lost.
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· no saved history: " + err.Error()})
		hist = &chat.History{}
	}
	return chat.NewEditor(tty, "› ", hist)
}

func runChatJSON(ctx context.Context, f *app.Factory, s *app.Session, opts chatOptions) error {
	face := chat.NewJSONFace(f.Stdout)
	approver := &chat.JSONApprover{Face: face}
	s.WireGate(app.GateOptions{Face: pending.FaceChat, Yes: opts.yes, Extra: []approval.Approver{approver}})
	conv, err := agentapp.Open(ctx, f, s, face, opts.conversation("chat --json", nil, true))
	if err != nil {
		return err
	}
	defer conv.Close()
	sigint, stopSigint := interrupts()
	defer stopSigint()
	return chat.RunJSON(ctx, chat.JSONOptions{
		Agent: conv.Agent, Face: face, Approver: approver, In: f.Stdin, Interrupts: sigint,
	})
}
