package tui

import (
	"fmt"
	"github.com/wisp-sh/wisp/internal/bar"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/render"
)

// Status is what the status line says besides the model's state.
type Status struct {
	Model   string
	Dir     string // the project folder
	Sandbox string // Landlock ABI n, Seatbelt, off, nested
	Network bool   // confined commands may reach the network
}

// modelState is the model's part of the status line: idle, waiting for
// the first token (since when), streaming, or cannot be reached (why).
type modelState struct {
	waitingSince time.Time // zero: not waiting
	streaming    bool
	down         string // why the model cannot be reached; "" when it can
	label        string // what the wait is, when not the first token: "thinking", "loading the model"
}

func (s *modelState) turnStarted(now time.Time) {
	s.waitingSince, s.streaming = now, false
}

// waiting is a new request to the model within the turn.
func (s *modelState) waiting(now time.Time) {
	if s.waitingSince.IsZero() {
		s.waitingSince, s.streaming = now, false
	}
}

func (s *modelState) text() {
	s.waitingSince, s.streaming, s.down, s.label = time.Time{}, true, "", ""
}

func (s *modelState) turnEnded() { s.waitingSince, s.streaming, s.label = time.Time{}, false, "" }

func (s *modelState) unreachable(why string) { s.down = why }

// failed takes a model's error during a turn as the model being out of
// reach until it answers again.
func (s *modelState) failed(why string) {
	if !s.waitingSince.IsZero() || s.streaming {
		s.down = why
	}
}

// say is the state in words.
func (s modelState) say(now time.Time, busy bool) string {
	switch {
	case !s.waitingSince.IsZero() && s.label != "":
		return fmt.Sprintf("%s · %ds", s.label, int(now.Sub(s.waitingSince).Seconds()))
	case !s.waitingSince.IsZero():
		return fmt.Sprintf("waiting for the first token %ds", int(now.Sub(s.waitingSince).Seconds()))
	case s.streaming:
		return "streaming"
	case s.down != "":
		return "cannot be reached: " + s.down + "; check model.baseURL (wisp doctor); ! and !! still run"
	case busy:
		return "running a command"
	}
	return "ready"
}

// statusLines are the last lines: the model and its state, the sandbox,
// the network, the requests waiting in the pending channel and the
// folder. On one line where they fit; else the model's state has a line
// of its own above the rest, so the sandbox, the network and the count
// always show whole.
func (m *Model) statusLines() []string {
	network := "network off"
	if m.o.Status.Network {
		network = "network on"
	}
	sandbox := m.o.Status.Sandbox
	if sandbox == "" {
		sandbox = "…"
	}
	state := render.Line(m.o.Status.Model) + ": " + render.Line(m.stateWords())
	waiting := fmt.Sprintf("%d waiting", m.waiting)
	if m.waiting < 0 {
		waiting = "? waiting"
	}
	rest := "sandbox: " + render.Line(sandbox) + " · " + network + " · " + waiting +
		" · " + render.Line(bar.Folder(m.o.Status.Dir, m.o.Home))
	if one := state + " · " + rest; ansi.StringWidth(one)+1 <= m.width {
		return []string{m.statusRow(one)}
	}
	return []string{m.statusRow(state), m.statusRow(rest)}
}

func (m *Model) statusRow(s string) string {
	line := ansi.Truncate(" "+s, m.width, "…")
	return m.st.status.Render(line + strings.Repeat(" ", max(0, m.width-ansi.StringWidth(line))))
}

func (m *Model) stateWords() string {
	switch {
	case len(m.dialogs) > 0:
		return "waiting for your answer"
	case m.list != nil && m.busy:
		return "working; the list is open"
	}
	return m.state.say(m.o.Now(), m.busy)
}
