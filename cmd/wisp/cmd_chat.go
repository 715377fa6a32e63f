//go:build !wisplean

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/chat"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/sandbox"
)

type chatOptions struct {
	runnerOptions
	yes    bool
	json   bool
	resume string // a thread id, "latest", or "" for a new thread
	here   bool   // resume a thread of another folder in this one
}

func newChatCmd(app *App) *cobra.Command {
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
			return runChat(cmd.Context(), app, opts.resumed(args))
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
			return usageError{fmt.Errorf("%s takes no arguments but a thread id after --resume; usage: %s", cmd.CommandPath(), cmd.UseLine())}
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

// conversationFlags are the flags of every face a person talks in.
func conversationFlags(cmd *cobra.Command, opts *chatOptions) {
	f := cmd.Flags()
	f.BoolVar(&opts.yes, "yes", false, "approve every command that would ask you, without you (never a run outside the sandbox)")
	f.BoolVar(&opts.unsafe, "unsafe", false, "run every command without the sandbox (said at the start and on every run)")
	f.StringVar(&opts.resume, "resume", "", "continue a recorded thread: the latest, or ID")
	f.Lookup("resume").NoOptDefVal = "latest"
	f.BoolVar(&opts.here, "here", false, "with --resume ID: continue a thread of another folder in this one")
}

func runChat(ctx context.Context, app *App, opts chatOptions) error {
	s, err := newSession(app, opts.runnerOptions)
	if err != nil {
		return err
	}
	defer s.Close()
	// SIGINT stops a turn, not wisp; SIGTERM and SIGHUP end the chat.
	ctx, stop := chatSignals(ctx)
	defer stop()
	if opts.json {
		return runChatJSON(ctx, app, s, opts)
	}
	return runChatTerminal(ctx, app, s, opts)
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

func runChatTerminal(ctx context.Context, app *App, s *session, opts chatOptions) error {
	tty := openTTY(app)
	colour := chat.ColourWanted(app.Getenv, tty != nil && isTerminal(app.Stdout))
	face := chat.NewTerminalFace(app.Stdout, app.Stdout, colour)
	var approvers []approval.Approver
	if t := approval.OpenTerminal(); t != nil {
		approvers = append(approvers, chat.FreshKeys{Terminal: t, Face: face})
	}
	s.wireGate(gateOptions{face: pending.FaceChat, yes: opts.yes, extra: approvers})
	lines := chatLines(app, s, tty, face)
	if ed, ok := lines.(*chat.Editor); ok {
		defer ed.Close()
	}
	// On a terminal the prompt comes at once and the model is checked
	// beside it; read from a pipe, the check comes first, so its note is
	// in order with the rest.
	ed, onTTY := lines.(*chat.Editor)
	conv, err := openConversation(ctx, app, s, face, convOptions{face: "chat", chat: opts, terminal: tty, check: !onTTY})
	if err != nil {
		return err
	}
	defer conv.close()
	if onTTY {
		go conv.checkBeside(ctx, face, ed)
	}
	sigint, stopSigint := interrupts()
	defer stopSigint()
	return chat.RunTerminal(ctx, chat.TerminalOptions{
		Agent: conv.agent, Face: face, Lines: lines, Interrupts: sigint,
		Approvals: &chat.Approvals{Channel: s.channel(), Held: approval.NewHeld(s.home)},
		Status:    func() []string { return conv.status(s) },
	})
}

// openTTY opens the terminal for line editing when stdin and stdout are
// one; nil when wisp reads a pipe.
func openTTY(app *App) *os.File {
	if !isTerminal(app.Stdout) || !isTerminal(app.Stdin) {
		return nil
	}
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return f
}

func chatLines(app *App, s *session, tty *os.File, face agent.Face) chat.LineReader {
	if tty == nil {
		return chat.NewPlainLines(app.Stdin)
	}
	hist, err := chat.OpenHistory(filepath.Join(s.home.Dir, "history"))
	if err != nil {
		// Recall within this session still works; only the file is lost.
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· no saved history: " + err.Error()})
		hist = &chat.History{}
	}
	return chat.NewEditor(tty, "› ", hist)
}

func runChatJSON(ctx context.Context, app *App, s *session, opts chatOptions) error {
	face := chat.NewJSONFace(app.Stdout)
	approver := &chat.JSONApprover{Face: face}
	s.wireGate(gateOptions{face: pending.FaceChat, yes: opts.yes, extra: []approval.Approver{approver}})
	conv, err := openConversation(ctx, app, s, face, convOptions{face: "chat --json", chat: opts, check: true})
	if err != nil {
		return err
	}
	defer conv.close()
	sigint, stopSigint := interrupts()
	defer stopSigint()
	return chat.RunJSON(ctx, chat.JSONOptions{
		Agent: conv.agent, Face: face, Approver: approver, In: app.Stdin, Interrupts: sigint,
	})
}

// conversation is the agent with its model, tools and thread.
type conversation struct {
	agent  *agent.Agent
	thread *agent.Thread
	client *model.Client // nil: no model could be had

	mu    sync.Mutex
	state string // the model's, as last checked
}

func (c *conversation) close() { c.agent.Thread().Close() }

type convOptions struct {
	face     string // recorded in the thread: chat, chat --json, respond
	chat     chatOptions
	terminal *os.File // the person's terminal, for typed commands
	check    bool     // check the model at the start
}

// openConversation wires the agent: the tools over the session's runner,
// the model (checked once, briefly: a chat without a model still runs
// typed commands), the thread, new or resumed, and the warnings.
func openConversation(ctx context.Context, app *App, s *session, face agent.Face, co convOptions) (*conversation, error) {
	tb := s.toolbox(app)
	o := agent.Options{Tools: tb, Face: face, Terminal: co.terminal, ContextTokens: s.cfg.Model.ContextTokens}
	client, err := model.New(s.cfg.Model, app.Getenv, model.WithRetryNotice(func(r model.Retry) {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: r.Notice()})
		face.Emit(agent.Event{Type: agent.EventWaiting}) // the spinner again, through the wait
	}))
	if err != nil {
		o.NoModel = err.Error()
	} else {
		o.Model = client
	}
	startRecord := agent.Record{Dir: s.runner.Dir, Model: s.cfg.Model.Name, Face: co.face}
	thread, records, err := openThread(app, s, co.chat, startRecord)
	if err != nil {
		return nil, err
	}
	o.Thread = thread
	a := agent.New(o)
	n := a.Resume(records)
	conv := &conversation{agent: a, thread: thread, client: client}
	if co.face != "respond" {
		face.Emit(agent.Event{Type: agent.EventReady, Thread: thread.ID, Model: s.cfg.Model.Name, Dir: s.runner.Dir, Messages: n})
	}
	if note := a.Instructions().Note(); note != "" {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelInfo, Text: note})
	}
	warn(face, s, co.chat.yes)
	if client != nil && co.check {
		conv.setState(checkModel(ctx, client, face))
	} else if client == nil {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· no model: " + o.NoModel})
	}
	return conv, nil
}

// openThread makes a thread that is written from the first message on,
// or opens one to continue with its records: with no id the newest of
// this folder that holds a message. A thread of another folder is
// refused unless --here says to continue it in this one.
func openThread(app *App, s *session, opts chatOptions, start agent.Record) (*agent.Thread, []agent.Record, error) {
	dir := s.home.ThreadsDir()
	if opts.resume == "" {
		return agent.NewThread(dir, app.Now, start), nil, nil
	}
	id := opts.resume
	if id == "latest" {
		var err error
		if id, err = agent.LatestThreadIn(dir, s.runner.Dir); err != nil {
			return nil, nil, err
		}
	}
	records, err := agent.ReadThread(dir, id)
	if err != nil {
		return nil, nil, err
	}
	if folder := agent.ThreadFolder(records); folder != "" && folder != s.runner.Dir && !opts.here {
		return nil, nil, usageError{fmt.Errorf("thread %s works in %s, not in this folder (%s): its commands and "+
			"its conversation are about that folder; resume it there (cd %s && wisp chat --resume %s), or pass "+
			"--here to continue it in this folder", id, folder, s.runner.Dir, folder, id)}
	}
	t, err := agent.OpenThread(dir, id, app.Now)
	if err != nil {
		return nil, nil, err
	}
	start.Kind = agent.RecordResume
	t.Defer(start)
	return t, records, nil
}

// modelCheckTimeout bounds the check at the start: a server that is down
// answers at once; one that hangs must not hold up the first prompt.
const modelCheckTimeout = 5 * time.Second

func checkModel(ctx context.Context, client *model.Client, face agent.Face) string {
	if note, state := modelCheck(ctx, client); note != "" {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: note})
		return state
	}
	return "answers, and has the model"
}

// modelCheck asks the server for its models, briefly; the note is ""
// when all is well, the state what /status says.
func modelCheck(ctx context.Context, client *model.Client) (note, state string) {
	ctx, cancel := context.WithTimeout(ctx, modelCheckTimeout)
	defer cancel()
	err := client.Check(ctx)
	if err == nil {
		return "", "answers, and has the model"
	}
	why := err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		why = fmt.Sprintf("the model server at %s did not answer within %s", client.BaseURL(), modelCheckTimeout)
	}
	return "· the model cannot be reached: " + why + "; commands you type after ! and !! still run", why
}

// warn says what this chat runs without: --unsafe's sandbox, --yes's
// asking, or a sandbox this system cannot give.
func warn(face agent.Face, s *session, yes bool) {
	note := func(level, text string) { face.Emit(agent.Event{Type: agent.EventNote, Level: level, Text: text}) }
	r := s.runner
	switch {
	case r.Unsafe:
		note(agent.LevelDanger, "! --unsafe: the sandbox is off: every command, the model's too, runs unconfined and may write anywhere you can")
	case !s.cfg.CommandPolicy.Sandbox.Enabled:
		note(agent.LevelDanger, "! the sandbox is off (commandPolicy.sandbox.enabled is false): every command runs unconfined")
	case r.Backend == nil && r.BackendErr != nil:
		note(agent.LevelWarning, "· no sandbox can be had here, so commands that need it will not run: "+r.BackendErr.Error())
	}
	if yes {
		note(agent.LevelWarning, "· --yes: commands that would ask you are approved without you; a run outside the sandbox still asks you, or is refused")
	}
}

// toolbox gives the model's tools the session's runner: add_directory is
// offered only where a person can be asked, and a grant rebuilds the
// sandbox's spec with the folder.
func (s *session) toolbox(app *App) *tools.Toolbox {
	userHome, _ := app.UserHome()
	tb := &tools.Toolbox{Runner: s.runner,
		Folders: tools.Folders{Project: s.runner.Dir, UserHome: userHome, WispHome: s.home.Dir}}
	if s.runner.Resolve(false) == runner.ModeConfined {
		tb.Spec = s.specWith(app, userHome)
	}
	if g, ok := s.runner.Gate.(*approval.Gate); ok && asksAPerson(g) {
		tb.Ask = g.AskPerson
	}
	return tb
}

func (s *session) specWith(app *App, userHome string) func([]string) (sandbox.Spec, error) {
	return func(granted []string) (sandbox.Spec, error) {
		opts := specOptions(app, s.cfg, s.home, s.runner.Dir, userHome)
		opts.Granted = granted
		spec, err := sandbox.NewSpec(opts)
		if err != nil || s.runner.Backend == nil {
			return spec, err
		}
		return s.runner.Backend.Check(spec)
	}
}

func asksAPerson(g *approval.Gate) bool {
	for _, a := range g.Approvers {
		if a.AsksAPerson() {
			return true
		}
	}
	return false
}
