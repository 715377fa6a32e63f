package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/wisp-sh/wisp/internal/tty"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/term"
)

// ErrInterrupted is what reading a line returns when the person pressed
// Ctrl-C over a line they had begun: the line is dropped, as a shell does.
// Ctrl-C at an empty prompt, like Ctrl-D, is io.EOF: leave.
var ErrInterrupted = errors.New("interrupted")

// interruptMark stands in for Ctrl-C on its way to x/term's editor: a
// private-use rune that the editor hands to the key callback with the
// line as it was, which is how the editor learns whether it was empty.
const interruptMark = '\uE003'

// Editor reads lines from the terminal with the editing and history a
// person expects (x/term's: arrows, Home/End, Ctrl-A/E/K/U/W, up and down
// through earlier lines). It puts the terminal in raw mode only while it
// reads, so that Ctrl-C is a signal while the model answers or a command
// runs, and so that nothing else (an approval dialog) ever reads the
// terminal at the same time: between lines the editor does not read.
type Editor struct {
	tty     *os.File // opened on its own, pollable, so a read can be stopped
	history *History
	prompt  string
	t       *term.Terminal
	in      *interruptReader
	lineAt  string // the line when Ctrl-C came
}

// NewEditor reads from tty (a pollable file: open /dev/tty with
// os.OpenFile) with the prompt and the history.
func NewEditor(tty *os.File, prompt string, h *History) *Editor {
	e := &Editor{tty: tty, history: h, prompt: prompt}
	e.reset()
	return e
}

// reset starts from a clean line; the history stays.
func (e *Editor) reset() {
	e.in = &interruptReader{r: e.tty}
	e.t = term.NewTerminal(struct {
		io.Reader
		io.Writer
	}{e.in, e.tty}, e.prompt)
	e.t.History = e.history
	e.t.AutoCompleteCallback = func(line string, pos int, key rune) (string, int, bool) {
		if key == interruptMark {
			e.lineAt = line
			return line, pos, true
		}
		return "", 0, false
	}
}

// ReadLine reads one line. It returns io.EOF for Ctrl-D or Ctrl-C at an
// empty line, ErrInterrupted for Ctrl-C over a line, and ctx's error when
// ctx ends first.
func (e *Editor) ReadLine(ctx context.Context) (string, error) {
	restore, err := tty.Raw(e.tty)
	if err != nil {
		return "", err
	}
	defer restore()
	stop := context.AfterFunc(ctx, func() { e.tty.SetReadDeadline(time.Now()) })
	defer stop()
	defer e.tty.SetReadDeadline(time.Time{})
	if w, h, err := tty.Size(e.tty); err == nil {
		e.t.SetSize(w, h)
	}
	line, err := e.t.ReadLine()
	switch {
	case errors.Is(err, errInterruptKey):
		io.WriteString(e.tty, "^C\r\n")
		was := e.lineAt
		e.reset()
		if was == "" {
			return "", io.EOF
		}
		return "", ErrInterrupted
	case err == io.EOF:
		io.WriteString(e.tty, "\r\n")
		return "", io.EOF
	case ctx.Err() != nil:
		io.WriteString(e.tty, "\r\n")
		return "", ctx.Err()
	case err != nil && !errors.Is(err, term.ErrPasteIndicator):
		return "", err
	}
	return line, nil
}

// Close closes the terminal and the history file.
func (e *Editor) Close() error {
	e.history.Close()
	return e.tty.Close()
}

// Mark redraws the line just read with its prompt and its marks in a
// colour: the plain chat's marker for a line run in or outside the
// sandbox (0064 amendment item 5). The terminal is out of raw mode by now.
func (e *Editor) Mark(line, marks, sgr string) {
	width := 80
	if w, _, err := tty.Size(e.tty); err == nil && w > 0 {
		width = w
	}
	rows := (utf8.RuneCountInString(e.prompt)+utf8.RuneCountInString(line)-1)/width + 1
	prompt := strings.TrimRight(e.prompt, " ")
	rest := strings.TrimPrefix(line, marks)
	fmt.Fprintf(e.tty, "\x1b[%dA\r\x1b[J%s%s%s %s%s%s%s\n", rows, sgr, prompt, sgrReset,
		sgr, marks, sgrReset, rest)
}

var errInterruptKey = errors.New("ctrl-c")

// interruptReader turns the Ctrl-C byte into interruptMark and then a
// read error, so the editor stops with the line as it was. What was typed
// after the Ctrl-C in the same read is dropped.
type interruptReader struct {
	r         io.Reader
	queue     []byte
	interrupt bool
	err       error
}

func (c *interruptReader) Read(p []byte) (int, error) {
	for len(c.queue) == 0 {
		switch {
		case c.interrupt:
			c.interrupt = false
			return 0, errInterruptKey
		case c.err != nil:
			err := c.err
			c.err = nil
			return 0, err
		}
		c.fill(len(p))
	}
	n := copy(p, c.queue)
	c.queue = c.queue[n:]
	return n, nil
}

func (c *interruptReader) fill(size int) {
	buf := make([]byte, max(size, 16))
	n, err := c.r.Read(buf)
	c.err = err
	if i := bytes.IndexByte(buf[:n], 0x03); i >= 0 {
		c.queue = utf8.AppendRune(buf[:i:i], interruptMark)
		c.interrupt, c.err = true, nil
		return
	}
	c.queue = buf[:n]
}
