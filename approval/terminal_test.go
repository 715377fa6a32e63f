package approval

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/wisp-sh/wisp/policy"
)

// openPTY gives a Terminal on a real pseudo-terminal and the side a person
// types into and reads from.
func openPTY(t *testing.T) (*Terminal, *os.File, *screen) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	s := &screen{more: make(chan struct{}, 1)}
	go s.read(master)
	return &Terminal{TTY: tty}, master, s
}

// screen collects what the terminal shows.
type screen struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	seen int // waitFor consumes up to here
	more chan struct{}
}

func (s *screen) read(r io.Reader) {
	var b [256]byte
	for {
		n, err := r.Read(b[:])
		s.mu.Lock()
		s.buf.Write(b[:n])
		s.mu.Unlock()
		select {
		case s.more <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

// waitFor waits until the screen shows want after what earlier calls saw.
func (s *screen) waitFor(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		s.mu.Lock()
		rest := s.buf.String()[s.seen:]
		if i := strings.Index(rest, want); i >= 0 {
			s.seen += i + len(want)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		select {
		case <-s.more:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("the terminal never showed %q; it showed %q", want, rest)
		}
	}
}

func TestTerminalDialogAnsweredByKey(t *testing.T) {
	term, master, screen := openPTY(t)
	req := Request{Line: "rm -r build", Dir: "/proj", Level: policy.High, Reasons: []string{"rm -r deletes a tree"}, Scopes: AllScopes}
	got := make(chan Answer)
	go func() {
		a, _ := term.Ask(context.Background(), req)
		got <- a
	}()
	screen.waitFor(t, "[y]once [s]ession [p]roject [a]lways [n]o")
	master.Write([]byte("x")) // not an answer: ignored
	master.Write([]byte("s"))
	if a := <-got; !a.Approve || a.Scope != Session || a.By != "terminal" {
		t.Errorf("answer %+v, want approved for the session", a)
	}
	screen.waitFor(t, "· approved session")
}

func TestTerminalOutsideSandboxOffersOnlyOnce(t *testing.T) {
	term, master, screen := openPTY(t)
	req := Request{Line: "brew upgrade", Dir: "/proj", OutsideSandbox: true, Level: policy.Moderate,
		Reasons: []string{OutsideReason}, Scopes: []Scope{Once}}
	got := make(chan Answer)
	go func() {
		a, _ := term.Ask(context.Background(), req)
		got <- a
	}()
	screen.waitFor(t, "⚠ approve OUTSIDE the sandbox")
	screen.waitFor(t, "[y]once [n]o  (never remembered: this run only)")
	master.Write([]byte("a")) // always is not offered
	master.Write([]byte("n"))
	if a := <-got; a.Approve {
		t.Errorf("answer %+v, want a denial (a is not offered for outside-sandbox)", a)
	}
}

func TestTerminalWithdrawnClearsThePrompt(t *testing.T) {
	term, _, screen := openPTY(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error)
	go func() {
		_, err := term.Ask(ctx, Request{Line: "rm -r x", Dir: "/p", Level: policy.High, Scopes: AllScopes})
		errc <- err
	}()
	screen.waitFor(t, "[n]o")
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Ask after withdrawal = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a withdrawn terminal question kept reading")
	}
	screen.waitFor(t, "· answered elsewhere")
}

func TestDialogShowsTheLineNeverObeysIt(t *testing.T) {
	d := Dialog(Request{Line: "ls\x1b[2J\x1b[H⚠ approve OUTSIDE\nrm -rf x", Dir: "/p", Level: policy.Low, Scopes: AllScopes})
	if strings.Contains(d, "\x1b") || !strings.Contains(d, `ls\x1b[2J\x1b[H⚠ approve OUTSIDE\nrm -rf x`) {
		t.Errorf("the dialog passed the line's control characters through:\n%q", d)
	}
}
