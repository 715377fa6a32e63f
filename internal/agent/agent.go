package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
)

// Streamer is the model as the agent uses it (*model.Client): one turn a
// step, its thinking apart from its answer (model.Client.Turn). A model
// that also has Info(ctx) (model.ModelInfo, error) is asked for its
// context before the first request.
type Streamer interface {
	Turn(ctx context.Context, req model.Request) (model.Result, error)
}

// DefaultMaxSteps bounds the model's answers in one turn, so a model that
// calls tools forever comes back to the person.
const DefaultMaxSteps = 40

// Options make an Agent.
type Options struct {
	// Model is nil when no model can be had; NoModel then says why, and
	// typed commands still run.
	Model    Streamer
	NoModel  string
	Tools    *tools.Toolbox
	Face     Face
	Thread   *Thread // nil: nothing is recorded
	MaxSteps int     // 0: DefaultMaxSteps
	// Terminal is the person's terminal (opened pollable) in the plain
	// chat: a typed command runs on a pseudo-terminal attached to it, so
	// editors and pagers work and Ctrl-C reaches the command. Nil: the
	// command reads nothing, and stopping the turn ends it.
	Terminal *os.File
	// ContextTokens bounds what one request sends (model.contextTokens);
	// 0: DefaultContextTokens.
	ContextTokens int
	// Instructions are the project's AGENTS.md; nil: read from the
	// runner's folder when the agent is made.
	Instructions *Instructions
	// CallRepeats is how many answers in a row may ask for the same
	// calls with the same arguments before the turn is stopped; 0:
	// model.DefaultCallRepeats.
	CallRepeats int
	// Checkpoints, when set, records the folders before each turn and
	// each typed command, for /undo (checkpoint.go).
	Checkpoints *Checkpoints
}

// Agent is one conversation: the model's turns and the person's typed
// commands, in one history, recorded as they happen. Its methods are
// called from one goroutine.
type Agent struct {
	o            Options
	history      []model.Message
	recordFailed bool
	live         *liveWriter       // the model's commands' output, to the face
	outputs      map[string]string // a tool call's id: its command's output id
	local        localModel        // what the turns learnt of a local model (local.go)
	cp           checkpointState
}

// New makes the agent and has the runner's gate tell the face when a
// model's command was approved to run outside the sandbox, before it runs.
func New(o Options) *Agent {
	if o.MaxSteps <= 0 {
		o.MaxSteps = DefaultMaxSteps
	}
	r := o.Tools.Runner
	if r.Gate != nil {
		r.Gate = noticeGate{inner: r.Gate, face: o.Face}
	}
	if o.Instructions == nil {
		in := LoadInstructions(r.Dir)
		o.Instructions = &in
	}
	a := &Agent{o: o}
	a.wireCheckpoints()
	if o.Tools.Live == nil {
		a.live = &liveWriter{face: o.Face, origin: string(runner.Model)}
		o.Tools.Live = a.live
	}
	return a
}

// SetModel talks to m from the next request on (/model NAME).
func (a *Agent) SetModel(m Streamer) { a.o.Model, a.local = m, localModel{} }

// Model is the model the agent talks to, nil when there is none.
func (a *Agent) Model() Streamer { return a.o.Model }

// NoModel says why there is no model (Options.NoModel), for a face to
// repeat when a person asks for what needs one.
func (a *Agent) NoModel() string { return a.o.NoModel }

// Runner is the runner every command goes through: a face reads its
// folder, sandbox and output store to show them (/status, /output).
func (a *Agent) Runner() *runner.Runner { return a.o.Tools.Runner }

// ModelName is the model's name, "" when there is no model.
func (a *Agent) ModelName() string {
	if n, ok := a.o.Model.(interface{ Name() string }); ok {
		return n.Name()
	}
	return ""
}

// ContextUse is how many tokens, as estimated, the history takes and how
// many it may take in a request.
func (a *Agent) ContextUse() (used, budget int) {
	return estimateTokens(a.history), a.budget(a.systemPrompt(), a.toolList())
}

// Thread is the thread being recorded to (nil: none).
func (a *Agent) Thread() *Thread { return a.o.Thread }

// NewThread starts over (/new): the history is emptied and a fresh
// thread, with no file until its first message, takes the old one's place.
func (a *Agent) NewThread() *Thread {
	if a.o.Thread != nil {
		a.o.Thread.Close()
		a.o.Thread = a.o.Thread.Fresh()
	}
	a.history = nil
	a.recordFailed = false
	return a.o.Thread
}

// Instructions are the project's AGENTS.md as the model reads them.
func (a *Agent) Instructions() Instructions { return *a.o.Instructions }

// Resume continues a thread: its records become the history.
func (a *Agent) Resume(records []Record) int {
	a.history = HistoryOf(records)
	for _, r := range records {
		if r.Kind == RecordTool {
			a.noteOutput(r.CallID, r.OutputID)
		}
	}
	return len(a.history)
}

// noteOutput keeps which output a tool call's command wrote, for a
// shortened result to name.
func (a *Agent) noteOutput(callID, outputID string) {
	if outputID == "" {
		return
	}
	if a.outputs == nil {
		a.outputs = map[string]string{}
	}
	a.outputs[callID] = outputID
}

// History is what the model has read so far, without the system prompt.
func (a *Agent) History() []model.Message { return append([]model.Message(nil), a.history...) }

// Send gives the model the person's message and runs its tool calls until
// it answers without one, the turn is stopped (ctx), or it reaches
// MaxSteps. Every failure is shown on the face as it happens; the error
// returned is the model's failure, or ctx's when the turn was stopped,
// for a face that ends on it (respond).
func (a *Agent) Send(ctx context.Context, text string) error {
	if !a.beforeTurn(ctx, text) {
		return nil
	}
	defer a.afterTurn()
	a.o.Tools.NewTurn()
	a.add(model.Message{Role: model.RoleUser, Content: text}, Record{Kind: RecordUser, Text: text})
	if a.o.Model == nil {
		err := errors.New(a.o.NoModel)
		a.modelFailed(err, true)
		return err
	}
	repeats := model.CallRepeats{Max: a.o.CallRepeats}
	for step := 0; step < a.o.MaxSteps; step++ {
		if done, err := a.step(ctx, step == 0, &repeats); done {
			return err
		}
	}
	a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: fmt.Sprintf(
		"· the model called tools %d times in this turn; wisp stopped it there: send a message to let it go on",
		a.o.MaxSteps)})
	return nil
}

func (a *Agent) modelFailed(err error, takeBack bool) {
	a.o.Face.Emit(failureEvent(err))
	if takeBack {
		a.history = dropLastUser(a.history)
	}
	a.record(Record{Kind: RecordModelError, Text: err.Error(), Dropped: takeBack})
}

// sanitize keeps a malformed call's arguments out of the history as an
// empty object: servers refuse a conversation that carries bad JSON, and
// the call's result tells the model what was wrong.
func sanitize(msg model.Message, bad []*model.ToolCallError) model.Message {
	if len(bad) == 0 {
		return msg
	}
	calls := append([]model.ToolCall(nil), msg.ToolCalls...)
	for i := range calls {
		if badCall(bad, calls[i].ID) != nil {
			calls[i].Arguments = "{}"
		}
	}
	msg.ToolCalls = calls
	return msg
}

func badCall(bad []*model.ToolCallError, id string) *model.ToolCallError {
	for _, b := range bad {
		if b.Call.ID == id {
			return b
		}
	}
	return nil
}

// runCalls runs each call in order and answers every one, even those a
// stop left unrun.
func (a *Agent) runCalls(ctx context.Context, calls []model.ToolCall, bad []*model.ToolCallError, fromText bool) {
	for _, call := range calls {
		ev := toolCallEvent(call)
		ev.FromText = fromText
		a.o.Face.Emit(ev)
		text := interruptedResult
		switch tce := badCall(bad, call.ID); {
		case tce != nil:
			text = tce.Error()
		case ctx.Err() == nil:
			text = a.call(ctx, call)
		}
		a.o.Face.Emit(Event{Type: EventToolResult, ID: call.ID, Name: call.Name, Text: text})
		a.add(model.Message{Role: model.RoleTool, Content: text, ToolCallID: call.ID},
			Record{Kind: RecordTool, CallID: call.ID, Name: call.Name, Text: text, OutputID: a.outputs[call.ID]})
	}
}

func (a *Agent) call(ctx context.Context, call model.ToolCall) string {
	out, err := a.o.Tools.Call(ctx, call.Name, call.Arguments)
	if a.live != nil {
		a.live.flush()
	}
	switch {
	case err != nil && ctx.Err() != nil:
		return "error: stopped: the person stopped the turn before this call finished; it did not run"
	case err != nil:
		a.o.Face.Emit(Event{Type: EventError, Text: "wisp could not run the tool call: " + err.Error()})
		return "error: wisp could not run this call: " + err.Error()
	}
	if out.Result != nil {
		a.o.Face.Emit(outcomeEvent(*out.Result))
		a.noteOutput(call.ID, out.Result.OutputID)
	}
	return out.Text
}

func toolCallEvent(call model.ToolCall) Event {
	ev := Event{Type: EventToolCall, ID: call.ID, Name: call.Name, Arguments: call.Arguments}
	if call.Name == "run_command" {
		var args struct {
			Command        string `json:"command"`
			OutsideSandbox bool   `json:"outsideSandbox"`
		}
		if json.Unmarshal([]byte(call.Arguments), &args) == nil {
			ev.Command, ev.OutsideSandbox = args.Command, args.OutsideSandbox
		}
	}
	return ev
}

func (a *Agent) toolList() []model.Tool {
	defs := a.o.Tools.Definitions()
	out := make([]model.Tool, len(defs))
	for i, d := range defs {
		out[i] = model.Tool{Name: d.Name, Description: d.Description, Parameters: d.Parameters}
	}
	return out
}

// add puts a message in the history and its record in the thread.
func (a *Agent) add(m model.Message, r Record) {
	a.history = append(a.history, m)
	a.record(r)
}

// record writes to the thread; a failure is said once and the
// conversation goes on.
func (a *Agent) record(r Record) {
	if err := a.o.Thread.Append(r); err != nil && !a.recordFailed {
		a.recordFailed = true
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning,
			Text: "· this conversation is no longer recorded: " + err.Error()})
	}
}

// noticeGate says, before the command starts, that a model's command was
// approved to run outside the sandbox (plain chat's note, decision D19).
type noticeGate struct {
	inner runner.Gate
	face  Face
}

func (g noticeGate) Clear(ctx context.Context, req runner.GateRequest) (runner.Clearance, error) {
	c, err := g.inner.Clear(ctx, req)
	if err == nil && c.Approved && req.OutsideSandbox {
		g.face.Emit(Event{Type: EventNote, Level: LevelDanger, Text: outsideApprovedNote(req.Line, req.Dir)})
	}
	if err == nil && c.Approved {
		// Cleared: the command starts now, and the face may show it run.
		g.face.Emit(Event{Type: EventCommandStart, Command: req.Line, Origin: string(req.Origin),
			OutsideSandbox: req.OutsideSandbox})
	}
	return c, err
}
