package chat

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
)

// A local model's turn on a real terminal: the spinner says the model
// loads, the thinking is one dim line and a spinner that says so, then
// the answer; a retract and what to try are said; a call written as text
// is marked.
func TestLocalModelTurnOnTheTerminal(t *testing.T) {
	f, scr := faceOnPTY(t, 80)
	f.Emit(agent.Event{Type: agent.EventWaiting})
	f.Emit(agent.Event{Type: agent.EventWaiting, Text: "loading the model"})
	waitScreen(t, scr, "loading the model · 0s")
	f.Emit(agent.Event{Type: agent.EventReasoning, Text: "The person greets me. "})
	f.Emit(agent.Event{Type: agent.EventReasoning, Text: "I greet back."})
	waitScreen(t, scr, "thinking · 0s")
	f.Emit(agent.Event{Type: agent.EventText, Text: "Hello."})
	f.Emit(agent.Event{Type: agent.EventMessage, Text: "Hello."})
	f.Emit(agent.Event{Type: agent.EventToolCall, Name: "run_command", Command: "ls", FromText: true})
	f.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· the model hit its output limit in the middle of its answer",
		Hints: []string{"or ask for less at a time"}})
	waitScreen(t, scr, "  · or ask for less at a time")
	want := []string{
		"· thinking …",
		"Hello.",
		"● ls",
		"  (the model wrote this call as text; it runs as any call would)",
		"· the model hit its output limit in the middle of its answer",
		"  · or ask for less at a time",
	}
	if got := scr.Lines(); strings.Join(got[:len(want)], "\n") != strings.Join(want, "\n") {
		t.Errorf("the screen:\n%s\nwant:\n%s", scr.Text(), strings.Join(want, "\n"))
	}
	if strings.Contains(scr.Text(), "greet") || strings.Contains(scr.Text(), "loading") {
		t.Errorf("the thinking or the spinner stayed:\n%s", scr.Text())
	}
}

// Piped, as respond's stderr, the thinking is one line however long.
func TestThinkingIsOneLineOffATerminal(t *testing.T) {
	var words, notes strings.Builder
	f := NewTerminalFace(&words, &notes, false)
	for range 50 {
		f.Emit(agent.Event{Type: agent.EventReasoning, Text: "hmm\n"})
	}
	f.Emit(agent.Event{Type: agent.EventText, Text: "Yes."})
	f.Emit(agent.Event{Type: agent.EventMessage, Text: "Yes."})
	if notes.String() != "· thinking …\n" || words.String() != "Yes.\n" {
		t.Errorf("notes %q, words %q", notes.String(), words.String())
	}
}
