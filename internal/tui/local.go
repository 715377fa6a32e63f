package tui

import (
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// What the tui shows of a local model's ways: its thinking folded into
// one line (the status says "thinking" while it lasts), the wait for a
// model that loads, what to try after a failure, a call written as text.

// localEvent draws the events only a local model's turn brings; false
// for the others.
func (m *Model) localEvent(ev agent.Event, now time.Time) bool {
	switch {
	case ev.Type == agent.EventReasoning:
		if m.state.label != "thinking" {
			m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· thinking …"})
			m.state.waiting(now)
			m.state.label = "thinking"
		}
	case ev.Type == agent.EventRetract:
		m.tr.add(&entry{kind: entryNote, level: agent.LevelInfo, text: "· the words above were the model's thinking, not its answer"})
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
