package agent

import (
	"context"
	"encoding/json"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/model"
)

// localModel is what the agent learns of the model as it goes: the
// context it plans for (asked of the server once, shrunk when the server
// proves to hold less), and whether the person chose to talk to it
// without tools.
type localModel struct {
	planned      bool // the server was asked for the model's context
	tokens       int  // the context planned for; 0: Options.ContextTokens or the default
	toolsRefused bool // the server refused the tools this session
	toolsOff     bool // the person chose to go on without tools (/tools off)
}

// infoTimeout bounds the question about the model's context: a server
// that does not answer it at once is planned for by the default.
const infoTimeout = 5 * time.Second

// informer is a model that can say its context (*model.Client).
type informer interface {
	Info(ctx context.Context) (model.ModelInfo, error)
}

// plan asks the server, once, for the context the model is loaded with,
// unless the person set model.contextTokens: Ollama's Modelfile num_ctx
// (else Ollama loads 4096, the default), or LM Studio's context length.
func (a *Agent) plan(ctx context.Context) {
	if a.local.planned || a.o.ContextTokens > 0 {
		return
	}
	a.local.planned = true
	inf, ok := a.o.Model.(informer)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, infoTimeout)
	defer cancel()
	info, err := inf.Info(ctx)
	switch {
	case err != nil:
	case info.NumCtx > 0:
		a.local.tokens = info.NumCtx
	case info.Capabilities == nil && info.ContextLength > 0: // not Ollama, which loads less than the model's
		a.local.tokens = info.ContextLength
	}
}

// window is the context planned for: model.contextTokens, else what the
// server said or showed, else DefaultContextTokens.
func (a *Agent) window() int {
	switch {
	case a.local.tokens > 0:
		return a.local.tokens
	case a.o.ContextTokens > 0:
		return a.o.ContextTokens
	}
	return DefaultContextTokens
}

// truncated says when the server read less of the conversation than was
// sent (Ollama drops the oldest part, the system prompt and the tools
// first, without a word), plans for what it read from then on, and
// compacts the history to fit.
func (a *Agent) truncated(ctx context.Context, res model.Result, system string, tools []model.Tool) {
	t := res.Truncated
	if t == nil || ctx.Err() != nil {
		return
	}
	a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: t.Notice(), Hints: []string{
		"wisp plans for the smaller context from now on and compacts the conversation",
		"or give the model more: model.contextTokens, and the server's (Ollama: OLLAMA_CONTEXT_LENGTH or num_ctx)",
	}})
	a.local.tokens = min(a.window(), t.Counted)
	a.fit(ctx, system, tools)
}

// compactForRoom answers a server's refusal of a conversation too long
// for its context: plan for less, and compact; false when nothing could
// be taken out, so asking again would only be refused again.
func (a *Agent) compactForRoom(ctx context.Context, system string, tools []model.Tool, err error) bool {
	before := estimateTokens(a.history)
	a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning,
		Text: "· " + err.Error() + "; wisp compacts the conversation and asks again"})
	a.local.tokens = max(a.window()*3/4, 1024)
	a.fit(ctx, system, tools)
	return ctx.Err() == nil && estimateTokens(a.history) < before
}

// offeredTools are the tools sent, none when the person chose to talk to
// the model without them.
func (a *Agent) offeredTools() []model.Tool {
	if a.local.toolsOff {
		return nil
	}
	return a.toolList()
}

// SetToolsOff talks to the model without tools from the next request on
// (off), or with them again: for a model that cannot use them (/tools).
func (a *Agent) SetToolsOff(off bool) { a.local.toolsOff = off }

// ToolsOff reports whether the model is talked to without tools.
func (a *Agent) ToolsOff() bool { return a.local.toolsOff }

// ToolsRefused reports whether the server refused the tools in this
// session: a face may offer to go on without them.
func (a *Agent) ToolsRefused() bool { return a.local.toolsRefused }

// auditRecovered writes, before they run, that these calls were written
// as text and read as calls; each then goes through the lists, the gate
// and the sandbox, audited as any call.
func (a *Agent) auditRecovered(calls []model.ToolCall) {
	log := a.o.Tools.Runner.Audit
	if log == nil {
		return
	}
	for _, c := range calls {
		ev := audit.ToolCallFromText{Tool: c.Name, Arguments: c.Arguments, CallID: c.ID}
		if c.Name == "run_command" {
			var args struct {
				Command string `json:"command"`
			}
			if json.Unmarshal([]byte(c.Arguments), &args) == nil {
				ev.Command = args.Command
			}
		}
		_ = log.Log(ev) // the audit log never stops a call
	}
}

// StatusNotice is for model.WithStatusNotice: the spinner says what the
// wait is ("loading the model") while the server loads the model.
func StatusNotice(face Face) func(model.Status) {
	return func(s model.Status) {
		if s.Loading {
			face.Emit(Event{Type: EventWaiting, Text: "loading the model"})
		}
	}
}
