package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
)

// A local model's turn in the tui: its thinking is one folded line and
// the status says it thinks; a model that loads is said; what to try
// follows a failure; the thinking's words never show.
func TestLocalModelTurn(t *testing.T) {
	m, _, c := newTestModel(false)
	status := func() string {
		lines := strings.Split(screenOf(m), "\n")
		return lines[len(lines)-2] + "\n" + lines[len(lines)-1]
	}
	feed(m, typing("hi")...)
	m.Update(kEnter)
	feed(m, evMsg{agent.Event{Type: "waiting", Text: "loading the model"}})
	c.add(40 * time.Second)
	if !strings.Contains(status(), "granite: loading the model · 40s") {
		t.Errorf("status while the model loads: %q", status())
	}
	feed(m, evMsg{agent.Event{Type: agent.EventReasoning, Text: "The person greets me. "}},
		evMsg{agent.Event{Type: agent.EventReasoning, Text: "I should greet back."}})
	if !strings.Contains(status(), "granite: thinking ·") {
		t.Errorf("status while the model thinks: %q", status())
	}
	feed(m, evMsg{agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· the model thought but answered nothing",
		Hints: []string{"ask again, or in other words"}}}, turnDoneMsg{})
	screen := screenOf(m)
	if strings.Count(screen, "· thinking …") != 1 || strings.Contains(screen, "greet") {
		t.Errorf("the thinking is not one folded line:\n%s", screen)
	}
	for _, want := range []string{"· the model thought but answered nothing", "· ask again, or in other words"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	if !strings.Contains(status(), "granite: ready") {
		t.Errorf("the status after the turn: %q", status())
	}
}

// A distill's words that were thinking after all fold into the thinking
// line; a server that refused the tools was reached, and the status line
// does not say otherwise.
func TestLocalRetractFoldsAndToolsRefusedIsReachable(t *testing.T) {
	m, _, _ := newTestModel(false)
	feed(m, typing("hi")...)
	m.Update(kEnter)
	feed(m, evMsg{agent.Event{Type: agent.EventText, Text: "Okay, so the user wants the files."}},
		evMsg{agent.Event{Type: agent.EventRetract, Text: "Okay, so the user wants the files."}},
		evMsg{agent.Event{Type: agent.EventText, Text: "Run ls."}},
		evMsg{agent.Event{Type: agent.EventMessage, Text: "Run ls."}}, turnDoneMsg{})
	if s := screenOf(m); strings.Contains(s, "user wants") || !strings.Contains(s, "· thinking …\n") || !strings.Contains(s, "Run ls.") {
		t.Errorf("the thinking did not fold:\n%s", s)
	}
	feed(m, typing("again")...)
	m.Update(kEnter)
	feed(m, evMsg{agent.Event{Type: agent.EventError, Text: "the model gemma3:4b cannot use tools",
		Hints: []string{"/tools off (chat, tui) talks to it without tools"}}}, turnDoneMsg{})
	s := screenOf(m)
	if !strings.Contains(s, "wisp: error: the model gemma3:4b cannot use tools") || !strings.Contains(s, "· /tools off") {
		t.Errorf("the refusal is not shown with its hint:\n%s", s)
	}
	if lines := strings.Split(s, "\n"); !strings.Contains(lines[len(lines)-2]+lines[len(lines)-1], "granite: ready") {
		t.Errorf("the status after the tools were refused:\n%s", s)
	}
}
