package chat

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/tty"
)

// errNotice ends a wait for a key when a notice came: it is shown above
// the line, and the wait starts again.
var errNotice = errors.New("a notice came")

// Notify writes line (wisp's own, already styled) above the line being
// edited, and redraws the prompt under it. When no line is being read,
// otherwise runs instead, with the editor held, so no prompt is drawn
// through what it writes; but while the terminal is raw around the line
// (just before its prompt, just after it ends), where what otherwise
// writes would go down a line without going back to its start, the
// editor writes line itself.
func (e *Editor) Notify(line string, otherwise func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.reading {
		if e.raw {
			e.notices = append(e.notices, line)
			e.writeNotices()
			return
		}
		otherwise()
		return
	}
	e.notices = append(e.notices, line)
	if e.wake != nil {
		e.wake()
	}
}

// makeRaw makes the terminal raw for a line, and the returned function
// makes it as it was, each with the editor held, so a notice knows which
// the terminal is.
func (e *Editor) makeRaw() (restore func(), err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	undo, err := tty.Raw(e.tty)
	if err != nil {
		return nil, err
	}
	e.raw = true
	return func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		undo()
		e.raw = false
	}, nil
}

// startReading draws the prompt, with what waits above it first.
func (e *Editor) startReading() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reading = true
	e.draw()
	e.showNotices()
}

// stopReading shows what came as the line ended, under it.
func (e *Editor) stopReading() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reading = false
	e.writeNotices()
}

// nextKey waits for a key, or for ctx, or for a notice, which it shows.
func (e *Editor) nextKey(ctx context.Context) (key, error) {
	kctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(kctx, func() { e.tty.SetReadDeadline(time.Now()) })
	e.mu.Lock()
	e.wake = cancel
	pending := len(e.notices) > 0
	e.mu.Unlock()
	if pending {
		cancel()
	}
	k, err := e.keys.next(kctx)
	stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.wake = nil
	if err != nil && ctx.Err() == nil && kctx.Err() != nil {
		e.tty.SetReadDeadline(time.Time{})
		e.showNotices()
		return key{}, errNotice
	}
	return k, err
}

// showNotices writes the notices where the prompt was and draws it again
// below them; the editor is held.
func (e *Editor) showNotices() {
	if len(e.notices) == 0 {
		return
	}
	clear := "\r"
	if e.row > 0 {
		clear += "\x1b[" + itoa(e.row) + "A"
	}
	io.WriteString(e.tty, clear+"\x1b[J")
	e.writeNotices()
	e.row = 0
	e.draw()
}

// writeNotices writes the notices, each from the start of a line: the
// terminal is raw while a line is read, where a newline alone (a long
// note's, wrapped to the width) goes down without going back to the
// start, and the rest of the note would begin at the far right.
func (e *Editor) writeNotices() {
	for _, n := range e.notices {
		io.WriteString(e.tty, strings.ReplaceAll(n, "\n", "\r\n")+"\r\n")
	}
	e.notices = nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
