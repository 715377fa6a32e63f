package tui

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
)

// Resumed, the tui shows the end of the conversation as it showed it
// live, its command a finished card, then the mark where it resumes.
func TestResumeShowsTheConversationSoFar(t *testing.T) {
	m, _, _ := newTestModel(false)
	records := []agent.Record{
		{Kind: agent.RecordUser, Text: "do the tests pass?"},
		{Kind: agent.RecordAssistant, Text: "Let me see.", ToolCalls: []agent.RecordToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"go test ./..."}`}}},
		{Kind: agent.RecordTool, CallID: "c1", Name: "run_command", Text: "ok  example.com/p 0.1s"},
		{Kind: agent.RecordAssistant, Text: "They **pass**."},
	}
	for _, ev := range agent.Replay(records, 40) {
		feed(m, evMsg{ev})
	}
	feed(m, evMsg{agent.Event{Type: agent.EventReady, Thread: "t1", Model: "granite", Dir: "/home/ana/shop", Messages: 4}})
	screen := screenOf(m)
	at := 0
	for _, w := range []string{"› do the tests pass?", "Let me see.", "● go test ./...", "ok  example.com/p 0.1s", "They pass.",
		agent.ResumeMark, "resumed thread t1 (4 messages)"} {
		i := strings.Index(screen[at:], w)
		if i < 0 {
			t.Fatalf("the resumed tui lacks %q after offset %d:\n%s", w, at, screen)
		}
		at += i + len(w)
	}
	if strings.Contains(screen, "running") || strings.Contains(screen, "**") {
		t.Errorf("a card left running, or Markdown raw:\n%s", screen)
	}
}
