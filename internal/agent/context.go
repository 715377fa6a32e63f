package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/wisp-sh/wisp/internal/model"
)

// A bounded context. A local model's window is small (Ollama serves 4096
// tokens unless told otherwise) and a server that is sent more cuts the
// conversation's start, the system prompt with it. So before each
// request the agent makes what it sends fit model.contextTokens, less a
// quarter kept for the answer: first the oldest tool outputs are
// shortened (their output ids kept, so the model can ask for the rest
// with inspect), then the oldest turns are summarised by the model into
// one note. The newest turn is kept whole; the thread keeps everything.

// DefaultContextTokens is model.contextTokens' default.
const DefaultContextTokens = 4096

// RecordCompact marks where the history the model reads was compacted:
// the summary that stands for the messages before. Reading a thread back
// gives every message; the agent compacts again if it must.
const RecordCompact = "compact"

// shortenedHead is how much of a shortened tool output is kept.
const shortenedHead = 300

// summaryTokens is what a summary is expected to take at most.
const summaryTokens = 400

var outputIDs = regexp.MustCompile(`\b[0-9]{8}T[0-9]{6}-[0-9a-f]{8}\b`)

// estimateTokens is a conservative count: about three bytes a token for
// prose, code and JSON alike, and a few for each message's framing.
func estimateTokens(msgs []model.Message) int {
	n := 0
	for _, m := range msgs {
		n += 4 + len(m.Content)/3
		for _, c := range m.ToolCalls {
			n += 4 + (len(c.Name)+len(c.Arguments))/3
		}
	}
	return n
}

func toolTokens(tools []model.Tool) int {
	data, _ := json.Marshal(tools)
	return len(data) / 3
}

// budget is how many tokens the history may take in a request.
func (a *Agent) budget(system string, tools []model.Tool) int {
	window := a.window()
	return window - window/4 - estimateTokens([]model.Message{{Content: system}}) - toolTokens(tools)
}

// fit makes the history fit the budget before a request.
func (a *Agent) fit(ctx context.Context, system string, tools []model.Tool) {
	budget := a.budget(system, tools)
	if estimateTokens(a.history) <= budget {
		return
	}
	if n := a.shortenOutputs(budget); estimateTokens(a.history) <= budget {
		a.compactedNote(fmt.Sprintf("%d of the oldest command outputs were shortened to their start and their output id", n))
		return
	}
	cut := a.cutFor(budget - summaryTokens)
	if cut <= 0 {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: "· this turn alone is longer than " +
			"model.contextTokens allows; the server may cut its start: raise model.contextTokens if the model has the room"})
		return
	}
	a.summarise(ctx, cut)
}

// newestTurn is where the last turn starts: the person's last message.
func (a *Agent) newestTurn() int {
	for i := len(a.history) - 1; i >= 0; i-- {
		if a.history[i].Role == model.RoleUser {
			return i
		}
	}
	return 0
}

// shortenOutputs shortens tool outputs, oldest first, outside the newest
// turn, until the history fits; it returns how many it shortened.
func (a *Agent) shortenOutputs(budget int) int {
	n := 0
	last := a.newestTurn()
	for i := 0; i < last && estimateTokens(a.history) > budget; i++ {
		m := &a.history[i]
		if m.Role != model.RoleTool || len(m.Content) <= 2*shortenedHead {
			continue
		}
		m.Content = shortened(m.Content, a.outputs[m.ToolCallID])
		n++
	}
	return n
}

// shortened keeps a tool output's start and the id of the whole, the
// call's own or one the text names.
func shortened(text, id string) string {
	head := text[:shortenedHead]
	for len(head) > 0 && !isRuneStart(head[len(head)-1]) {
		head = head[:len(head)-1]
	}
	if id == "" {
		id = outputIDs.FindString(text)
	}
	if id == "" {
		return head + "\n[shortened by wisp to fit the model's context]"
	}
	return head + fmt.Sprintf("\n[shortened by wisp to fit the model's context; the whole output: inspect what=output id=%s]", id)
}

func isRuneStart(b byte) bool { return b < 0x80 || b >= 0xC0 }

// cutFor is the start of the oldest turn from which on the history fits
// room, the newest turn's start at the latest; 0 when only one turn.
func (a *Agent) cutFor(room int) int {
	last := a.newestTurn()
	for i := 1; i <= last; i++ {
		if a.history[i].Role == model.RoleUser && estimateTokens(a.history[i:]) <= room {
			return i
		}
	}
	return last
}

// Compact summarises every turn but the newest (/compact); false when
// there is nothing before it, or no model to summarise with.
func (a *Agent) Compact(ctx context.Context) bool {
	cut := a.newestTurn()
	if cut == 0 || a.o.Model == nil {
		return false
	}
	a.summarise(ctx, cut)
	return true
}

// summaryPrompt asks for the note that stands for the older turns.
const summaryPrompt = "Summarise the conversation below between a person and a coding agent, so that the agent " +
	"can go on without it: what the person asked for, what was done and found (files, commands, errors, " +
	"output ids), what was decided and what is left. Plain text, at most 200 words, no preamble."

// summarise replaces history[:cut] by one note the model writes; if the
// model cannot, by a note that says they were left out.
func (a *Agent) summarise(ctx context.Context, cut int) {
	old := a.history[:cut]
	transcript := transcriptOf(old, 3*max(a.budget("", nil)-summaryTokens, 1000))
	a.o.Face.Emit(Event{Type: EventWaiting})
	res, err := a.o.Model.Turn(ctx, model.Request{Messages: []model.Message{{Role: model.RoleSystem, Content: summaryPrompt},
		{Role: model.RoleUser, Content: transcript}}, ContextTokens: a.window(), NoTextCalls: true})
	if ctx.Err() != nil {
		return // stopped: the history stays as it was
	}
	summary := strings.TrimSpace(res.Message.Content)
	how := fmt.Sprintf("the %d oldest messages were summarised by the model into one note", cut)
	if errors.Is(err, model.ErrLength) {
		err = nil // a summary cut at the output limit still stands for the turns
	}
	if err != nil || summary == "" {
		summary = fmt.Sprintf("(%d earlier messages were left out to fit the model's context)", cut)
		how = fmt.Sprintf("the %d oldest messages were left out (the model could not summarise them)", cut)
	}
	note := model.Message{Role: model.RoleUser, Content: "[Summary of the earlier conversation, written to fit the " +
		"model's context; the thread keeps it whole:]\n" + summary}
	a.history = append([]model.Message{note}, a.history[cut:]...)
	a.record(Record{Kind: RecordCompact, Text: summary})
	a.compactedNote(how)
}

func (a *Agent) compactedNote(how string) {
	a.o.Face.Emit(Event{Type: EventNote, Level: LevelInfo,
		Text: "· the conversation was compacted: " + how + "; the thread keeps everything"})
}

// transcriptOf writes messages as text for the summary, its end kept
// when it is longer than limit bytes.
func transcriptOf(msgs []model.Message, limit int) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.Role + ": " + m.Content + "\n")
		for _, c := range m.ToolCalls {
			b.WriteString("(calls " + c.Name + " " + c.Arguments + ")\n")
		}
	}
	s := b.String()
	if len(s) > limit {
		s = "…" + s[len(s)-limit:]
	}
	return s
}
