package chat

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
	"github.com/wisp-sh/wisp/internal/tty"
)

// editorOnPTY is an Editor on a real pseudo-terminal, its screen read
// back through an emulator, and the person's side to type on.
func editorOnPTY(t *testing.T) (*Editor, *os.File, *rendertest.Screen) {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: 40})
	scr := rendertest.NewScreen(40, 24)
	go io.Copy(scr, master)
	ed := NewEditor(slave, "› ", &History{})
	t.Cleanup(func() { ed.Close(); master.Close(); scr.Close() })
	return ed, master, scr
}

type lineRead struct {
	line string
	err  error
}

func readAsync(ed *Editor) chan lineRead {
	got := make(chan lineRead, 1)
	go func() {
		l, err := ed.ReadLine(context.Background())
		got <- lineRead{l, err}
	}()
	return got
}

// waitScreen waits until the screen shows want; a guard against a hang.
func waitScreen(t *testing.T, scr *rendertest.Screen, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(scr.Text(), want) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the screen never showed %q:\n%s", want, scr.Text())
}

func TestEditorPasteIsOneLineSentByATypedEnter(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte("see: \x1b[200~line one\r!!rm -rf x\rline three\x1b[201~"))
	waitScreen(t, scr, "› see: [pasted 3 lines]")
	select {
	case r := <-got:
		t.Fatalf("the paste ended the line: %+v", r)
	default:
	}
	master.Write([]byte(" ok"))
	waitScreen(t, scr, "lines] ok")
	master.Write([]byte("\r"))
	if r := <-got; r.err != nil || r.line != "see: line one\n!!rm -rf x\nline three ok" {
		t.Errorf("read %q, %v", r.line, r.err)
	}
}

func TestEditorEditsAndRecalls(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte("wrld\x1b[D\x1b[D\x1b[Do\x05!\x7f?"))
	waitScreen(t, scr, "› world?")
	master.Write([]byte("\r"))
	if r := <-got; r.line != "world?" {
		t.Fatalf("read %q", r.line)
	}
	got = readAsync(ed)
	master.Write([]byte("\x1b[A"))
	waitScreen(t, scr, "› world?\n› world?")
	master.Write([]byte("\x15new \x17again"))
	waitScreen(t, scr, "› again")
	master.Write([]byte("\x03"))
	if r := <-got; !errors.Is(r.err, ErrInterrupted) {
		t.Errorf("Ctrl-C over a line: %q, %v", r.line, r.err)
	}
	got = readAsync(ed)
	waitScreen(t, scr, "^C\n›")
	master.Write([]byte{0x04})
	if r := <-got; r.err != io.EOF {
		t.Errorf("Ctrl-D at an empty line: %v", r.err)
	}
}

// Others' characters in a pasted line show as escapes; the line sent is
// what was pasted. A line longer than the terminal wraps and the cursor
// comes back to where it edits.
func TestEditorShowsControlsAndWraps(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	long := strings.Repeat("abcdefghij", 6)
	master.Write([]byte("\x1b[200~x\x1b]0;t\x07" + long + "\x1b[201~"))
	waitScreen(t, scr, `› x\x1b]0;t\a`)
	master.Write([]byte("\x01"))
	waitCursor(t, scr, 2, 0)
	master.Write([]byte("\r"))
	if r := <-got; r.line != "x\x1b]0;t\x07"+long {
		t.Errorf("read %q", r.line)
	}
	if titles := scr.Titles(); len(titles) > 0 {
		t.Errorf("a pasted line set the title: %q", titles)
	}
}

func waitCursor(t *testing.T, scr *rendertest.Screen, x, y int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if c := scr.Cursor(); c.X == x && c.Y == y {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the cursor is at %v, want (%d,%d):\n%s", scr.Cursor(), x, y, scr.Text())
}

// Between lines the terminal does not echo what is typed, and keeps it
// for the next line.
func TestEditorQuietBetweenLines(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	master.Write([]byte("typed ahead"))
	deadline := time.Now().Add(10 * time.Second)
	for n, _ := tty.Queued(ed.tty); n != len("typed ahead") && time.Now().Before(deadline); n, _ = tty.Queued(ed.tty) {
		time.Sleep(5 * time.Millisecond)
	}
	if strings.Contains(scr.Text(), "typed") {
		t.Fatalf("keys typed between lines were echoed:\n%s", scr.Text())
	}
	got := readAsync(ed)
	waitScreen(t, scr, "› typed ahead")
	master.Write([]byte("\r"))
	if r := <-got; r.line != "typed ahead" {
		t.Errorf("read %q", r.line)
	}
}

// Where the terminal does not bracket, keys that come in one read with an
// Enter are a paste: the line waits for a typed Enter.
func TestEditorBurstIsAPaste(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte("!!rm -rf x\r"))
	waitScreen(t, scr, "› !!rm -rf x")
	master.Write([]byte("y")) // still in the line: the burst's Enter did not end it
	waitScreen(t, scr, "› !!rm -rf xy")
	master.Write([]byte("\r"))
	if r := <-got; r.line != "!!rm -rf xy" {
		t.Errorf("read %q", r.line)
	}
}

// A paste of several lines that starts with !! shows its marks: on Enter
// it runs as a command outside the sandbox, and the person can see so.
func TestEditorPastedCommandShowsItsMarks(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte("\x1b[200~!!make\rmake install\x1b[201~"))
	waitScreen(t, scr, "› !![pasted 2 lines]")
	master.Write([]byte("\r"))
	if r := <-got; r.line != "!!make\nmake install" {
		t.Errorf("read %q", r.line)
	}
}

// Ctrl-C at an empty prompt does not leave: the first says how to, a
// second right after it leaves; a key between them starts over.
func TestEditorCtrlCTwiceAtAnEmptyPromptLeaves(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte{0x03})
	if r := <-got; !errors.Is(r.err, ErrInterruptedEmpty) {
		t.Fatalf("the first Ctrl-C at an empty prompt: %q, %v", r.line, r.err)
	}
	got = readAsync(ed)
	waitScreen(t, scr, "^C\n›")
	master.Write([]byte("x"))
	waitScreen(t, scr, "^C\n› x")
	master.Write([]byte("\x7f\x03"))
	if r := <-got; !errors.Is(r.err, ErrInterruptedEmpty) {
		t.Fatalf("a Ctrl-C after a key typed and erased: %q, %v", r.line, r.err)
	}
	got = readAsync(ed)
	waitScreen(t, scr, "› ^C\n› ^C\n›")
	master.Write([]byte{0x03})
	if r := <-got; r.err != io.EOF {
		t.Errorf("the second Ctrl-C in a row: %v, want io.EOF", r.err)
	}
}

// A notice from another goroutine (the model check) shows above the line
// being typed, which is drawn again under it and goes on as it was; a
// notice of several lines shows each from the start of a line.
func TestEditorShowsANoticeAboveTheLine(t *testing.T) {
	ed, master, scr := editorOnPTY(t)
	got := readAsync(ed)
	waitScreen(t, scr, "›")
	master.Write([]byte("half"))
	waitScreen(t, scr, "› half")
	ed.Notify("· the model cannot be reached", func() { t.Error("the editor was reading, but said it was not") })
	waitScreen(t, scr, "· the model cannot be reached\n› half")
	// A note wrapped to the width: each of its lines from the start.
	ed.Notify("· a note too long for one line,\nwrapped", func() { t.Error("the editor was reading, but said it was not") })
	waitScreen(t, scr, "· the model cannot be reached\n· a note too long for one line,\nwrapped\n› half")
	master.Write([]byte(" done"))
	waitScreen(t, scr, "› half done")
	master.Write([]byte("\r"))
	if r := <-got; r.err != nil || r.line != "half done" {
		t.Errorf("read %q, %v", r.line, r.err)
	}
	ran := false
	ed.Notify("later", func() { ran = true })
	if !ran {
		t.Error("a notice while no line is read did not go to its fallback")
	}
	// Raw, a moment before a prompt: the editor writes it, each line from
	// the start.
	restore, err := ed.makeRaw()
	if err != nil {
		t.Fatal(err)
	}
	ed.Notify("· raw before\nthe prompt", func() { t.Error("the terminal was raw, but the notice went to its fallback") })
	restore()
	waitScreen(t, scr, "› half done\n· raw before\nthe prompt")
}
