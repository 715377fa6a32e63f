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
