package tui

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/checkpoint"
	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
)

// storeLoop undoes over a real checkpoint store, as the agent does: the
// plan shown, one question, the files put back.
type storeLoop struct {
	fakeLoop
	s *checkpoint.Store
}

func (l *storeLoop) Undo(redo bool, out io.Writer, ask undo.Ask) error {
	p, err := undo.PlanUndo(l.s, 0)
	if redo {
		p, err = undo.PlanRedo(l.s)
	}
	if err != nil {
		return err
	}
	d, err := undo.Run(l.s, p, out, ask)
	if err == nil {
		fmt.Fprintln(out, "· "+d.String())
	}
	return err
}

// A turn's undo asks in a dialog, not through a command: what will change
// is in the transcript and, its end, in the dialog; a file changed by hand
// since the turn is asked about as keep, overwrite or cancel, once. Enter
// and other keys answer nothing; k keeps it and undoes the rest. /redo
// asks yes or no, and Esc is no: nothing changes.
func TestUndoAsksInADialog(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	read := func(name string) string {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		return string(data)
	}
	s, err := checkpoint.Open(checkpoint.Dir(t.TempDir(), dir), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	write("a.txt", "one\n")
	before, err := s.Take([]string{dir}, undo.BeforeLabel("tidy up"))
	if err != nil {
		t.Fatal(err)
	}
	write("a.txt", "two\n") // the turn
	write("b.txt", "made\n")
	if _, err := s.Take([]string{dir}, undo.AfterLabel(before)); err != nil {
		t.Fatal(err)
	}
	write("b.txt", "made, and my own line\n") // the person, since

	m, _, _ := newTestModel(false)
	m.o.Loop = &storeLoop{s: s}
	m.o.Slash = func(context.Context, string, io.Writer) (bool, bool) {
		t.Error("/undo went to chat's command, which answers by command")
		return false, true
	}
	running := startUndo(t, m, "/undo")
	ask := waitFor[undoAskMsg](t, m)
	feed(m, ask)
	screen := screenOf(m)
	for _, want := range []string{"take back the files' changes?", "~ a.txt", "! b.txt", "[k] keep   [o] overwrite   [c] cancel"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, screen)
		}
	}
	press(m, tea.KeyPressMsg{Code: tea.KeyEnter}, tea.KeyPressMsg{Code: 'y', Text: "y"})
	if len(m.dialogs) != 1 {
		t.Fatalf("Enter or y answered the question")
	}
	press(m, tea.KeyPressMsg{Code: 'k', Text: "k"})
	feed(m, waitFor[undoDoneMsg](t, m))
	<-running
	if got := read("a.txt"); got != "one\n" {
		t.Errorf("a.txt is %q after the undo, want it put back", got)
	}
	if got := read("b.txt"); got != "made, and my own line\n" {
		t.Errorf("the person's edit was not kept: %q", got)
	}
	if screen := screenOf(m); !strings.Contains(screen, "· you answered keep") || !strings.Contains(screen, "undone") || m.busy {
		t.Errorf("the end of the undo is not shown (busy %v):\n%s", m.busy, screen)
	}

	running = startUndo(t, m, "/redo")
	feed(m, waitFor[undoAskMsg](t, m))
	if screen := screenOf(m); !strings.Contains(screen, "[y] yes   [n] no") {
		t.Errorf("the redo dialog lacks its keys:\n%s", screen)
	}
	press(m, tea.KeyPressMsg{Code: tea.KeyEscape})
	feed(m, waitFor[undoDoneMsg](t, m))
	<-running
	if got := read("a.txt"); got != "one\n" {
		t.Errorf("a redo said no to changed a.txt to %q", got)
	}
	if screen := screenOf(m); !strings.Contains(screen, "· you answered no") || !strings.Contains(screen, "· nothing was changed") {
		t.Errorf("the refused redo is not said:\n%s", screen)
	}
}

// startUndo types line and runs the command it starts in the background,
// as the program does; the channel closes when it ends.
func startUndo(t *testing.T, m *Model, line string) chan struct{} {
	t.Helper()
	for _, k := range seq(line) {
		press(m, k)
	}
	_, cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatalf("%s started nothing:\n%s", line, screenOf(m))
	}
	done := make(chan struct{})
	go func() { cmd(); close(done) }()
	return done
}

// waitFor takes the face's queued messages until one of type T comes
// (the others are fed to the model in order).
func waitFor[T tea.Msg](t *testing.T, m *Model) T {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		for _, msg := range evMsgs(m) {
			if want, ok := msg.(T); ok {
				return want
			}
			feed(m, msg)
		}
	}
	var zero T
	t.Fatalf("no %T came:\n%s", zero, screenOf(m))
	return zero
}
