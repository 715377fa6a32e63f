package approval

import (
	"context"
	"errors"
	"fmt"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/tty"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// OutsideSettle is how long the OUTSIDE the sandbox dialog ignores every
// key after it shows: a key already on its way (the y of "yes, go ahead"
// typed to the chat) lands in it and is dropped, and the dialog says when
// it starts listening.
const OutsideSettle = 500 * time.Millisecond

// Terminal asks on the controlling terminal: a dialog, answered only by
// keys typed after it showed. What was typed before it (while the model
// worked) is dropped when it opens, so no key meant for the chat answers
// it. An ordinary dialog takes one key; the OUTSIDE the sandbox dialog
// ignores keys for OutsideSettle, then needs y and Enter (n, Esc or
// Ctrl-C deny at once).
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

// keys maps a key to the scope it answers; n, Esc and Ctrl-C say no.
var keys = map[byte]Scope{'y': Once, 's': Session, 'p': Project, 'a': Always}

// Ask shows the dialog and reads the answer among the keys offered.
func (t *Terminal) Ask(ctx context.Context, req Request) (Answer, error) {
	defer t.show(ctx, Dialog(req))()
	var ans Answer
	var err error
	if req.OutsideSandbox {
		ans, err = t.askOutside(ctx)
	} else {
		ans, err = t.askOrdinary(req)
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

// askOrdinary reads one key among those offered. Where the dialog offers
// a prefix, e switches the scopes between the exact line and the prefix,
// and the menu line says which one s, p and a would hold.
func (t *Terminal) askOrdinary(req Request) (Answer, error) {
	prefix := false
	for {
		k, err := t.key()
		if err != nil {
			return Answer{}, err
		}
		if (k == 'e' || k == 'E') && offersPrefix(req) {
			prefix = !prefix
			io.WriteString(t.TTY, "\r\x1b[K"+scopeLine(req, prefix)+" ")
			continue
		}
		if ans, ok := answerKey(k, req); ok {
			ans.Prefix = prefix && ans.Approve && ans.Scope != Once
			return ans, nil
		}
	}
}

// askOutside ignores keys until the settle time is over, showing that it
// waits, then approves on y followed by Enter. n, Esc, Ctrl-C and Ctrl-D
// deny at once; Backspace takes the y back; other keys do nothing.
func (t *Terminal) askOutside(ctx context.Context) (Answer, error) {
	settle := t.Settle
	if settle <= 0 {
		settle = OutsideSettle
	}
	io.WriteString(t.TTY, outsideWait)
	listening := t.clock().Add(settle)
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
	typedY := false
	for {
		k, err := t.key()
		if err != nil {
			return Answer{}, err
		}
		if t.clock().Before(listening) {
			continue // on its way before the question could be read
		}
		switch {
		case k == 'n' || k == 'N' || k == 0x1b || k == 0x03 || k == 0x04:
			return Answer{Approve: false, By: "terminal"}, nil
		case (k == 'y' || k == 'Y') && !typedY:
			typedY = true
			io.WriteString(t.TTY, "y  (Enter to run it, Backspace to take it back) ")
		case (k == '\r' || k == '\n') && typedY:
			return Answer{Approve: true, Scope: Once, By: "terminal"}, nil
		case (k == 0x7f || k == 0x08) && typedY:
			typedY = false
			io.WriteString(t.TTY, "\r\x1b[K"+outsideKeys)
		}
	}
}

// The outside dialog's last line: first while it waits, then its keys.
const (
	outsideWait = "… (reading keys in a moment: what was typed before is dropped)"
	outsideKeys = "[y]once then Enter, [n]o  (never remembered: this run only) "
)

func (t *Terminal) key() (byte, error) {
	var b [1]byte
	if _, err := t.TTY.Read(b[:]); err != nil {
		return 0, err
	}
	return b[0], nil
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

// Dialog is the terminal's question (0064 item 7: an outside-sandbox
// request opens "⚠ approve OUTSIDE the sandbox" and offers once or no).
// An outside-sandbox dialog's last line is drawn by Ask, as it waits and
// then listens.
func Dialog(req Request) string {
	if req.Grant != "" {
		return grantDialog(req)
	}
	var b strings.Builder
	if req.OutsideSandbox {
		b.WriteString("⚠ approve OUTSIDE the sandbox\n")
	} else {
		fmt.Fprintf(&b, "approve this command? (%s risk)\n", req.Level)
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
	b.WriteString(scopeLine(req, false) + " ")
	return b.String()
}

// scopeLine is the dialog's last line: its keys, and, where a prefix is
// offered, what s, p and a hold and how to switch that.
func scopeLine(req Request, prefix bool) string {
	if !offersPrefix(req) {
		return scopeMenu(req.Scopes)
	}
	held := render.Line(strings.Join(req.Prefixes, ", "))
	if prefix {
		return "hold " + held + ": " + scopeMenu(req.Scopes) + "  · [e] this line only"
	}
	return scopeMenu(req.Scopes) + "  · [e] hold " + held + " instead"
}

// offersPrefix: the request has prefixes, and a scope that would keep one.
func offersPrefix(req Request) bool {
	if len(req.Prefixes) == 0 {
		return false
	}
	for _, s := range req.Scopes {
		if s != Once {
			return true
		}
	}
	return false
}

func scopeMenu(scopes []Scope) string {
	labels := map[Scope]string{Once: "[y]once", Session: "[s]ession", Project: "[p]roject", Always: "[a]lways"}
	var parts []string
	for _, s := range scopes {
		parts = append(parts, labels[s])
	}
	return strings.Join(append(parts, "[n]o"), " ")
}
