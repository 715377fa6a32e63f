package chat

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
	"github.com/wisp-sh/wisp/internal/runner"
)

func TestTerminalFaceRendersAConversation(t *testing.T) {
	var out bytes.Buffer
	f := NewTerminalFace(&out, &out, false)
	zero, one := 0, 1
	for _, ev := range []agent.Event{
		{Type: agent.EventText, Text: "Let me "},
		{Type: agent.EventText, Text: "check."},
		{Type: agent.EventToolCall, Name: "run_command", Command: "ls", Arguments: `{"command":"ls"}`},
		{Type: agent.EventCommandOutcome, Origin: "model", Command: "ls", Ran: true, ExitCode: &zero, Output: "a\nb\n"},
		{Type: agent.EventToolResult, Name: "run_command", Text: "a\nb\n[exit status 0]"},
		{Type: agent.EventToolCall, Name: "run_command", Command: "brew upgrade", OutsideSandbox: true},
		{Type: agent.EventNote, Level: agent.LevelDanger, Text: "run brew upgrade OUTSIDE THE SANDBOX, this once, in /p"},
		{Type: agent.EventToolCall, Name: "inspect", Arguments: `{"what":"limits"}`},
		{Type: agent.EventToolResult, Name: "inspect", Text: "Commands run in a sandbox\nTime limit: 120 s"},
		{Type: agent.EventText, Text: "Done"},
		{Type: agent.EventMessage, Text: "Let me check.Done"},
		{Type: agent.EventCommandStart, Origin: "person", Command: "make"},
		{Type: agent.EventOutput, Text: "building"},
		{Type: agent.EventCommandOutcome, Origin: "person", Command: "make", Ran: true, ExitCode: &one, Output: "building",
			Notes: []string{"· exit status 1", "· the sandbox refused writing to /x; commands may write only under /p"}},
		{Type: agent.EventError, Text: "the model server at http://x/v1 is not answering"},
	} {
		f.Emit(ev)
	}
	want := `Let me check.
● ls
  │ a
  │ b
● brew upgrade  (asks to run OUTSIDE the sandbox)
run brew upgrade OUTSIDE THE SANDBOX, this once, in /p
● inspect {"what":"limits"}
  ⎿ Commands run in a sandbox …
Done
building
· exit status 1
· the sandbox refused writing to /x; commands may write only under /p
wisp: error: the model server at http://x/v1 is not answering
`
	if out.String() != want {
		t.Errorf("rendered\n%s\nwant\n%s", out.String(), want)
	}
}

func TestTerminalFaceColours(t *testing.T) {
	var out bytes.Buffer
	NewTerminalFace(&out, &out, true).Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelDanger, Text: runner.OutsideTypedNote})
	if out.String() != sgrDanger+runner.OutsideTypedNote+sgrReset+"\n" {
		t.Errorf("danger note %q", out.String())
	}
	for _, tc := range []struct {
		env  map[string]string
		tty  bool
		want bool
	}{
		{map[string]string{"TERM": "xterm"}, true, true},
		{map[string]string{"TERM": "xterm"}, false, false},
		{map[string]string{"TERM": "xterm", "NO_COLOR": "1"}, true, false},
		{map[string]string{"TERM": "dumb"}, true, false},
	} {
		if got := ColourWanted(func(k string) string { return tc.env[k] }, tc.tty); got != tc.want {
			t.Errorf("ColourWanted(%v, tty %v) = %v", tc.env, tc.tty, got)
		}
	}
}

func TestRespondFaceKeepsStdoutForTheWords(t *testing.T) {
	var words, notes bytes.Buffer
	f := NewTerminalFace(&words, &notes, false)
	f.Emit(agent.Event{Type: agent.EventText, Text: "The answer"})
	f.Emit(agent.Event{Type: agent.EventToolCall, Name: "run_command", Command: "ls"})
	f.Emit(agent.Event{Type: agent.EventMessage, Text: "The answer"})
	if words.String() != "The answer\n" || !strings.Contains(notes.String(), "● ls") {
		t.Errorf("words %q, notes %q", words.String(), notes.String())
	}
}

// The file, read by the model: through the face, on an emulated
// terminal, nothing it holds erases a line, forges one of wisp's, or
// sets the title, in any event that carries others' text.
func TestTerminalFaceShowsOthersEscapesVisibly(t *testing.T) {
	evil := "\x1b[3A\x1b[2K· the sandbox is off for this project (approved always)\x1b]0;pwned-title\x07"
	for _, colour := range []bool{false, true} {
		scr := rendertest.NewScreen(100, 40)
		f := NewTerminalFace(rendertest.OutputCRLF(scr), rendertest.OutputCRLF(scr), colour)
		zero := 0
		f.Println("› read evil.txt")
		for _, ev := range []agent.Event{
			{Type: agent.EventText, Text: "Reading \x1b[3"},
			{Type: agent.EventText, Text: "A it." + evil},
			{Type: agent.EventMessage},
			{Type: agent.EventToolCall, Name: "run_command", Command: "cat evil.txt" + evil},
			{Type: agent.EventCommandOutcome, Origin: "model", Command: "cat evil.txt", Ran: true, ExitCode: &zero, Output: evil + "\n"},
			{Type: agent.EventToolCall, Name: "inspect" + evil, Arguments: evil},
			{Type: agent.EventToolResult, Name: "inspect", Text: evil},
			{Type: agent.EventError, Text: evil},
			{Type: agent.EventNote, Level: agent.LevelWarning, Text: "· exit status 1 " + evil},
			// The agent's note for a model's command approved to run outside.
			{Type: agent.EventNote, Level: agent.LevelDanger, Text: "run " + render.Line("touch x\n· the sandbox is off") + " OUTSIDE THE SANDBOX, this once, in /p"},
			{Type: agent.EventCommandOutcome, Origin: "model", Ran: true, ExitCode: &zero, Notes: []string{"· refused\n· the sandbox is off"}},
		} {
			f.Emit(ev)
		}
		lines := scr.Lines()
		if len(lines) == 0 || lines[0] != "› read evil.txt" {
			t.Errorf("colour %v: the first line was erased or moved:\n%s", colour, scr.Text())
		}
		for _, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), "· the sandbox is off") {
				t.Errorf("colour %v: a line reads as wisp's own: %q\n%s", colour, l, scr.Text())
			}
		}
		if n := strings.Count(scr.Text(), `\x1b[3A\x1b[2K`); n < 7 {
			t.Errorf("colour %v: the escapes are shown %d times, want every event's:\n%s", colour, n, scr.Text())
		}
		if titles := scr.Titles(); len(titles) > 0 {
			t.Errorf("colour %v: the title was set: %q", colour, titles)
		}
		scr.Close()
	}
}

func TestTerminalFaceWrapsTheModelsWordsAtTheWidth(t *testing.T) {
	var out bytes.Buffer
	f := NewTerminalFace(&out, &out, false)
	f.words.Width = func() int { return 16 }
	f.Emit(agent.Event{Type: agent.EventText, Text: "a sentence that is longer "})
	f.Emit(agent.Event{Type: agent.EventText, Text: "than the line"})
	f.Emit(agent.Event{Type: agent.EventMessage})
	if got := out.String(); got != "a sentence that\nis longer than\nthe line\n" {
		t.Errorf("wrapped %q", got)
	}
}
