package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/model/modeltest"
)

// The tests of wisp chat as a daily tool (issue 17): what shows while
// the model is silent or its command runs, the Markdown, the project's
// instructions, threads, the bounded context and the model's checks.
// Each runs a real wisp chat on a pty, read back through the emulator.

func noLine(t *testing.T, lines []string, part string) {
	t.Helper()
	for _, l := range lines {
		if strings.Contains(l, part) {
			t.Errorf("the screen still holds %q:\n%s", part, strings.Join(lines, "\n"))
			return
		}
	}
}

// Until the first word, a spinner counts the seconds; when the words
// come it is gone and they take its place.
func TestChatSpinnerCountsUntilTheFirstWordThenGoes(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	gate := filepath.Join(e.outside, "answer")
	srv := modeltest.NewServer(t, modeltest.Turn{WaitFor: gate, Text: []string{"Here ", "it is."}})
	c := e.chatWith(srv, false)
	c.typeLine("hello")
	c.expect("waiting for the model · 1s")
	os.WriteFile(gate, nil, 0o644)
	c.expect("it is.")
	c.expect("› ")
	lines := c.shown()
	noLine(t, lines, "waiting for the model")
	if !hasLine(lines, "Here it is.") {
		t.Errorf("the words are not on a line of their own:\n%s", strings.Join(lines, "\n"))
	}
}

// A model's slow command shows its elapsed time and its last lines as it
// runs; when it ends they go, and the usual result stays.
func TestChatModelsSlowCommandShowsItsLiveLines(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	line := `for i in 1 2 3 4 5; do echo "li"ne$i; done; until test -e go; do sleep 0.05; done; echo "fini"shed`
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{"command": line}))}},
		modeltest.Turn{Text: []string{"Done."}})
	c := e.chatWith(srv, false)
	c.typeLine("run it")
	c.expect("⋯ running · 1s")
	live := c.shown()
	if !hasLine(live, "  │ line5") || hasLine(live, "  │ line2") {
		t.Errorf("the live rows are not the last three lines:\n%s", strings.Join(live, "\n"))
	}
	os.WriteFile(filepath.Join(e.project, "go"), nil, 0o644)
	c.expect("Done.")
	c.expect("› ")
	lines := c.shown()
	noLine(t, lines, "⋯ running")
	for _, want := range []string{"  │ line1", "  │ finished", "Done."} {
		if !hasLine(lines, want) {
			t.Errorf("no line %q after the run:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}
