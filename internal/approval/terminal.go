package approval

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/approval/dialog"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/tty"
)

// OutsideSettle is how long the OUTSIDE the sandbox dialog ignores every
// key after it shows (docs/decisions.md, D31).
const OutsideSettle = dialog.OutsideSettle

// Terminal asks on the controlling terminal: a dialog, answered only by
// keys typed after it showed. What was typed before it (while the model
// worked) is dropped when it opens, so no key meant for the chat answers
// it. The keys' rules are the dialog model's (internal/approval/dialog);
// this face reads the keys and draws what the model says
// (docs/decisions.md, D30, D31).
type Terminal struct {
	// TTY is read for the key and written for the dialog. It must be
	// pollable (a terminal or a pty) so a withdrawn question stops reading.
	TTY *os.File
	mu  sync.Mutex // one question at a time on one terminal
	// Settle overrides OutsideSettle (tests of the keys themselves); 0
	// is OutsideSettle.
	Settle time.Duration
	now    func() time.Time // nil: time.Now; tests move it
}

func (t *Terminal) clock() time.Time {
	if t.now != nil {
		return t.now()
	}
	return time.Now()
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

// Ask shows the dialog and reads the answer among the keys offered.
func (t *Terminal) Ask(ctx context.Context, req Request) (Answer, error) {
	defer t.show(ctx, Dialog(req))()
	var ans Answer
	var err error
	m := dialog.Open(Question(req), t.clock(), t.Settle)
	if req.OutsideSandbox {
		ans, err = t.askOutside(m)
	} else {
		ans, err = t.askOrdinary(m)
	}
	if err != nil {
		return t.unanswered(ctx, err)
	}
	t.sayOnLine(answerLine(req, ans))
	return ans, nil
}

// unanswered is the end of a question whose key could not be read: taken
// back (ctx done: another face answered, or the run ended), which the line
// says, or the terminal gone.
func (t *Terminal) unanswered(ctx context.Context, err error) (Answer, error) {
	if ctx.Err() != nil {
		t.sayOnLine(elsewhere(ctx))
		return Answer{}, ctx.Err()
	}
	return Answer{}, fmt.Errorf("read the answer from the terminal: %w: %w", ErrCannotAsk, err)
}

// sayOnLine replaces the question's line with s.
func (t *Terminal) sayOnLine(s string) { io.WriteString(t.TTY, "\r\x1b[K"+s+"\r\n") }

// show takes the terminal for one question and draws it; the function it
// returns gives the terminal back. A withdrawal (ctx done) ends the read.
func (t *Terminal) show(ctx context.Context, dialog string) (done func()) {
	t.mu.Lock()
	restore, err := tty.Raw(t.TTY)
	if err != nil {
		restore = func() {}
	}
	// Typed before the question could be read: never an answer. Dropped
	// before the question is drawn, never after, so that no key typed for
	// it is lost. Best effort: where the system cannot drop it, the
	// outside dialog's wait still holds, and an ordinary one asks anyway.
	_ = tty.DropInput(t.TTY)
	io.WriteString(t.TTY, strings.ReplaceAll(dialog, "\n", "\r\n"))
	stop := context.AfterFunc(ctx, func() { t.TTY.SetReadDeadline(time.Now()) })
	return func() {
		stop()
		t.TTY.SetReadDeadline(time.Time{})
		restore()
		t.mu.Unlock()
	}
}

// askOrdinary reads keys until one answers. Where the dialog offers a
// prefix, e switches the scopes between the exact line and the prefix,
// and the menu line is drawn again to say which one s, p and a would hold.
func (t *Terminal) askOrdinary(m *dialog.Model) (Answer, error) {
	for {
		k, err := t.key()
		if err != nil {
			return Answer{}, err
		}
		holding := m.Holding()
		if a, ok := m.Key(k, t.clock()); ok {
			return fromDialog(a, "terminal"), nil
		}
		if m.Holding() != holding {
			io.WriteString(t.TTY, "\r\x1b[K"+m.Menu(dialog.Packed)+" ")
		}
	}
}

// askOutside reads keys until one answers, drawing the last line the
// model's phase calls for: that it waits, its keys, or that y is armed.
// When the settle time is over the keys line replaces the wait.
func (t *Terminal) askOutside(m *dialog.Model) (Answer, error) {
	settle := t.Settle
	if settle <= 0 {
		settle = OutsideSettle
	}
	io.WriteString(t.TTY, outsideWait)
	var shown sync.Mutex
	open := true
	timer := time.AfterFunc(settle, func() {
		shown.Lock()
		defer shown.Unlock()
		if open {
			io.WriteString(t.TTY, "\r\x1b[K"+outsideKeys)
		}
	})
	defer func() {
		timer.Stop()
		shown.Lock()
		open = false
		shown.Unlock()
	}()
	for {
		k, err := t.key()
		if err != nil {
			return Answer{}, err
		}
		now := t.clock()
		before := m.Phase(now)
		if a, ok := m.Key(k, now); ok {
			return fromDialog(a, "terminal"), nil
		}
		switch after := m.Phase(now); {
		case after == dialog.Armed && before != dialog.Armed:
			io.WriteString(t.TTY, "y  (Enter to run it, Backspace to take it back) ")
		case after == dialog.Listening && before == dialog.Armed:
			io.WriteString(t.TTY, "\r\x1b[K"+outsideKeys)
		}
	}
}

// The outside dialog's last line in a terminal: first while it waits,
// then its keys.
const (
	outsideWait = "… (" + dialog.SettleNote + ")"
	outsideKeys = "[y]once then Enter, [n]o  (" + dialog.OnceOnly + ") "
)

// key reads one key and names it as the dialog model does.
func (t *Terminal) key() (string, error) {
	var b [1]byte
	if _, err := t.TTY.Read(b[:]); err != nil {
		return "", err
	}
	return keyName(b[0]), nil
}

// keyName names a byte read from a raw terminal.
func keyName(b byte) string {
	switch b {
	case 0x1b:
		return "esc"
	case 0x03:
		return "ctrl+c"
	case 0x04:
		return "ctrl+d"
	case '\r', '\n':
		return "enter"
	case 0x7f, 0x08:
		return "backspace"
	}
	return string(rune(b))
}

// Question is what the dialog model needs of req.
func Question(req Request) dialog.Question {
	return dialog.Question{Outside: req.OutsideSandbox, Scopes: scopeNames(req.Scopes), Prefixes: req.Prefixes}
}

func scopeNames(scopes []Scope) []string {
	names := make([]string, len(scopes))
	for i, s := range scopes {
		names[i] = string(s)
	}
	return names
}

// fromDialog is the model's answer, given by the face named by.
func fromDialog(a dialog.Answer, by string) Answer {
	return Answer{Approve: a.Approve, Scope: Scope(a.Scope), Prefix: a.Prefix, By: by}
}

func echo(a Answer) string {
	if !a.Approve {
		return "· denied"
	}
	return "· approved " + string(a.Scope)
}

// Answered is why a question is withdrawn when another face answered it
// first: race cancels the others' contexts with it as the cause, so each
// can say what the answer was and who gave it.
type Answered struct{ Answer Answer }

func (a Answered) Error() string { return "answered elsewhere: " + Describe(a.Answer) }

// AnsweredElsewhere gives the answer that withdrew ctx's question, when
// another face gave one.
func AnsweredElsewhere(ctx context.Context) (Answer, bool) {
	var a Answered
	if errors.As(context.Cause(ctx), &a) {
		return a.Answer, true
	}
	return Answer{}, false
}

// Describe says an answer and who gave it: "approved once by wisp
// approvals", "denied by wisp-bar", "denied (expired)".
func Describe(a Answer) string {
	what := "denied"
	if a.Approve {
		what = "approved " + string(a.Scope)
	}
	if a.By != "" {
		what += " by " + render.Line(a.By)
	}
	if a.Reason != "" {
		what += " (" + render.Line(a.Reason) + ")"
	}
	return what
}

// elsewhere is the line a withdrawn dialog leaves.
func elsewhere(ctx context.Context) string {
	if a, ok := AnsweredElsewhere(ctx); ok {
		return "· answered elsewhere: " + Describe(a)
	}
	return "· withdrawn: " + withdrawnWhy(ctx)
}

func withdrawnWhy(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "it waited too long"
	}
	return "the turn was stopped before anyone answered"
}

// Dialog is the terminal's question: an outside-sandbox request opens
// "⚠ approve OUTSIDE the sandbox" and offers once or no (docs/decisions.md, D19).
// An outside-sandbox dialog's last line is drawn by Ask, as it waits and
// then listens.
func Dialog(req Request) string {
	if req.Grant != "" {
		return grantDialog(req)
	}
	var b strings.Builder
	if req.OutsideSandbox {
		b.WriteString(dialog.OutsideTitle + "\n")
	} else {
		b.WriteString(dialog.CommandTitle(req.Level) + "\n")
	}
	// The line is the model's: shown, never obeyed, so an escape sequence
	// or a newline in it cannot repaint the dialog.
	fmt.Fprintf(&b, "  %s\n  in %s\n", render.Line(req.Line), render.Line(req.Dir))
	for _, r := range req.Reasons {
		fmt.Fprintf(&b, "  · %s\n", render.Line(r))
	}
	if req.OutsideSandbox {
		return b.String()
	}
	b.WriteString(dialog.Open(Question(req), time.Time{}, 0).Menu(dialog.Packed) + " ")
	return b.String()
}

// offersPrefix: the request has prefixes, and a scope that would keep
// one (docs/decisions.md, D32).
func offersPrefix(req Request) bool { return dialog.OffersPrefix(Question(req)) }
