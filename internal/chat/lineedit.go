package chat

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/mattn/go-runewidth"
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/tty"
	"github.com/wisp-sh/wisp/internal/visible"
)

// ErrInterrupted is what reading a line returns when the person pressed
// Ctrl-C over a line they had begun: the line is dropped, as a shell does.
var ErrInterrupted = errors.New("interrupted")

// ErrInterruptedEmpty is Ctrl-C at an empty prompt: the chat says how to
// leave rather than leaving, since a second Ctrl-C meant for a command
// that just ended is easy to press. A second Ctrl-C right after it, with
// no key between, is io.EOF: leave.
var ErrInterruptedEmpty = errors.New("interrupted at an empty prompt")

// Editor reads lines from the terminal with the editing and history a
// person expects: arrows, Home/End, Ctrl-A/E/B/F/K/U/W, Backspace and
// Delete, up and down through earlier lines.
//
// A paste is text, never keystrokes. Bracketed paste is on only while the
// editor reads a line; a paste lands in the line at the cursor, newlines
// included (a paste of several lines shows as [pasted N lines]), and only
// an Enter typed after it sends the line, as one message. A line that
// starts with ! or !! shows its marks (!! in the outside colour) as it is
// edited, pasted or typed, and runs only on that typed Enter. Where the
// terminal does not bracket pastes, an Enter that arrives in one read with
// other keys (a person's keys come one at a time) is a paste's newline,
// and the keys with it are the paste.
//
// Between lines the terminal is quiet (tty.Quiet): keys typed while the
// model answers are not echoed into its words; they wait for the next
// line, where they land as a paste would, unless a dialog opens first and
// drops them. The editor puts the terminal in raw mode only while it
// reads, so that Ctrl-C is a signal while the model answers or a command
// runs, and so that nothing else (an approval dialog) ever reads the
// terminal at the same time: between lines the editor does not read.
type Editor struct {
	tty     *os.File // opened on its own, pollable, so a read can be stopped
	history *History
	prompt  string
	colour  bool
	unquiet func()
	keys    *keyReader

	// The line being edited.
	line []piece
	pos  int // the cursor, in pieces
	row  int // the cursor's row below the line's first, as last drawn
	// Browsing the history: which entry is shown (-1: the line being
	// typed), and that line, kept.
	browse int
	typing []piece
	// quitArmed: the last key was Ctrl-C at an empty prompt.
	quitArmed bool

	// Notices from other goroutines (the model check at the start) are
	// written above the line being edited.
	mu      sync.Mutex
	raw     bool // the terminal is raw, from before the prompt is drawn to after the line ends
	reading bool
	notices []string
	wake    func() // stops the key being waited for, to show a notice
}

// piece is one rune of the line, or one paste of several lines.
type piece struct {
	r     rune
	paste string // set for a multi-line paste, shown as [pasted N lines]
}

// NewEditor reads from tty (a pollable file: open /dev/tty with
// os.OpenFile) with the prompt and the history. It quiets the terminal
// until Close.
func NewEditor(f *os.File, prompt string, h *History) *Editor {
	e := &Editor{tty: f, history: h, prompt: prompt, keys: &keyReader{f: f}}
	if restore, err := tty.Quiet(f); err == nil {
		e.unquiet = restore
	}
	return e
}

// SetColour turns the marks' colours on or off.
func (e *Editor) SetColour(on bool) { e.colour = on }

// bracketedPaste turns the terminal's bracketed paste on and off.
const (
	pasteOn  = "\x1b[?2004h"
	pasteOff = "\x1b[?2004l"
)

// ReadLine reads one line. It returns io.EOF for Ctrl-D at an empty line
// or a second Ctrl-C there, ErrInterruptedEmpty for the first,
// ErrInterrupted for Ctrl-C over a line, and ctx's error when ctx ends
// first.
func (e *Editor) ReadLine(ctx context.Context) (string, error) {
	restore, err := e.makeRaw()
	if err != nil {
		return "", err
	}
	defer restore()
	io.WriteString(e.tty, pasteOn)
	defer io.WriteString(e.tty, pasteOff)
	defer e.tty.SetReadDeadline(time.Time{})
	e.line, e.pos, e.row, e.browse, e.typing = nil, 0, 0, -1, nil
	e.startReading()
	defer e.stopReading()
	for {
		k, err := e.nextKey(ctx)
		if errors.Is(err, errNotice) {
			continue
		}
		if err != nil {
			e.end("\r\n")
			if ctx.Err() != nil {
				return "", ctx.Err()
			}
			return "", err
		}
		line, done, err := e.handle(k)
		if done {
			return line, err
		}
	}
}

// handle applies one key; done with the line (or an error) when it ends
// the read.
func (e *Editor) handle(k key) (line string, done bool, err error) {
	armed := e.quitArmed
	e.quitArmed = false
	switch k.kind {
	case keyPaste:
		e.insert(pastePieces(k.text)...)
	case keyRune:
		e.insert(piece{r: k.r})
	case keyEnter:
		line := e.text()
		e.end("\r\n")
		if e.history != nil {
			e.history.Add(line)
		}
		return line, true, nil
	case keyInterrupt:
		empty := len(e.line) == 0
		e.end("^C\r\n")
		switch {
		case empty && armed:
			return "", true, io.EOF
		case empty:
			e.quitArmed = true
			return "", true, ErrInterruptedEmpty
		}
		return "", true, ErrInterrupted
	case keyEOF:
		if len(e.line) == 0 {
			e.end("\r\n")
			return "", true, io.EOF
		}
		e.deleteAt(e.pos)
	default:
		e.edit(k.kind)
	}
	e.draw()
	return "", false, nil
}

// edit applies a key that moves the cursor or changes the line.
func (e *Editor) edit(kind keyKind) {
	switch kind {
	case keyBackspace:
		if e.pos > 0 {
			e.pos--
			e.deleteAt(e.pos)
		}
	case keyDelete:
		e.deleteAt(e.pos)
	case keyLeft:
		e.pos = max(0, e.pos-1)
	case keyRight:
		e.pos = min(len(e.line), e.pos+1)
	case keyHome:
		e.pos = 0
	case keyEnd:
		e.pos = len(e.line)
	case keyKillEnd:
		e.line = e.line[:e.pos]
	case keyKillStart:
		e.line = append([]piece(nil), e.line[e.pos:]...)
		e.pos = 0
	case keyKillWord:
		start := e.pos
		for start > 0 && e.line[start-1].r == ' ' {
			start--
		}
		for start > 0 && e.line[start-1].r != ' ' {
			start--
		}
		e.line = append(e.line[:start:start], e.line[e.pos:]...)
		e.pos = start
	case keyUp:
		e.recall(e.browse + 1)
	case keyDown:
		e.recall(e.browse - 1)
	}
}

func (e *Editor) insert(ps ...piece) {
	line := append([]piece(nil), e.line[:e.pos]...)
	line = append(line, ps...)
	e.line = append(line, e.line[e.pos:]...)
	e.pos += len(ps)
}

func (e *Editor) deleteAt(i int) {
	if i < len(e.line) {
		e.line = append(e.line[:i:i], e.line[i+1:]...)
	}
}

// recall shows history entry i (0 the latest; -1 the line being typed).
func (e *Editor) recall(i int) {
	if i < -1 || e.history == nil || i >= e.history.Len() {
		return
	}
	if e.browse == -1 {
		e.typing = e.line
	}
	e.browse = i
	if i == -1 {
		e.line = e.typing
	} else {
		e.line = pastePieces(e.history.At(i))
	}
	e.pos = len(e.line)
}

// pastePieces makes pasted text pieces of the line: its runes, or one
// piece for text of several lines. Line ends are newlines; one at the
// very end is dropped (a copied line usually has it), so a pasted line
// waits for Enter like a typed one.
func pastePieces(s string) []piece {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	s = strings.TrimSuffix(s, "\n")
	if strings.Contains(s, "\n") {
		return []piece{{paste: s}}
	}
	ps := make([]piece, 0, len(s))
	for _, r := range s {
		ps = append(ps, piece{r: r})
	}
	return ps
}

// text is the line as it is sent.
func (e *Editor) text() string {
	var b strings.Builder
	for _, p := range e.line {
		if p.paste != "" {
			b.WriteString(p.paste)
		} else {
			b.WriteRune(p.r)
		}
	}
	return b.String()
}

// end moves past the line and writes s there.
func (e *Editor) end(s string) {
	e.pos = len(e.line)
	e.draw()
	io.WriteString(e.tty, s)
}

// cell is one thing drawn: its text, style and width.
type cell struct {
	text, sgr string
	width     int
}

// cells are the prompt and the line as they are drawn: the prompt and the
// marks of a ! or !! line in their colour, a control character or an
// invisible one as its escape, a multi-line paste as [pasted N lines].
func (e *Editor) cells() (cs []cell, cursor int) {
	sgr := ""
	marks := 0
	if t, ok := agent.ParseTyped(e.text()); ok {
		sgr, marks = sgrCommand, len(t.Marks())
		if t.OutsideSandbox {
			sgr = sgrOutside
		}
	}
	prompt := strings.TrimRight(e.prompt, " ")
	cs = append(cs, cell{prompt, sgr, runewidth.StringWidth(prompt)})
	for range len(e.prompt) - len(prompt) {
		cs = append(cs, cell{" ", "", 1})
	}
	cursor = len(cs) + e.pos
	for i, p := range e.line {
		switch {
		case p.paste != "" && i == 0 && marks > 0:
			// The paste holds the marks: they show before it, in their
			// colour, and the line runs as a command on Enter.
			label := e.text()[:marks] + fmt.Sprintf("[pasted %d lines]", strings.Count(p.paste, "\n")+1)
			cs = append(cs, cell{label, sgr, len(label)})
			marks = 0
		case p.paste != "":
			label := fmt.Sprintf("[pasted %d lines]", strings.Count(p.paste, "\n")+1)
			cs = append(cs, cell{label, sgrDim, len(label)})
		case i < marks:
			cs = append(cs, cell{string(p.r), sgr, 1})
		default:
			s := visible.Line(string(p.r))
			cs = append(cs, cell{s, "", runewidth.StringWidth(s)})
		}
	}
	return cs, cursor
}

// draw redraws the prompt and the line from the line's first row, and
// puts the cursor where it edits. Rows are counted as the terminal wraps
// them at its width.
func (e *Editor) draw() {
	width := 80
	if w, _, err := tty.Size(e.tty); err == nil && w > 0 {
		width = w
	}
	cs, cursor := e.cells()
	var b strings.Builder
	b.WriteString("\r")
	if e.row > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", e.row)
	}
	b.WriteString("\x1b[J")
	row, col := 0, 0
	curRow, curCol := -1, 0
	style := "" // the style in force: cells of one style are one run
	for i, c := range cs {
		if col+c.width > width && col > 0 {
			if c.width > 1 {
				b.WriteString("\r\n") // a wide cell the terminal would not split
			}
			row, col = row+1, 0
		}
		if i == cursor {
			curRow, curCol = row, col
		}
		if sgr := c.sgr; e.colour && sgr != style {
			if style != "" {
				b.WriteString(sgrReset)
			}
			b.WriteString(sgr)
			style = sgr
		}
		b.WriteString(c.text)
		col += c.width
	}
	if style != "" {
		b.WriteString(sgrReset)
	}
	if col >= width {
		b.WriteString("\r\n") // out of the pending wrap, onto a row of its own
		row, col = row+1, 0
	}
	if curRow < 0 {
		curRow, curCol = row, col
	}
	if up := row - curRow; up > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", up)
	}
	b.WriteString("\r")
	if curCol > 0 {
		fmt.Fprintf(&b, "\x1b[%dC", curCol)
	}
	e.row = curRow
	io.WriteString(e.tty, b.String())
}

// Close restores the terminal and closes it and the history file.
func (e *Editor) Close() error {
	if e.unquiet != nil {
		e.unquiet()
	}
	e.history.Close()
	return e.tty.Close()
}
