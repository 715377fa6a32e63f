package chat

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
)

// Resumed, the plain chat shows the end of the conversation as it was
// shown live (the person's line, the model's words rendered, its command
// and output), then the mark where it resumes and the usual head line.
func TestResumeShowsTheConversationSoFar(t *testing.T) {
	records := []agent.Record{
		{Kind: agent.RecordStart, Dir: "/p"},
		{Kind: agent.RecordUser, Text: "an old question"},
		{Kind: agent.RecordAssistant, Text: "an old answer"},
		{Kind: agent.RecordUser, Text: "do the tests pass?"},
		{Kind: agent.RecordAssistant, Text: "Let me see.", ToolCalls: []agent.RecordToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"go test ./..."}`}}},
		{Kind: agent.RecordTool, CallID: "c1", Name: "run_command", Text: "ok  \texample.com/p\t0.1s\n[exit status 0]"},
		{Kind: agent.RecordAssistant, Text: "They **pass**."},
		{Kind: agent.RecordResume, Dir: "/p"},
	}
	var out strings.Builder
	f := NewTerminalFace(&out, &out, false)
	for _, ev := range agent.Replay(records, 5) {
		f.Emit(ev)
	}
	f.Emit(agent.Event{Type: agent.EventReady, Thread: "t1", Model: "m", Dir: "/p", Messages: 5})
	got := out.String()
	want := []string{"· 2 earlier entries of this thread are not shown", "› do the tests pass?", "Let me see.",
		"● go test ./...", "│ ok", "They pass.", agent.ResumeMark, "wisp chat · m · /p · resumed thread t1 (5 messages)"}
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("the resumed chat lacks %q after offset %d:\n%s", w, at, got)
		}
		at += i + len(w)
	}
	if strings.Contains(got, "an old question") || strings.Contains(got, "**") {
		t.Errorf("an entry past the screenful, or Markdown left raw:\n%s", got)
	}
}
