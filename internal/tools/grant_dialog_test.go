package tools_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/wisp-sh/wisp/internal/approval"
)

// ptyScreen is what a person at a pseudo-terminal sees.
type ptyScreen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *ptyScreen) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.buf.String() }

// waitFor waits until the screen shows want.
func (s *ptyScreen) waitFor(t *testing.T, want string) {
	t.Helper()
	for range 400 {
		if strings.Contains(s.String(), want) {
			return
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("the terminal never showed %q; it showed:\n%s", want, s.String())
}

// add_directory asks through the terminal face in its own words, with
// the model's reason, and its answer line says it holds for the session.
func TestAddDirectoryDialogThroughTheTerminal(t *testing.T) {
	w := newWorld(t, true)
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	screen := &ptyScreen{}
	go func() {
		var b [512]byte
		for {
			n, err := master.Read(b[:])
			screen.mu.Lock()
			screen.buf.Write(b[:n])
			screen.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	gate := &approval.Gate{Approvers: []approval.Approver{&approval.Terminal{TTY: tty}}}
	w.tb.Ask = gate.AskPerson
	got := make(chan string)
	go func() {
		out, err := w.tb.Call(context.Background(), "add_directory", `{"path": "`+w.repoSub+`", "reason": "the fix spans both repositories"}`)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- out.Text
	}()
	screen.waitFor(t, "[y]es, for this session [n]o")
	shown := strings.ReplaceAll(screen.String(), "\r\n", "\n")
	for _, want := range []string{
		"let commands write in " + w.repo + " for this session?\n",
		"  · the model says: the fix spans both repositories\n",
	} {
		if !strings.Contains(shown, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, shown)
		}
	}
	if strings.Contains(shown, "approve this command?") || strings.Contains(shown, "[y]once") {
		t.Errorf("the grant is asked as a command run once:\n%s", shown)
	}
	master.Write([]byte("y"))
	if out := <-got; out != "added "+w.repo+" to the writable roots for this session" {
		t.Errorf("the tool said %q", out)
	}
	screen.waitFor(t, "· approved: commands may write in "+w.repo+" until this session ends")
}
