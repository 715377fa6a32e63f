// Package visible owns how wisp shows text that someone else wrote (a
// command line in an approval request, an audit record) to a person:
// control characters, bytes that are not UTF-8, and the invisible format
// characters (bidirectional overrides, zero-width joiners) that could make
// one line read as another are written as Go escapes. What a person reads
// is then what the text holds: a newline in a command cannot fake the next
// line of a dialog, and an escape sequence cannot repaint the terminal.
package visible

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Line returns s safe to show on one line.
func Line(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, Hidden) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && strings.HasPrefix(s[i:], string(utf8.RuneError)):
			b.WriteRune(r) // a real U+FFFD
		case r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Hidden(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Hidden reports whether r is shown as an escape: a control character, a
// format character (bidirectional controls, zero-width characters), or a
// line or paragraph separator, which some terminals take as a newline.
func Hidden(r rune) bool {
	if r < 0x80 { // most text: no table to search
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}
