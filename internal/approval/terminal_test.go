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
	tt "github.com/wisp-sh/wisp/internal/tty"
	"github.com/wisp-sh/wisp/pending"
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
		Reasons: []string{pending.OutsideReason}, Scopes: []Scope{Once}}
	got := make(chan Answer)
	go func() {
		a, _ := term.Ask(context.Background(), req)
		got <- a
	}()
	screen.waitFor(t, "⚠ approve OUTSIDE the sandbox")
	screen.waitFor(t, "[y]once then Enter, [n]o  (never remembered: this run only)")
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
	screen.waitFor(t, "· withdrawn: the turn was stopped before anyone answered")
}

func TestDialogShowsTheLineNeverObeysIt(t *testing.T) {
	d := Dialog(Request{Line: "ls\x1b[2J\x1b[H⚠ approve OUTSIDE\nrm -rf x", Dir: "/p", Level: policy.Low, Scopes: AllScopes})
	if strings.Contains(d, "\x1b") || !strings.Contains(d, `ls\x1b[2J\x1b[H⚠ approve OUTSIDE\nrm -rf x`) {
		t.Errorf("the dialog passed the line's control characters through:\n%q", d)
	}
}

// queued waits until the terminal's input queue holds n bytes: what was
// written on the person's side has reached wisp's.
func queued(t *testing.T, tty *os.File, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got, _ := tt.Queued(tty); got == n {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("the terminal's input never held %d bytes", n)
}

func askAsync(term *Terminal, ctx context.Context, req Request) chan Answer {
	got := make(chan Answer, 1)
	go func() {
		a, _ := term.Ask(ctx, req)
		got <- a
	}()
	return got
}

// A y typed before the dialog showed (meant for the chat) is dropped: the
// n typed after it is the answer.
func TestTerminalKeysTypedBeforeTheDialogNeverAnswerIt(t *testing.T) {
	for _, outside := range []bool{false, true} {
		term, master, screen := openPTY(t)
		term.Settle = time.Millisecond
		master.Write([]byte("you need /srv, go ahead\r"))
		queued(t, term.TTY, len("you need /srv, go ahead\r"))
		req := Request{Line: "rm -r build", Dir: "/proj", Level: policy.High, Scopes: AllScopes, OutsideSandbox: outside}
		got := askAsync(term, context.Background(), req)
		if outside {
			screen.waitFor(t, "[y]once then Enter")
		} else {
			screen.waitFor(t, "[n]o")
		}
		master.Write([]byte("n"))
		if a := <-got; a.Approve {
			t.Errorf("outside %v: the key typed ahead answered: %+v", outside, a)
		}
		screen.waitFor(t, "· denied")
	}
}

// The OUTSIDE dialog: keys in its first moments are ignored; then y
// alone does not approve (n after it denies), and y then Enter does.
func TestTerminalOutsideNeedsYThenEnterAfterItSettles(t *testing.T) {
	term, master, screen := openPTY(t)
	// The dialog reads the clock when it opens and after each key: the
	// first two keys (y, Enter) come in its first moments, the rest later.
	var mu sync.Mutex
	reads := 0
	term.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		reads++
		if reads <= 3 {
			return time.Unix(1_000_000, 0)
		}
		return time.Unix(1_000_000, 0).Add(time.Hour)
	}
	term.Settle = time.Hour // its keys line never shows: the test reads the echo of y
	req := Request{Line: "brew upgrade", Dir: "/proj", OutsideSandbox: true, Level: policy.Moderate, Scopes: []Scope{Once}}
	got := askAsync(term, context.Background(), req)
	screen.waitFor(t, "reading keys in a moment")
	master.Write([]byte("y\r"))
	master.Write([]byte("y"))
	screen.waitFor(t, "y  (Enter to run it")
	master.Write([]byte("n"))
	if a := <-got; a.Approve {
		t.Fatalf("y in the first moments, or y alone, approved: %+v", a)
	}
	term.now = nil
	term.Settle = time.Millisecond
	got = askAsync(term, context.Background(), req)
	screen.waitFor(t, "[y]once then Enter")
	master.Write([]byte("y"))
	screen.waitFor(t, "y  (Enter to run it")
	master.Write([]byte("\r"))
	if a := <-got; !a.Approve || a.Scope != Once {
		t.Errorf("y then Enter: %+v, want approved once", a)
	}
	screen.waitFor(t, "· approved once")
}

// Withdrawn because another face answered: the dialog says what the
// answer was and who gave it.
func TestTerminalAnsweredElsewhereSaysWhatAndByWhom(t *testing.T) {
	term, _, screen := openPTY(t)
	ctx, cancel := context.WithCancelCause(context.Background())
	got := askAsync(term, ctx, Request{Line: "rm -r x", Dir: "/p", Level: policy.High, Scopes: AllScopes})
	screen.waitFor(t, "[n]o")
	cancel(Answered{Answer{Approve: true, Scope: Once, By: "wisp approvals"}})
	<-got
	screen.waitFor(t, "· answered elsewhere: approved once by wisp approvals")
}

// The dialog offers the prefix beside the exact line: e switches what s,
// p and a hold, the menu says which, and the answer line says what is held.
func TestTerminalDialogOffersThePrefix(t *testing.T) {
	term, master, screen := openPTY(t)
	req := Request{Line: "go test ./pkg/a", Dir: "/proj", Level: policy.Moderate,
		Reasons: []string{"go test builds and runs the tests"}, Scopes: AllScopes, Prefixes: []string{"go test …"}}
	got := askAsync(term, context.Background(), req)
	screen.waitFor(t, "[y]once [s]ession [p]roject [a]lways [n]o  · [e] hold go test … instead")
	master.Write([]byte("e"))
	screen.waitFor(t, "hold go test …: [y]once [s]ession [p]roject [a]lways [n]o  · [e] this line only")
	master.Write([]byte("p"))
	if a := <-got; !a.Approve || a.Scope != Project || !a.Prefix {
		t.Errorf("answer %+v, want the prefix held for the project", a)
	}
	screen.waitFor(t, "· approved project, holding go test …")
}

// Switched back, s holds the exact line only.
func TestTerminalDialogPrefixSwitchedBack(t *testing.T) {
	term, master, screen := openPTY(t)
	req := Request{Line: "go test ./pkg/a", Dir: "/proj", Level: policy.Moderate, Scopes: AllScopes, Prefixes: []string{"go test …"}}
	got := askAsync(term, context.Background(), req)
	screen.waitFor(t, "[e] hold go test … instead")
	master.Write([]byte("ees")) // read in order: on, off, then the session
	if a := <-got; !a.Approve || a.Scope != Session || a.Prefix {
		t.Errorf("answer %+v, want the exact line held for the session", a)
	}
}
