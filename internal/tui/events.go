package tui

import (
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// event puts one event of the loop in the transcript and the status.
func (m *Model) event(ev agent.Event) {
	now := m.o.Now()
	if m.localEvent(ev, now) {
		return
	}
	switch ev.Type {
	case agent.EventReady:
		m.o.Status.Model, m.o.Status.Dir = ev.Model, ev.Dir
		m.ready(ev)
	case agent.EventText:
		m.state.text()
		m.tr.words(ev.Text)
	case agent.EventMessage:
		m.tr.message(ev.Text)
	case agent.EventToolCall:
		m.state.turnEnded() // the model has answered; its tools run
		m.tr.add(&entry{kind: entryCard, card: &card{id: ev.ID, name: ev.Name, command: ev.Command, args: ev.Arguments,
			asksOutside: ev.OutsideSandbox, started: now, running: true}})
	case agent.EventToolResult:
		m.toolResult(ev)
	case agent.EventCommandStart:
		m.commandStart(ev, now)
	case agent.EventOutput:
		// A typed command's output has no origin; a model's says model.
		if e := m.tr.runningCard(""); e != nil && e.card.person == (ev.Origin != "model") {
			e.card.live = appendTail(e.card.live, ev.Text)
		}
	case eventWaiting:
		m.state.waiting(now)
	case agent.EventCommandOutcome:
		m.outcome(ev, now)
	case agent.EventNote:
		if strings.HasPrefix(ev.Text, "· the model cannot be reached") {
			m.state.unreachable(strings.TrimPrefix(ev.Text, "· the model cannot be reached: "))
		}
		m.tr.add(&entry{kind: entryNote, level: ev.Level, text: ev.Text})
	case agent.EventError:
		m.state.failed(ev.Text)
		m.tr.add(&entry{kind: entryNote, level: agent.LevelWarning, text: "wisp: error: " + ev.Text})
	}
	m.hints(ev)
}

// eventWaiting is the agent's "waiting": a request went to the model and no
// word has come yet.
const eventWaiting = "waiting"

// commandStart opens the card of a command the person typed, or starts
// the clock of the model's command the gate has just cleared (its card
// opened with the tool call).
func (m *Model) commandStart(ev agent.Event, now time.Time) {
	if ev.Origin == "person" || ev.Origin == "" {
		m.tr.add(&entry{kind: entryCard, card: &card{command: ev.Command, person: true, outside: ev.OutsideSandbox,
			started: now, running: true, cleared: true}})
		return
	}
	if e := m.tr.runningCard(ev.Command); e != nil && !e.card.person {
		e.card.started, e.card.cleared = now, true
		return
	}
	m.tr.add(&entry{kind: entryCard, card: &card{command: ev.Command, started: now, running: true, cleared: true}})
}

func (m *Model) ready(ev agent.Event) {
	head := "wisp tui · " + render.Line(ev.Model) + " · " + render.Line(ev.Dir)
	if ev.Messages > 0 {
		head += " · resumed thread " + render.Line(ev.Thread) + " (" + itoa(ev.Messages) + " messages)"
	}
	m.tr.add(&entry{kind: entryLines, text: head + "\n" +
		"type a message; ! at the start runs a command in the sandbox, !! outside it; Ctrl-O lists the requests waiting; /help for more"})
}

// toolResult ends the card of a tool that is not run_command (run_command's
// outcome ends its own).
func (m *Model) toolResult(ev agent.Event) {
	e := m.tr.cardByID(ev.ID)
	if e == nil || ev.Name == "run_command" {
		if e != nil && e.card.running { // a call that never ran (stopped, malformed)
			e.card.running, e.card.ended, e.card.notRun = false, m.o.Now(), firstLine(ev.Text, 200)
			e.width = 0
		}
		return
	}
	e.card.running, e.card.ended, e.card.result = false, m.o.Now(), firstLine(ev.Text, 200)
	e.width = 0
}

// outcome ends the running card of the command.
func (m *Model) outcome(ev agent.Event, now time.Time) {
	e := m.tr.runningCard(ev.Command)
	if e == nil {
		e = m.tr.add(&entry{kind: entryCard, card: &card{command: ev.Command, person: ev.Origin == "person", started: now}})
	}
	c := e.card
	c.running, c.ended, c.ran = false, now, ev.Ran
	if ev.ExitCode != nil {
		c.exit = *ev.ExitCode
	}
	c.output, c.notes, c.sandboxLine = ev.Output, ev.Notes, ev.SandboxLine
	if !ev.Ran && len(ev.Notes) > 0 {
		c.notRun = ev.Notes[0]
	}
	e.width = 0
}

// liveTailBytes bounds what a card keeps of a typed command's output: it
// shows the last lines, and the output store keeps it all.
const liveTailBytes = 16 << 10

func appendTail(b []byte, s string) []byte {
	b = append(b, s...)
	if len(b) > liveTailBytes {
		b = append([]byte(nil), b[len(b)-liveTailBytes:]...)
	}
	return b
}
