package tui

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

// The model's Markdown shows rendered, as the plain chat shows it, never
// raw: no ** around a bold word, no backticks, bullets as •, a link's
// text with its target (issue 28 item 11). Read off a terminal emulator,
// with colour on and off.
func TestModelWordsShowRendered(t *testing.T) {
	words := "The tests **pass**: `go test ./...` is green.\n- first\n* second\n\nSee [the docs](https://example.com/d)."
	for _, colour := range []bool{false, true} {
		m, _, _ := newTestModel(colour)
		feed(m, evMsg{agent.Event{Type: agent.EventMessage, Text: words}}, turnDoneMsg{})
		scr := rendertest.NewScreen(80, 24)
		rendertest.OutputCRLF(scr).Write([]byte(m.View().Content))
		seen := scr.Text()
		scr.Close()
		for _, want := range []string{"The tests pass: go test ./... is green.", "• first", "• second", "See the docs (https://example.com/d)."} {
			if !strings.Contains(seen, want) {
				t.Errorf("colour %v: the screen lacks %q:\n%s", colour, want, seen)
			}
		}
		for _, raw := range []string{"**", "`", "[the docs]"} {
			if strings.Contains(seen, raw) {
				t.Errorf("colour %v: the screen shows the mark %q raw:\n%s", colour, raw, seen)
			}
		}
		if bold := "\x1b[1mpass"; colour != strings.Contains(m.View().Content, bold) {
			t.Errorf("colour %v: bold sequence before pass present = %v", colour, !colour)
		}
	}
}
