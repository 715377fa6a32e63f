package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/wisp-sh/wisp/internal/model"
)

// One step of a turn, as a local model makes it: its thinking shown
// apart and kept out of the history, an answer that is empty, cut at the
// output limit or looping said as such, calls written as text run as
// calls (and audited as recovered), the same call asked for again and
// again stopped, and a context that proved too small compacted.

// step is one answer of the model and its tool calls; done when the turn
// is over.
func (a *Agent) step(ctx context.Context, first bool, repeats *model.CallRepeats) (bool, error) {
	system, tools := a.systemPrompt(), a.offeredTools()
	a.plan(ctx)
	a.fit(ctx, system, tools)
	res, err := a.ask(ctx, system, tools)
	if errors.Is(err, model.ErrContextFull) && ctx.Err() == nil && a.compactForRoom(ctx, system, tools, err) {
		res, err = a.ask(ctx, system, tools) // once: a second refusal is said as it is
	}
	bad := model.ToolCallErrors(err)
	if err != nil && len(bad) == 0 {
		return true, a.streamFailed(ctx, res, err, first)
	}
	msg := res.Message
	if msg.Content != "" {
		a.o.Face.Emit(Event{Type: EventMessage, Text: msg.Content})
	}
	msg = sanitize(msg, bad)
	a.add(msg, assistantRecord(msg))
	a.truncated(ctx, res, system, tools)
	if len(msg.ToolCalls) == 0 {
		repeats.Observe(nil)
		return true, nil
	}
	if times, looping := repeats.Observe(msg.ToolCalls); looping {
		return true, a.stopRepeats(msg.ToolCalls, times)
	}
	if res.Recovered {
		a.auditRecovered(msg.ToolCalls)
	}
	a.runCalls(ctx, msg.ToolCalls, bad, res.Recovered)
	if ctx.Err() != nil {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelInfo, Text: "· stopped"})
		return true, ctx.Err()
	}
	return false, nil
}

// ask sends one request and streams its answer and its thinking to the
// face as separate events.
func (a *Agent) ask(ctx context.Context, system string, tools []model.Tool) (model.Result, error) {
	a.o.Face.Emit(Event{Type: EventWaiting})
	return a.o.Model.Turn(ctx, model.Request{
		Messages: wire(system, a.history), Tools: tools, OnDelta: a.delta,
		ContextTokens: a.window(),
	})
}

// delta turns a piece of the answer into its event.
func (a *Agent) delta(d model.Delta) {
	switch d.Kind {
	case model.DeltaText:
		a.o.Face.Emit(Event{Type: EventText, Text: d.Text})
	case model.DeltaReasoning:
		a.o.Face.Emit(Event{Type: EventReasoning, Text: d.Text})
	case model.DeltaRetract:
		a.o.Face.Emit(Event{Type: EventRetract, Text: d.Text})
	}
}

// streamFailed keeps what the model said before a failure or a stop; a
// failure before any word takes the person's message back, so sending it
// again does not repeat it. A loop's text is not kept: read back, it
// would only prime the model to loop again.
func (a *Agent) streamFailed(ctx context.Context, res model.Result, err error, first bool) error {
	partial := res.Message
	if errors.Is(err, model.ErrRepeating) {
		partial.Content = ""
	}
	if partial.Content != "" {
		a.o.Face.Emit(Event{Type: EventMessage, Text: partial.Content})
		partial.ToolCalls = nil
		a.add(partial, assistantRecord(partial))
	}
	if ctx.Err() != nil {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelInfo, Text: "· stopped"})
		return ctx.Err()
	}
	var tue *model.ToolsUnsupportedError
	if errors.As(err, &tue) {
		a.local.toolsRefused = true
	}
	a.modelFailed(err, first && partial.Content == "")
	return err
}

// failureEvent is how a model's failure shows: what the answer came to
// (nothing, cut at the limit, a loop) as a warning note, anything else
// as an error; each with what to try.
func failureEvent(err error) Event {
	hints := model.Hints(err)
	var tue *model.ToolsUnsupportedError
	if errors.As(err, &tue) {
		hints = append(hints, toolsOffHint)
	}
	for _, answer := range []error{model.ErrEmptyAnswer, model.ErrLength, model.ErrRepeating} {
		if errors.Is(err, answer) {
			return Event{Type: EventNote, Level: LevelWarning, Text: "· " + err.Error(), Hints: hints}
		}
	}
	return Event{Type: EventError, Text: err.Error(), Hints: hints}
}

// toolsOffHint says how to go on with a model that takes no tools.
const toolsOffHint = "/tools off (chat, tui) talks to it without tools: it answers, but runs and reads nothing"

// stopRepeats ends a turn whose model asked for the same calls again and
// again: the calls are answered, unrun, so the history stays one a
// server accepts, and the person is told.
func (a *Agent) stopRepeats(calls []model.ToolCall, times int) error {
	for _, call := range calls {
		a.o.Face.Emit(toolCallEvent(call))
		text := fmt.Sprintf("error: not run: you asked for this same call %d times in a row; wisp stopped the turn", times)
		a.o.Face.Emit(Event{Type: EventToolResult, ID: call.ID, Name: call.Name, Text: text})
		a.add(model.Message{Role: model.RoleTool, Content: text, ToolCallID: call.ID},
			Record{Kind: RecordTool, CallID: call.ID, Name: call.Name, Text: text})
	}
	err := &callLoopError{call: calls[0], times: times}
	a.o.Face.Emit(failureEvent(err))
	a.record(Record{Kind: RecordModelError, Text: err.Error()})
	return err
}

// callLoopError is a model asking for the same call over and over.
type callLoopError struct {
	call  model.ToolCall
	times int
}

func (e *callLoopError) Error() string {
	what := e.call.Name
	if ev := toolCallEvent(e.call); ev.Command != "" {
		what = fmt.Sprintf("%s %q", e.call.Name, ev.Command)
	}
	return fmt.Sprintf("the model asked for the same call (%s) %d times in a row, with the same arguments; "+
		"wisp stopped it there and did not run it again", what, e.times)
}

func (e *callLoopError) Hint() []string {
	return []string{
		"tell it what the result means, or ask in other words",
		"a larger model loops less",
	}
}

func (e *callLoopError) Unwrap() error { return model.ErrRepeating }
