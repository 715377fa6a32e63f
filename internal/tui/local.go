package tui

import (
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// What the tui shows of a local model's ways: its thinking folded into
// one line (the status says "thinking" while it lasts), the wait for a
// model that loads, what to try after a failure, a call written as text.

// thinkingLine stands for the model's thinking, which is not shown.
const thinkingLine = "· thinking …"

// localEvent draws the events only a local model's turn brings; false
// for the others.
func (m *Model) localEvent(ev agent.Event, now time.Time) bool {
	switch {
	case ev.Type == agent.EventReasoning:
		if m.state.label != "thinking" {
			m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: thinkingLine})
			m.state.waiting(now)
			m.state.label = "thinking"
		}
	case ev.Type == agent.EventRetract:
		// The screen is drawn again from the transcript: the words that
		// were thinking after all fold into its line, as thinking shows.
		if e := m.tr.last(); e != nil && e.kind == entryWords && e.open {
			*e = entry{kind: entryNote, level: agent.LevelInfo, text: thinkingLine}
			break
		}
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· the words above were the model's thinking, not its answer"})
	case ev.Type == agent.EventError && refusedTools(ev):
		// The server answered, so the model is within reach, only not
		// with tools: the status line must not send the person to
		// model.baseURL.
		m.tr.add(&entry{kind: entryNote, level: agent.LevelWarning, text: "wisp: error: " + ev.Text})
		m.hints(ev)
	case ev.Type == eventWaiting && ev.Text != "":
		m.state.waiting(now)
		m.state.label = ev.Text
	case ev.Type == agent.EventToolCall && ev.FromText:
		m.state.label = ""
		return false
	default:
		if ev.Type != eventWaiting {
			m.state.label = ""
		}
		return false
	}
	return true
}

// refusedTools reports whether ev is the server refusing the tools, whose
// hints offer /tools off.
func refusedTools(ev agent.Event) bool {
	for _, h := range ev.Hints {
		if strings.Contains(h, "/tools off") {
			return true
		}
	}
	return false
}

// hints adds what the person may try after a note or an error, and marks
// a call the model wrote as text.
func (m *Model) hints(ev agent.Event) {
	for _, h := range ev.Hints {
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "  · " + render.Line(h)})
	}
	if ev.Type == agent.EventToolCall && ev.FromText {
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo,
			text: "  (the model wrote this call as text; it runs as any call would)"})
	}
}
