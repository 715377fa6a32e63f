package render

import (
	"io"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// tabWidth is where the terminal's tab stops are, every 8 columns.
const tabWidth = 8

// Writer renders text that streams (the model's words, a command's
// output) onto a terminal: each piece as Text renders it, wrapped at word
// boundaries to the terminal's width. A piece that ends inside what may be
// a colour sequence, a CR LF pair or a UTF-8 character keeps that tail
// until the next piece, so a sequence cut in two is still dropped whole.
// A word shows as it comes while it fits on the line; a word that grows
// past the line's end is taken back (backspaces over it, then spaces) and
// written whole on the next line. Flush writes what is kept.
type Writer struct {
	w io.Writer
	// Width gives the terminal's width in columns; nil or 0: no wrapping.
	Width func() int

	col       int             // the cursor's column, as far as this writer knows
	spaces    int             // spaces kept before the word: dropped when it wraps
	word      strings.Builder // the word being written
	wordWidth int
	shown     int    // of its columns, how many are on the screen
	shownLen  int    // and its bytes
	held      string // a tail that may continue in the next piece

	cols int    // the width, read once per call
	buf  []byte // what the call rendered, written at its end
}

// NewWriter renders onto w, wrapping at width() (nil: no wrapping).
func NewWriter(w io.Writer, width func() int) *Writer {
	return &Writer{w: w, Width: width}
}

// WriteString renders s, someone else's text.
func (w *Writer) WriteString(s string) {
	w.begin()
	defer w.end()
	s = w.held + s
	w.held = ""
	s, w.held = splitTail(s)
	for _, r := range Text(s) {
		w.rune(r)
	}
}

// Raw writes wisp's own bytes (a style of its palette) as they are,
// after what was kept: they take no column.
func (w *Writer) Raw(seq string) {
	w.begin()
	defer w.end()
	w.flushWord()
	w.put(seq)
}

// Flush writes the kept tail and word.
func (w *Writer) Flush() {
	w.begin()
	defer w.end()
	w.flush()
}

func (w *Writer) flush() {
	if w.held != "" {
		held := w.held
		w.held = ""
		for _, r := range Text(held) {
			w.rune(r)
		}
		// A tail still cut (an ESC alone, half a character) is shown.
	}
	w.flushWord()
}

// AtLineStart reports whether the cursor is at the start of a line, after
// Flush.
func (w *Writer) AtLineStart() bool { return w.col == 0 && w.word.Len() == 0 && w.held == "" }

// EndLine flushes and ends the line unless it is at a line's start.
func (w *Writer) EndLine() {
	w.begin()
	defer w.end()
	w.flush()
	if w.col != 0 {
		w.newline()
	}
}

// begin reads the width once for a call; end writes what the call
// rendered, in one write.
func (w *Writer) begin() {
	w.cols = 0
	if w.Width != nil {
		w.cols = w.Width()
	}
}

func (w *Writer) end() {
	if len(w.buf) > 0 {
		w.w.Write(w.buf)
		w.buf = w.buf[:0]
	}
}

func (w *Writer) put(s string) { w.buf = append(w.buf, s...) }

func (w *Writer) rune(r rune) {
	switch r {
	case '\n':
		w.flushWord()
		w.newline()
	case ' ':
		if w.word.Len() > 0 {
			w.flushWord()
		}
		w.spaces++
	case '\t':
		w.flushWord()
		w.writeSpaces()
		next := (w.col/tabWidth + 1) * tabWidth
		if width := w.cols; width > 0 && next >= width {
			w.newline()
			return
		}
		w.put("\t")
		w.col = next
	default:
		w.word.WriteRune(r)
		rw := runewidth.RuneWidth(r)
		w.wordWidth += rw
		width := w.cols
		if w.shown == w.wordWidth-rw && (width <= 0 || w.col+w.lead()+rw < width) {
			w.writeSpaces() // the word's first column: its spaces first
			w.buf = utf8.AppendRune(w.buf, r)
			w.col += rw
			w.shown, w.shownLen = w.wordWidth, w.word.Len()
			return
		}
		if width > 0 && w.wordWidth >= width {
			w.flushWord() // longer than a line: broken where it must be
		}
	}
}

// lead is the spaces still to write before the word's first column.
func (w *Writer) lead() int {
	if w.shown == 0 {
		return w.spaces
	}
	return 0
}

func (w *Writer) newline() {
	w.put("\n")
	w.col, w.spaces = 0, 0
}

// writeSpaces writes the kept spaces that fit on the line.
func (w *Writer) writeSpaces() {
	n := w.spaces
	w.spaces = 0
	if width := w.cols; width > 0 && w.col+n >= width {
		n = max(0, width-w.col-1)
	}
	w.put(strings.Repeat(" ", n))
	w.col += n
}

// flushWord writes the kept word, on the next line when it would not fit
// on this one; a word wider than the line is broken at the width.
func (w *Writer) flushWord() {
	if w.word.Len() == 0 {
		w.writeSpaces()
		return
	}
	word, ww, shown := w.word.String(), w.wordWidth, w.shown
	rest := word[w.shownLen:]
	w.word.Reset()
	w.wordWidth, w.shown, w.shownLen = 0, 0, 0
	width := w.cols
	restWidth := ww - shown
	switch {
	case width <= 0 || w.col+restWidth <= width && shown > 0:
		w.writeSpaces()
		w.put(rest)
		w.col += restWidth
		if width > 0 && w.col >= width {
			w.newline()
		}
		return
	case shown > 0 && w.col > shown:
		// Its start is on the screen and the rest does not fit: take the
		// start back, and write the word whole on the next line.
		w.put(strings.Repeat("\b", shown) + strings.Repeat(" ", shown))
		w.newline()
		rest = word
	case shown == 0 && w.col > 0 && w.col+w.spaces+ww > width:
		w.newline()
	}
	word = rest
	w.writeSpaces()
	for _, r := range word {
		rw := runewidth.RuneWidth(r)
		if w.col+rw > width && w.col > 0 {
			w.newline()
		}
		w.buf = utf8.AppendRune(w.buf, r)
		w.col += rw
	}
	if w.col >= width {
		w.newline() // at the edge: the next line starts clean
	}
}

// cutSequence matches what may be the start of an SGR sequence.
var cutSequence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b(\\[[0-9;:]*)?$") })

// maxHeld bounds a kept tail: a "sequence" longer than this is not one.
const maxHeld = 64

// splitTail splits off an end of s that may continue in the next piece.
func splitTail(s string) (body, tail string) {
	if strings.HasSuffix(s, "\r") {
		return s[:len(s)-1], "\r"
	}
	if i := strings.LastIndexByte(s, 0x1b); i >= 0 && len(s)-i <= maxHeld && cutSequence().MatchString(s[i:]) {
		return s[:i], s[i:]
	}
	for i := 1; i <= 3 && i <= len(s); i++ {
		if utf8.RuneStart(s[len(s)-i]) {
			if !utf8.FullRuneInString(s[len(s)-i:]) {
				return s[:len(s)-i], s[len(s)-i:]
			}
			break
		}
	}
	return s, ""
}

// Passthrough writes s as it is: the output of the person's own command,
// which has its terminal. The column is taken from the text after its
// last newline, so what follows still starts on a line of its own.
func (w *Writer) Passthrough(s string) {
	if s == "" {
		return
	}
	w.begin()
	defer w.end()
	w.flushWord()
	w.put(s)
	if i := strings.LastIndexAny(s, "\r\n"); i >= 0 {
		w.col = runewidth.StringWidth(s[i+1:])
		return
	}
	w.col += runewidth.StringWidth(s)
}
