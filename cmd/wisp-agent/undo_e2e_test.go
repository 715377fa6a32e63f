package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/sandbox"
)

// Issue 31: a respond turn that edits, creates and deletes files (rm -r of
// a folder, which the checkpoint lets run without a person) is taken back
// by `wisp undo` from a shell: listed, shown, asked once, and the files are
// as before the turn; checkpoint.restored is in the audit log.
func TestUndoTakesBackARespondTurn(t *testing.T) {
	needSandbox(t)
	if sandbox.Nested() {
		t.Skip("wisp runs inside another sandbox here: the default is moderate")
	}
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	writeFile(t, filepath.Join(e.project, "notes.txt"), "first\n")
	writeFile(t, filepath.Join(e.project, "build", "out.bin"), "\x00\x01binary")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{
			"command": "printf 'second\\n' > notes.txt && printf 'package main\\n' > new.go"}))}},
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_2", jsonArgs(map[string]any{"command": "rm -r build"}))}},
		modeltest.Turn{Text: []string{"Done."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	c := e.cmd("respond", "tidy up")
	var stderr bytes.Buffer
	c.Stderr = &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(filepath.Join(e.project, "build")); err == nil {
		t.Fatalf("rm -r build did not run under the checkpoint (the model read %q)\n%s", toolResults(srv, 2), stderr.String())
	}
	if got := readFile(t, filepath.Join(e.project, "notes.txt")); got != "second\n" {
		t.Fatalf("the turn did not edit notes.txt: %q", got)
	}

	list := e.wisp("undo", "--list")
	if !strings.Contains(list, "Checkpoints taken before each turn") || !strings.Contains(list, "tidy up") {
		t.Errorf("wisp undo --list:\n%s", list)
	}
	c = e.cmd("undo")
	c.Stdin = strings.NewReader("yes\n")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("wisp undo: %v\n%s", err, out)
	}
	for _, want := range []string{"Undo back to checkpoint", "new.go", "notes.txt", "build/out.bin", "Undo? [yes/no]"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("wisp undo did not show %q:\n%s", want, out)
		}
	}
	if got := readFile(t, filepath.Join(e.project, "notes.txt")); got != "first\n" {
		t.Errorf("notes.txt after undo: %q", got)
	}
	if got := readFile(t, filepath.Join(e.project, "build", "out.bin")); got != "\x00\x01binary" {
		t.Errorf("build/out.bin after undo: %q", got)
	}
	if _, err := os.Stat(filepath.Join(e.project, "new.go")); !os.IsNotExist(err) {
		t.Errorf("new.go is still there after undo: %v", err)
	}
	if logs := e.wisp("logs", "--json"); !strings.Contains(logs, "checkpoint.restored") {
		t.Errorf("no checkpoint.restored in the audit log:\n%s", logs)
	}
}

// Asked and answered no, wisp undo changes nothing.
func TestUndoAnsweredNoChangesNothing(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	writeFile(t, filepath.Join(e.project, "notes.txt"), "first\n")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{"command": "printf 'second\\n' > notes.txt"}))}},
		modeltest.Turn{Text: []string{"Done."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	e.wisp("respond", "edit")
	c := e.cmd("undo")
	c.Stdin = strings.NewReader("no\n")
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("wisp undo: %v\n%s", err, out)
	}
	if got := readFile(t, filepath.Join(e.project, "notes.txt")); got != "second\n" {
		t.Errorf("notes.txt after undo answered no: %q\n%s", got, out)
	}
}

// With checkpoints off there is nothing to undo, and wisp undo says how to
// turn them on.
func TestUndoWithCheckpointsOffSaysSo(t *testing.T) {
	e := newE2E(t)
	e.wisp("config", "set", "checkpoints.enabled", "false")
	out, err := e.cmd("undo").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "checkpoints are off (checkpoints.enabled), so there is nothing to undo") ||
		!strings.Contains(string(out), "checkpoints.enabled true") {
		t.Errorf("wisp undo with checkpoints off: %v\n%s", err, out)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// /undo in a chat on a terminal, as a person types it: the turn's change
// is shown, the chat asks once on the next line, and yes puts the file
// back; /redo brings the turn's version again.
func TestChatUndoOnATerminal(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	notes := filepath.Join(e.project, "notes.txt")
	writeFile(t, notes, "first\n")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{
			"command": "printf 'second\\n' > notes.txt"}))}},
		modeltest.Turn{Text: []string{"Rewrote it."}})
	c := e.chatWith(srv, false)
	c.typeLine("rewrite the notes")
	c.expect("Rewrote it.")
	c.expect("› ")
	if got := readFile(t, notes); got != "second\n" {
		t.Fatalf("the turn did not rewrite notes.txt: %q", got)
	}
	for _, step := range []struct{ cmd, shows, question, done, want string }{
		{"/undo", "Undo back to checkpoint", "· Undo? [yes/no]", "· undone: 0 made by the turn, 0 deleted by it, 1 changed (/redo takes it back)", "first\n"},
		{"/redo", "Redo the last undo", "· Redo? [yes/no]", "· redone: 0 made by the turn, 0 deleted by it, 1 changed", "second\n"},
	} {
		c.typeLine(step.cmd)
		c.expect(step.shows)
		c.expect("~ notes.txt (+1 -1 lines")
		c.expect(step.question)
		c.typeLine("yes")
		c.expect(step.done)
		if got := readFile(t, notes); got != step.want {
			t.Errorf("after %s notes.txt is %q, want %q", step.cmd, got, step.want)
		}
	}
	c.typeLine("/quit")
	if code := c.exited(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// Started in the home folder, which is no project, wisp takes no
// checkpoints (a walk of it before each turn would hold up every turn) and
// says so; wisp undo there says the same.
func TestNoCheckpointsInTheHomeFolder(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Hello."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	said := "no checkpoints here, so /undo cannot take a turn back: " + e.project + " is your home folder, not a project folder"
	for _, args := range [][]string{{"respond", "hi"}, {"undo"}} {
		c := e.cmd(args...)
		c.Env = append(c.Env, "HOME="+e.project)
		out, _ := c.CombinedOutput()
		if !strings.Contains(string(out), said) {
			t.Errorf("wisp %s in the home folder said:\n%s\nwant %q", strings.Join(args, " "), out, said)
		}
	}
	if _, err := os.Stat(filepath.Join(e.home, "checkpoints")); err == nil {
		t.Error("a checkpoint store was made for the home folder")
	}
}
