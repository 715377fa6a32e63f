package agentapp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/app"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/sandbox"
)

// Conversation is the agent with its model, tools and thread.
type Conversation struct {
	Agent  *agent.Agent
	Thread *agent.Thread
	Client *model.Client // nil: no model could be had

	mu    sync.Mutex
	state string // the model's, as last checked
}

// Close ends the thread's record and releases the checkpoint store.
func (c *Conversation) Close() {
	c.Agent.Thread().Close()
	closeCheckpoints(c.Agent.Checkpoints())
}

// Options say how a conversation opens.
type Options struct {
	Face     string   // recorded in the thread: chat, chat --json, respond
	Yes      bool     // --yes: said in a warning at the start
	Resume   string   // a thread id, "latest", or "" for a new thread
	Here     bool     // resume a thread of another folder in this one
	Terminal *os.File // the person's terminal, for typed commands
	Check    bool     // check the model at the start
	// CheckpointAsk asks, after the reason was said, whether to run a turn
	// no checkpoint could be taken before; nil runs it.
	CheckpointAsk func(context.Context) bool
}

// Open wires the agent: the tools over the session's runner,
// the model (checked once, briefly: a chat without a model still runs
// typed commands), the thread, new or resumed, and the warnings.
func Open(ctx context.Context, f *app.Factory, s *app.Session, face agent.Face, co Options) (*Conversation, error) {
	tb := Toolbox(f, s)
	o := agent.Options{Tools: tb, Face: face, Terminal: co.Terminal, ContextTokens: s.Cfg.Model.ContextTokens}
	client, err := model.New(s.Cfg.Model, f.Getenv, model.WithRetryNotice(func(r model.Retry) {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: r.Notice()})
		face.Emit(agent.Event{Type: agent.EventWaiting}) // the spinner again, through the wait
	}), model.WithStatusNotice(agent.StatusNotice(face))) // "loading the model · 40s" on the spinner
	if err != nil {
		o.NoModel = err.Error()
	} else {
		o.Model = client
	}
	startRecord := agent.Record{Dir: s.Runner.Dir, Model: s.Cfg.Model.Name, Face: co.Face}
	thread, records, err := openThread(f, s, co, startRecord)
	if err != nil {
		return nil, err
	}
	o.Thread = thread
	o.Checkpoints = openCheckpoints(f, s, face, co)
	recordGrants(f, s, tb, o.Checkpoints, face)
	a := agent.New(o)
	n := a.Resume(records)
	conv := &Conversation{Agent: a, Thread: thread, Client: client}
	if co.Face == "chat" || co.Face == "tui" { // a person who resumes sees where they were
		for _, ev := range agent.Replay(records, 40) {
			face.Emit(ev)
		}
	}
	if co.Face != "respond" {
		face.Emit(agent.Event{Type: agent.EventReady, Thread: thread.ID, Model: s.Cfg.Model.Name, Dir: s.Runner.Dir, Messages: n})
	}
	if note := a.Instructions().Note(); note != "" {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelInfo, Text: note})
	}
	warn(face, s, co.Yes)
	if client != nil && co.Check {
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
func openThread(f *app.Factory, s *app.Session, opts Options, start agent.Record) (*agent.Thread, []agent.Record, error) {
	dir := s.Home.ThreadsDir()
	if opts.Resume == "" {
		return agent.NewThread(dir, f.Now, start), nil, nil
	}
	id := opts.Resume
	if id == "latest" {
		var err error
		if id, err = agent.LatestThreadIn(dir, s.Runner.Dir); err != nil {
			return nil, nil, err
		}
	}
	records, err := agent.ReadThread(dir, id)
	if err != nil {
		return nil, nil, err
	}
	if folder := agent.ThreadFolder(records); folder != "" && folder != s.Runner.Dir && !opts.Here {
		return nil, nil, app.UsageError{Err: fmt.Errorf("thread %s works in %s, not in this folder (%s): its commands and "+
			"its conversation are about that folder; resume it there (cd %s && wisp chat --resume %s), or pass "+
			"--here to continue it in this folder", id, folder, s.Runner.Dir, folder, id)}
	}
	t, err := agent.OpenThread(dir, id, f.Now)
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
	if note, state := ModelCheck(ctx, client); note != "" {
		face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: note})
		return state
	}
	return "answers, and has the model"
}

// ModelCheck asks the server for its models, briefly; the note is ""
// when all is well, the state what /status says.
func ModelCheck(ctx context.Context, client *model.Client) (note, state string) {
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
func warn(face agent.Face, s *app.Session, yes bool) {
	note := func(level, text string) { face.Emit(agent.Event{Type: agent.EventNote, Level: level, Text: text}) }
	r := s.Runner
	switch {
	case r.Unsafe:
		note(agent.LevelDanger, "! --unsafe: the sandbox is off: every command, the model's too, runs unconfined and may write anywhere you can")
	case !s.Cfg.CommandPolicy.Sandbox.Enabled:
		note(agent.LevelDanger, "! the sandbox is off (commandPolicy.sandbox.enabled is false): every command runs unconfined")
	case r.Backend == nil && r.BackendErr != nil:
		note(agent.LevelWarning, "· no sandbox can be had here, so commands that need it will not run: "+r.BackendErr.Error())
	}
	if yes {
		note(agent.LevelWarning, "· --yes: commands that would ask you are approved without you; a run outside the sandbox still asks you, or is refused")
	}
}

// Toolbox gives the model's tools the session's runner: add_directory is
// offered only where a person can be asked, and a grant rebuilds the
// sandbox's spec with the folder.
func Toolbox(f *app.Factory, s *app.Session) *tools.Toolbox {
	userHome, _ := f.UserHome()
	tb := &tools.Toolbox{Runner: s.Runner,
		Folders: tools.Folders{Project: s.Runner.Dir, UserHome: userHome, WispHome: s.Home.Dir}}
	if s.Runner.Resolve(false) == runner.ModeConfined {
		tb.Spec = specWith(f, s, userHome)
	}
	if g, ok := s.Runner.Gate.(*approval.Gate); ok && asksAPerson(g) {
		tb.Ask = g.AskPerson
	}
	return tb
}

func specWith(f *app.Factory, s *app.Session, userHome string) func([]string) (sandbox.Spec, error) {
	return func(granted []string) (sandbox.Spec, error) {
		opts := app.SpecOptions(f, s.Cfg, s.Home, s.Runner.Dir, userHome)
		opts.Granted = granted
		spec, err := sandbox.NewSpec(opts)
		if err != nil || s.Runner.Backend == nil {
			return spec, err
		}
		return s.Runner.Backend.Check(spec)
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
