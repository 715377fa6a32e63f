package runner_test

import (
	"bytes"
	"context"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/internal/runner"
)

// TestPersonCommandGetsATerminal runs a typed command attached to a real
// pseudo-terminal standing for the person's: the command sees a terminal,
// reads what the person types, and wisp still keeps its output.
func TestPersonCommandGetsATerminal(t *testing.T) {
	f := newFixture(t, true)
	master, tty, screen := openTerminal(t)
	go func() {
		for !strings.Contains(screen.String(), "name?") {
			time.Sleep(10 * time.Millisecond)
		}
		master.Write([]byte("wisp\r"))
	}()
	res, err := f.r.Run(context.Background(), runner.Request{
		Line: `test -t 0 && test -t 1 && printf 'name? ' && read n && echo "hello $n"`, Origin: runner.Person,
		Terminal: tty, Live: tty,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 || !strings.Contains(res.Output, "hello wisp") {
		t.Errorf("exit %d, output %q (screen %q)", res.ExitCode, res.Output, screen.String())
	}
}

// openTerminal stands a real pseudo-terminal in for the person's: tty is
// their terminal, master the side the test types into, and screen what
// they would see.
func openTerminal(t *testing.T) (master, tty *os.File, screen *lockedBuffer) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	screen = &lockedBuffer{}
	go func() {
		buf := make([]byte, 512)
		for {
			n, err := master.Read(buf)
			screen.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	return master, tty, screen
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestCtrlCReachesTheCommand: Ctrl-C typed at the person's terminal stops
// the command, through the pseudo-terminal's line discipline.
func TestCtrlCReachesTheCommand(t *testing.T) {
	f := newFixture(t, true)
	master, tty, screen := openTerminal(t)
	pressed := make(chan struct{})
	var presser sync.WaitGroup
	presser.Add(1)
	go func() {
		defer presser.Done()
		for !strings.Contains(screen.String(), "waiting") {
			select {
			case <-pressed:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
		// A person presses again when a Ctrl-C seems lost; so does this
		// test (twice seen in CI, never here), and says so.
		for try := 1; try <= 3; try++ {
			master.Write([]byte{3})
			select {
			case <-pressed:
				return
			case <-time.After(3 * time.Second):
				t.Logf("Ctrl-C %d did not stop the command within 3 s; pressing it again", try)
			}
		}
	}()
	defer func() { close(pressed); presser.Wait() }()
	done := make(chan runner.Result)
	go func() {
		res, _ := f.r.Run(context.Background(), runner.Request{Line: "echo waiting; sleep 30", Origin: runner.Person, Terminal: tty, Live: tty})
		done <- res
	}()
	select {
	case res := <-done:
		if res.ExitCode != 130 {
			t.Errorf("exit %d after Ctrl-C, want 130", res.ExitCode)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("Ctrl-C did not stop the command; the screen: %q", screen.String())
	}
}
