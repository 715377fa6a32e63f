package chat

import (
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

// faceOnPTY is a TerminalFace writing to a real pseudo-terminal, read
// back through an emulator.
func faceOnPTY(t *testing.T, cols int) (*TerminalFace, *rendertest.Screen) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: uint16(cols)})
	scr := rendertest.NewScreen(cols, 24)
	go io.Copy(scr, master)
	t.Cleanup(func() { slave.Close(); master.Close(); scr.Close() })
	return NewTerminalFace(slave, slave, false), scr
}

// The spinner shows while the model is silent and is gone when its words
// come; the words take its place.
func TestSpinnerClearsWhenTheWordsCome(t *testing.T) {
	f, scr := faceOnPTY(t, 60)
	f.Emit(agent.Event{Type: agent.EventWaiting})
	waitScreen(t, scr, "waiting for the model · 0s")
	f.Emit(agent.Event{Type: agent.EventText, Text: "Here it is."})
	f.Emit(agent.Event{Type: agent.EventMessage, Text: "Here it is."})
	waitScreen(t, scr, "Here it is.")
	if strings.Contains(scr.Text(), "waiting") || scr.Lines()[0] != "Here it is." {
		t.Errorf("the spinner stayed:\n%s", scr.Text())
	}
}

// A model's command shows its last lines, each cut to the width and its
// escapes shown, while it runs; then only the usual result stays.
func TestARunningCommandShowsItsLastLinesThenTheResult(t *testing.T) {
	f, scr := faceOnPTY(t, 40)
	zero := 0
	f.Emit(agent.Event{Type: agent.EventToolCall, Name: "run_command", Command: "make"})
	f.Emit(agent.Event{Type: agent.EventCommandStart, Origin: "model", Command: "make"})
	waitScreen(t, scr, "⋯ running · 0s")
	f.Emit(agent.Event{Type: agent.EventOutput, Origin: "model", Text: "one\ntwo\nthree\nfour " + strings.Repeat("x", 60) + "\nfi"})
	f.Emit(agent.Event{Type: agent.EventOutput, Origin: "model", Text: "ve\x1b]0;t\x07\n"})
	waitScreen(t, scr, `  │ five\x1b]0;t\a`)
	lines := scr.Lines()
	if len(lines) != 5 || lines[2] != "  │ three" || len([]rune(lines[3])) != 39 || !strings.HasSuffix(lines[3], "…") {
		t.Errorf("the live rows:\n%s", scr.Text())
	}
	if len(scr.Titles()) > 0 {
		t.Errorf("the output set the title: %q", scr.Titles())
	}
	f.Emit(agent.Event{Type: agent.EventCommandOutcome, Origin: "model", Command: "make", Ran: true, ExitCode: &zero, Output: "done\n"})
	f.Emit(agent.Event{Type: agent.EventToolResult, Name: "run_command", Text: "done"})
	f.Emit(agent.Event{Type: agent.EventText, Text: "Built."})
	f.Emit(agent.Event{Type: agent.EventMessage, Text: "Built."})
	waitScreen(t, scr, "Built.")
	if got := scr.Text(); got != "● make\n  │ done\nBuilt." {
		t.Errorf("after the run the screen is\n%s", got)
	}
}

// While a dialog asks (Hold), nothing is drawn in place; after it, a
// running command's rows come back, and not if something was written.
func TestHoldKeepsTheRowsOffADialog(t *testing.T) {
	f, scr := faceOnPTY(t, 40)
	f.Emit(agent.Event{Type: agent.EventToolCall, Name: "run_command", Command: "curl x"})
	f.Emit(agent.Event{Type: agent.EventCommandStart, Origin: "model", Command: "curl x"})
	f.Emit(agent.Event{Type: agent.EventOutput, Origin: "model", Text: "connecting\n"})
	waitScreen(t, scr, "  │ connecting")
	resume := f.Hold()
	f.Emit(agent.Event{Type: agent.EventOutput, Origin: "model", Text: "more\n"})
	f.mu.Lock() // the dialog would draw now: the face drew nothing since
	drawn := f.prog
	f.mu.Unlock()
	if drawn != nil {
		t.Fatal("the rows are still drawn during a Hold")
	}
	resume()
	waitScreen(t, scr, "  │ connecting\n  │ more")
	again := f.Hold()
	f.Emit(agent.Event{Type: agent.EventNote, Text: "· a note"})
	again()
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.prog != nil {
		t.Error("the rows came back over what was written during the Hold")
	}
}
