package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

const mdSample = "# Plan\n\nThis is **bold**, *italic* and `code`; 2 * 3 = 6, snake_case stays.\n" +
	"- first item\n* second item\n1. one\n> quoted\n\nSee [the docs](https://example.com/d) or [https://x.y](https://x.y).\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"a very long line that must not be wrapped by wisp at all, not even once\")\n}\n```\n---\nafter"

// renderMD streams s in pieces of n bytes, as a model sends it.
func renderMD(s string, n int, colour bool, width int) string {
	var out bytes.Buffer
	w := NewWriter(&out, func() int { return width })
	m := NewMarkdown(w, TerminalStyleIf(colour))
	for len(s) > 0 {
		k := min(n, len(s))
		m.Write(s[:k])
		s = s[k:]
	}
	m.End()
	w.Flush()
	return out.String()
}

// Without colour (NO_COLOR, a pipe) the Markdown is plain text: marks
// gone, bullets, links with their targets, code verbatim; however the
// stream is cut, the text is the same.
func TestMarkdownPlain(t *testing.T) {
	want := "Plan\n\nThis is bold, italic and code; 2 * 3 = 6, snake_case stays.\n" +
		"• first item\n• second item\n1. one\n│ quoted\n\nSee the docs (https://example.com/d) or https://x.y.\n" +
		"func main() {\n    fmt.Println(\"a very long line that must not be wrapped by wisp at all, not even once\")\n}\n" +
		strings.Repeat("─", 40) + "\nafter"
	// A rule is no wider than the terminal.
	if got := renderMD("---\nx", 1, false, 20); got != strings.Repeat("─", 19)+"\nx" {
		t.Errorf("a rule at width 20: %q", got)
	}
	for _, n := range []int{1, 2, 3, 7, 1000} {
		if got := renderMD(mdSample, n, false, 0); got != want {
			t.Errorf("pieces of %d:\n%s\nwant\n%s", n, got, want)
		}
	}
}

// On a terminal, through the emulator: prose wraps at words to the width,
// the code line does not get a break of wisp's, styles are on.
func TestMarkdownOnATerminal(t *testing.T) {
	got := renderMD(mdSample, 5, true, 40)
	if !strings.Contains(got, TerminalStyle.Bold+"bold") || !strings.Contains(got, TerminalStyle.Italic+"italic") ||
		!strings.Contains(got, TerminalStyle.Heading+"Plan") {
		t.Errorf("no styles in %q", got)
	}
	scr := rendertest.NewScreen(40, 40)
	defer scr.Close()
	rendertest.OutputCRLF(scr).Write([]byte(got))
	lines := scr.Lines()
	for _, l := range lines {
		if strings.HasSuffix(l, " a") || strings.HasPrefix(l, "ng ") {
			t.Errorf("a word was cut: %q", l)
		}
	}
	text := scr.Text()
	if !strings.Contains(text, "This is bold, italic and code; 2 * 3 =\n6, snake_case stays.") {
		t.Errorf("prose not wrapped at words:\n%s", text)
	}
	if !strings.Contains(got, "    fmt.Println(\"a very long line that must not be wrapped by wisp at all, not even once\")"+TerminalStyle.Reset+"\n") {
		t.Errorf("the code line was broken by wisp: %q", got)
	}
}

// The model's escapes inside Markdown are still shown, never obeyed.
func TestMarkdownKeepsEscapesVisible(t *testing.T) {
	got := renderMD("**x\x1b[2J** [a\x1b]0;t\x07](u)\n```\n\x1b[3Acode\n```\n", 2, false, 0)
	if strings.Contains(got, "\x1b") || !strings.Contains(got, `x\x1b[2J`) || !strings.Contains(got, `\x1b[3Acode`) {
		t.Errorf("rendered %q", got)
	}
}
