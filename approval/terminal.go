package approval

import (
	"context"
	"fmt"
	"github.com/wisp-sh/wisp/internal/tty"
	"github.com/wisp-sh/wisp/internal/visible"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Terminal asks on the controlling terminal: a dialog and one key.
type Terminal struct {
	// TTY is read for the key and written for the dialog. It must be
	// pollable (a terminal or a pty) so a withdrawn question stops reading.
	TTY *os.File
	mu  sync.Mutex // one question at a time on one terminal
}

// OpenTerminal opens the controlling terminal, or returns nil when the
// process has none (a pipe, a service): then this face cannot ask.
func OpenTerminal() *Terminal {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return &Terminal{TTY: f}
}

func (t *Terminal) Name() string      { return "terminal" }
func (t *Terminal) AsksAPerson() bool { return true }

// keys maps a key to the scope it answers; n, Esc and Ctrl-C say no.
var keys = map[byte]Scope{'y': Once, 's': Session, 'p': Project, 'a': Always}

// Ask shows the dialog and reads one key among those offered.
func (t *Terminal) Ask(ctx context.Context, req Request) (Answer, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if restore, err := tty.Raw(t.TTY); err == nil {
		defer restore()
	}
	io.WriteString(t.TTY, strings.ReplaceAll(Dialog(req), "\n", "\r\n"))
	stop := context.AfterFunc(ctx, func() { t.TTY.SetReadDeadline(time.Now()) })
	defer stop()
	defer t.TTY.SetReadDeadline(time.Time{})
	for {
		var b [1]byte
		if _, err := t.TTY.Read(b[:]); err != nil {
			if ctx.Err() != nil {
				io.WriteString(t.TTY, "\r\x1b[K· answered elsewhere\r\n")
				return Answer{}, ctx.Err()
			}
			return Answer{}, fmt.Errorf("read the answer from the terminal: %w: %w", ErrCannotAsk, err)
		}
		if ans, ok := answerKey(b[0], req); ok {
			io.WriteString(t.TTY, "\r\x1b[K"+echo(ans)+"\r\n")
			return ans, nil
		}
	}
}

func answerKey(k byte, req Request) (Answer, bool) {
	switch k {
	case 'n', 'N', 0x1b, 0x03, 0x04:
		return Answer{Approve: false, By: "terminal"}, true
	}
	scope, ok := keys[k|0x20]
	if !ok || !offers(req, scope) {
		return Answer{}, false
	}
	return Answer{Approve: true, Scope: scope, By: "terminal"}, true
}

func offers(req Request, s Scope) bool {
	for _, o := range req.Scopes {
		if o == s {
			return true
		}
	}
	return false
}

func echo(a Answer) string {
	if !a.Approve {
		return "· denied"
	}
	return "· approved " + string(a.Scope)
}

// Dialog is the terminal's question (0064 item 7: an outside-sandbox
// request opens "⚠ approve OUTSIDE the sandbox" and offers once or no).
func Dialog(req Request) string {
	var b strings.Builder
	if req.OutsideSandbox {
		b.WriteString("⚠ approve OUTSIDE the sandbox\n")
	} else {
		fmt.Fprintf(&b, "approve this command? (%s risk)\n", req.Level)
	}
	// The line is the model's: shown, never obeyed, so an escape sequence
	// or a newline in it cannot repaint the dialog.
	fmt.Fprintf(&b, "  %s\n  in %s\n", visible.Line(req.Line), visible.Line(req.Dir))
	for _, r := range req.Reasons {
		fmt.Fprintf(&b, "  · %s\n", visible.Line(r))
	}
	if req.OutsideSandbox {
		b.WriteString("[y]once [n]o  (never remembered: this run only) ")
		return b.String()
	}
	b.WriteString(scopeMenu(req.Scopes) + " ")
	return b.String()
}

func scopeMenu(scopes []Scope) string {
	labels := map[Scope]string{Once: "[y]once", Session: "[s]ession", Project: "[p]roject", Always: "[a]lways"}
	var parts []string
	for _, s := range scopes {
		parts = append(parts, labels[s])
	}
	return strings.Join(append(parts, "[n]o"), " ")
}
