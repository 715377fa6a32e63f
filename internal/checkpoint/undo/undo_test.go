package undo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/checkpoint"
)

type proj struct {
	t     *testing.T
	dir   string
	store *checkpoint.Store
}

func newProj(t *testing.T) *proj {
	dir := t.TempDir()
	s, err := checkpoint.Open(filepath.Join(t.TempDir(), "store"), checkpoint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &proj{t: t, dir: dir, store: s}
}

func (p *proj) write(rel, content string) {
	p.t.Helper()
	path := filepath.Join(p.dir, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		p.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
}

func (p *proj) read(rel string) string {
	data, err := os.ReadFile(filepath.Join(p.dir, rel))
	if errors.Is(err, os.ErrNotExist) {
		return "<none>"
	}
	if err != nil {
		p.t.Fatal(err)
	}
	return string(data)
}

// turn takes the before and after checkpoints around do, as the agent does.
func (p *proj) turn(what string, do func()) {
	p.t.Helper()
	before, err := p.store.Take([]string{p.dir}, BeforeLabel(what))
	if err != nil {
		p.t.Fatal(err)
	}
	do()
	if _, err := p.store.Take([]string{p.dir}, AfterLabel(before)); err != nil {
		p.t.Fatal(err)
	}
}

func answer(a string) Ask {
	return func(string, []string) (string, error) { return a, nil }
}

func (p *proj) undo(a string) (*Done, string) {
	p.t.Helper()
	plan, err := PlanUndo(p.store, 0)
	if err != nil {
		p.t.Fatal(err)
	}
	var out bytes.Buffer
	d, err := Run(p.store, plan, &out, answer(a))
	if err != nil {
		p.t.Fatalf("undo: %v\n%s", err, out.String())
	}
	return d, out.String()
}

func (p *proj) redo(a string) string {
	p.t.Helper()
	plan, err := PlanRedo(p.store)
	if err != nil {
		p.t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := Run(p.store, plan, &out, answer(a)); err != nil {
		p.t.Fatalf("redo: %v\n%s", err, out.String())
	}
	return out.String()
}

func (p *proj) want(files map[string]string) {
	p.t.Helper()
	for rel, want := range files {
		if got := p.read(rel); got != want {
			p.t.Errorf("%s = %q, want %q", rel, got, want)
		}
	}
}

func TestUndoTwoTurnsBackThenRedoForward(t *testing.T) {
	p := newProj(t)
	p.write("a.txt", "one\n")
	p.turn("make b", func() { p.write("b.txt", "b\n"); p.write("a.txt", "one\ntwo\n") })
	p.turn("make c", func() { p.write("c.txt", "c\n"); os.Remove(filepath.Join(p.dir, "b.txt")) })

	_, shown := p.undo("yes")
	for _, s := range []string{"before make c", "+ c.txt (+1 -0 lines, made by the turn: removed)", "- b.txt (+0 -1 lines, deleted by the turn: put back)"} {
		if !strings.Contains(shown, s) {
			t.Errorf("the undo showed\n%s\nwithout %q", shown, s)
		}
	}
	p.want(map[string]string{"a.txt": "one\ntwo\n", "b.txt": "b\n", "c.txt": "<none>"})
	_, shown = p.undo("yes")
	if !strings.Contains(shown, "~ a.txt (+1 -0 lines, changed: put back as it was)") {
		t.Errorf("the second undo showed\n%s", shown)
	}
	p.want(map[string]string{"a.txt": "one\n", "b.txt": "<none>", "c.txt": "<none>"})

	p.redo("yes")
	p.want(map[string]string{"a.txt": "one\ntwo\n", "b.txt": "b\n", "c.txt": "<none>"})
	p.redo("yes")
	p.want(map[string]string{"a.txt": "one\ntwo\n", "b.txt": "<none>", "c.txt": "c\n"})
	if _, err := PlanRedo(p.store); !errors.Is(err, ErrNothing) {
		t.Errorf("a third redo: %v, want nothing to redo", err)
	}
}

func TestANewTurnEndsTheRedos(t *testing.T) {
	p := newProj(t)
	p.turn("one", func() { p.write("x", "1") })
	p.undo("yes")
	p.turn("two", func() { p.write("y", "2") })
	if _, err := PlanRedo(p.store); !errors.Is(err, ErrNothing) {
		t.Errorf("redo after a new turn: %v, want nothing to redo", err)
	}
}

func TestAnEditByHandIsShownAndKept(t *testing.T) {
	p := newProj(t)
	p.write("mine.txt", "mine\n")
	p.turn("edit", func() { p.write("mine.txt", "model\n"); p.write("new.txt", "new\n") })
	p.write("mine.txt", "model\nand my own line\n") // the person, after the turn

	plan, err := PlanUndo(p.store, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Conflicts) != 1 || plan.Conflicts[0].Path != "mine.txt" {
		t.Fatalf("conflicts %+v, want mine.txt", plan.Conflicts)
	}
	q, answers := plan.Question()
	if !strings.Contains(q, "keeping the 1 files changed since") || strings.Join(answers, "/") != "keep/overwrite/cancel" {
		t.Errorf("question %q %q", q, answers)
	}
	var out bytes.Buffer
	if _, err := Run(p.store, plan, &out, answer("cancel")); !errors.Is(err, ErrCanceled) {
		t.Fatalf("cancel: %v", err)
	}
	p.want(map[string]string{"mine.txt": "model\nand my own line\n", "new.txt": "new\n"})
	if !strings.Contains(out.String(), "! mine.txt") {
		t.Errorf("the hand edit is not shown:\n%s", out.String())
	}

	d, _ := p.undo("keep")
	p.want(map[string]string{"mine.txt": "model\nand my own line\n", "new.txt": "<none>"})
	if !strings.Contains(d.String(), "1 files changed since were kept") {
		t.Errorf("done: %s", d)
	}
}

func TestOverwriteIsAskedFor(t *testing.T) {
	p := newProj(t)
	p.write("f", "before\n")
	p.turn("edit", func() { p.write("f", "model\n") })
	p.write("f", "mine\n")
	p.undo("overwrite")
	p.want(map[string]string{"f": "before\n"})
}

func TestCommand(t *testing.T) {
	p := newProj(t)
	p.turn("first turn", func() { p.write("a", "a\n") })
	p.turn("second turn", func() { p.write("b", "b\n") })

	var out bytes.Buffer
	if err := Command(p.store, true, nil, nil, &out, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], "before second turn") || !strings.Contains(lines[2], "before first turn") {
		t.Fatalf("--list:\n%s", out.String())
	}
	first := strings.Fields(lines[2])[0]

	out.Reset()
	if err := Command(p.store, false, []string{first}, strings.NewReader("n\n"), &out, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Undo? [yes/no]") || !strings.HasSuffix(out.String(), "Nothing was changed.\n") {
		t.Errorf("a no:\n%s", out.String())
	}
	p.want(map[string]string{"a": "a\n", "b": "b\n"})

	var recorded *Done
	out.Reset()
	if err := Command(p.store, false, []string{first}, strings.NewReader("maybe\ny\n"), &out, func(d *Done) { recorded = d }); err != nil {
		t.Fatal(err)
	}
	p.want(map[string]string{"a": "<none>", "b": "<none>"})
	if recorded == nil || len(recorded.Restored.Changes) != 2 || !strings.Contains(out.String(), "Answer yes or no.") {
		t.Errorf("recorded %+v\n%s", recorded, out.String())
	}
	out.Reset()
	Command(p.store, true, nil, nil, &out, nil)
	if strings.Count(out.String(), "(undone)") != 2 {
		t.Errorf("--list after the undo:\n%s", out.String())
	}

	for _, args := range [][]string{{"x"}, {"0"}, {"1", "2"}, {"999"}} {
		if err := Command(p.store, false, args, strings.NewReader(""), &out, nil); err == nil {
			t.Errorf("wisp undo %q: no error", args)
		}
	}
}
