package chat

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/checkpoint"
)

// lines is a person typing these lines, then leaving.
type lines []string

func (l *lines) ReadLine(context.Context) (string, error) {
	if len(*l) == 0 {
		return "", io.EOF
	}
	s := (*l)[0]
	*l = (*l)[1:]
	return s, nil
}

// A ! line that deletes a folder is undone by /undo, after the person sees
// what will change and says yes; /redo deletes it again.
func TestSlashUndoAndRedo(t *testing.T) {
	w := agenttest.NewWorld(t, agenttest.SandboxOff)
	dir := w.Tools.Runner.Dir
	os.MkdirAll(filepath.Join(dir, "build"), 0o755)
	os.WriteFile(filepath.Join(dir, "build", "out"), []byte("x"), 0o644)
	s, err := checkpoint.Open(checkpoint.Dir(w.Home.Dir, dir), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var screen bytes.Buffer
	face := NewTerminalFace(&screen, &screen, false)
	a := agent.New(agent.Options{Tools: w.Tools, Face: face, NoModel: "none",
		Checkpoints: &agent.Checkpoints{Store: s, Roots: []string{dir}, Face: "chat"}})
	if err := a.RunTyped(context.Background(), agent.Typed{Command: "rm -r build"}); err != nil {
		t.Fatal(err)
	}
	in := lines{"perhaps", "y"}
	o := TerminalOptions{Agent: a, Face: face, Lines: &in}
	screen.Reset()
	if !sessionSlash(context.Background(), o, "/undo") {
		t.Fatal("/undo is not a command")
	}
	shown := screen.String()
	for _, want := range []string{"Undo back to checkpoint 1, before !rm -r build", "- build/", "- build/out",
		"· Undo? [yes/no]", "· answer yes or no", "· undone: 0 made by the turn, 2 deleted by it, 0 changed (/redo takes it back)"} {
		if !strings.Contains(shown, want) {
			t.Errorf("/undo showed\n%s\nwithout %q", shown, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "build", "out")); err != nil {
		t.Errorf("build/out is not back: %v", err)
	}
	in = lines{}
	screen.Reset()
	sessionSlash(context.Background(), o, "/redo")
	if !strings.Contains(screen.String(), "· nothing was changed") {
		t.Errorf("a redo the person left without answering:\n%s", screen.String())
	}
	in = lines{"yes"}
	sessionSlash(context.Background(), o, "/redo")
	if _, err := os.Stat(filepath.Join(dir, "build")); !os.IsNotExist(err) {
		t.Errorf("the redo left build: %v", err)
	}
	screen.Reset()
	sessionSlash(context.Background(), o, "/redo")
	if !strings.Contains(screen.String(), "· nothing to take back: no /undo since the last turn") {
		t.Errorf("a third redo:\n%s", screen.String())
	}
}

// Run for the tui (no line to read), /undo shows what would change and how
// to go ahead; /undo keep does it, keeping the person's own edit.
func TestRunSlashUndoAnswersByCommand(t *testing.T) {
	w := agenttest.NewWorld(t, agenttest.SandboxOff)
	dir := w.Tools.Runner.Dir
	os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644)
	s, err := checkpoint.Open(checkpoint.Dir(w.Home.Dir, dir), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var screen bytes.Buffer
	a := agent.New(agent.Options{Tools: w.Tools, Face: NewTerminalFace(&screen, &screen, false), NoModel: "none",
		Checkpoints: &agent.Checkpoints{Store: s, Roots: []string{dir}, Face: "tui"}})
	a.RunTyped(context.Background(), agent.Typed{Command: "echo b > b && echo changed > a"})
	os.WriteFile(filepath.Join(dir, "a"), []byte("mine"), 0o644)

	run := func(line string) string {
		var out bytes.Buffer
		if _, ok := RunSlash(context.Background(), a, nil, nil, line, &out); !ok {
			t.Fatalf("%s is not a command", line)
		}
		return out.String()
	}
	out := run("/undo")
	if !strings.Contains(out, "! a\n") || !strings.Contains(out, "Type /undo keep or /undo overwrite to go ahead.") {
		t.Errorf("/undo showed\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "b")); err != nil {
		t.Fatal("/undo without an answer changed the files")
	}
	if out := run("/undo yes"); !strings.Contains(out, "Type /undo keep or /undo overwrite") {
		t.Errorf("/undo yes over an edit: a yes is not an answer to keep or overwrite:\n%s", out)
	}
	out = run("/undo keep")
	if _, err := os.Stat(filepath.Join(dir, "b")); !os.IsNotExist(err) {
		t.Errorf("/undo keep left b:\n%s", out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "a")); string(data) != "mine" {
		t.Errorf("/undo keep overwrote a: %q", data)
	}
}

func TestThreadLinesCountUndos(t *testing.T) {
	now := time.Now()
	l := ThreadLines([]agent.ThreadInfo{{ID: "t1", Dir: "/p", Modified: now, First: "fix it", Messages: 2, Undos: 2}}, now, 0)
	if len(l) != 1 || !strings.HasSuffix(l[0], "fix it  (2 undone or redone)") {
		t.Errorf("%q", l)
	}
}
