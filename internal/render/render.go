// Package render owns how text that someone else wrote reaches the
// person's terminal: the model's words, the output of the model's
// commands, tool results, audit records, a question's command line. The
// text can only draw itself. Colour and style sequences (SGR) are dropped;
// every other escape sequence (CSI, OSC, DCS, APC, PM, SOS, a lone ESC),
// every C1 control, every control character but newline and tab, and the
// invisible format characters (bidirectional overrides and isolates,
// zero-width characters) are shown as Go escapes, as package visible
// shows a single line. Nothing in the text can move the cursor up or
// left of where it began, clear the screen, set the title or hide what
// follows. A single line that a person judges (Line) keeps even its
// colour sequences, as escapes. Writer adds word wrapping at the terminal's width for text
// that streams.
//
// A person's own command at the terminal (! and !! in the chat, wisp run
// on a tty) is not rendered: it has its pseudo-terminal, it is their
// program.
package render

import (
	"regexp"
	"strings"
	"sync"

	"github.com/wisp-sh/wisp/internal/visible"
)

// sgr matches a 7-bit Select Graphic Rendition sequence: colours and
// styles only. Parameters are digits, ';' and ':' (ITU T.416 colours).
// Compiled on first use, as cutSequence is: every wisp links this package,
// and `wisp version` would compile both for nothing.
var sgr = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("\x1b\\[[0-9;:]*m") })

// Line returns s safe to show on one line, every byte of it seen: a
// command line or a path that a person judges (an approval, the audit) is
// shown whole, its colour sequences, newlines and tabs as escapes too, so
// what is read is what runs.
func Line(s string) string { return visible.Line(s) }

// Text returns s safe to show as lines: SGR dropped, newlines and tabs
// kept, a CR LF pair taken as a newline, everything else invisible or
// controlling shown as escapes (a lone CR as \r: it would overwrite the
// line).
func Text(s string) string {
	s = strings.ReplaceAll(stripSGR(s), "\r\n", "\n")
	if !strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && visible.Hidden(r) }) &&
		visible.Line(s) == s {
		return s
	}
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		for j, cell := range strings.Split(line, "\t") {
			if j > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(visible.Line(cell))
		}
	}
	return b.String()
}

func stripSGR(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	return sgr().ReplaceAllString(s, "")
}
