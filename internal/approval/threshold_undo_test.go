package approval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/internal/checkpoint"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
)

// rootUndo is the agent's Undo over one root, with a checkpoint taken.
type rootUndo struct{ root string }

func (u rootUndo) Covered(dir, path string) error {
	return checkpoint.Undoable([]string{u.root}, dir, path, nil)
}

func (u rootUndo) Located(dir, path string) error {
	return checkpoint.UndoableLocation([]string{u.root}, dir, path, nil)
}

func undoProject(t *testing.T) string {
	root := t.TempDir()
	for rel, content := range map[string]string{
		".gitignore": "dist/\n", "build/a.o": "o", "src/main.go": "package main", "dist/app": "bin",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(root, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.MkdirAll(filepath.Join(root, ".git"), 0o755)
	return root
}

func TestUndoableLines(t *testing.T) {
	root := undoProject(t)
	p, err := policy.New(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		line     string
		undoable bool
	}{
		{"rm -r build", true}, {"rm -rf build src", true}, {"rm -r -- build", true},
		{"git clean -fd", true}, {"git clean -f", true}, {"git reset --hard", true}, {"git reset --hard HEAD", true},
		{"git checkout -f", true}, {"git checkout -f -- src", true},
		// what a checkpoint leaves out or cannot hold
		{"rm -r dist", false},               // gitignored
		{"rm -r .", false},                  // holds dist/ and .git
		{"rm -r .git", false},               // the repository itself
		{"rm -rf /etc", false},              // outside the roots
		{"rm -r ../elsewhere", false},       // outside the roots
		{"git clean -fdx", false},           // deletes ignored files
		{"git clean -ffd", false},           // deletes nested repositories
		{"git reset --hard HEAD~1", false},  // moves a ref
		{"git checkout -f main", false},     // moves HEAD
		{"rm -r build && git push", false},  // leaves the machine
		{"rm -r build; curl x | sh", false}, // runs downloaded code
		{"rm -r $DIR", false},               // known only when it runs
		{"rm -r b*", false},                 // a glob
		{"rm -r 'build'", false},            // quoting: not vouched for
		{"git push --force", false},         // a remote
		{"find . -delete", false},           // not among the forms
		{"sudo rm -r build", false},         // as root
		{"rm -r build > /tmp/log", false},   // a redirection
	}
	for _, tt := range tests {
		risk := p.Check(tt.line).Risk
		if got := Undoable(tt.line, root, risk, rootUndo{root}); got != tt.undoable {
			t.Errorf("%q (%s %q): undoable %v, want %v", tt.line, risk.Level, risk.Reasons, got, tt.undoable)
		}
		if Undoable(tt.line, root, risk, nil) {
			t.Errorf("%q is undoable without checkpoints", tt.line)
		}
	}
}

// Every reason the gate lowers is one the policy gives, word for word.
func TestUndoableReasonsAreThePolicys(t *testing.T) {
	p, _ := policy.New(nil, nil)
	for line, reason := range map[string]string{
		"rm -r x": undoableReasons[0], "git clean -f": undoableReasons[1], "git reset --hard": undoableReasons[2],
		"git checkout -f": undoableReasons[3], "git restore -f x": undoableReasons[4],
	} {
		if r := p.Check(line).Risk; r.Level != policy.High || !slices.Contains(r.Reasons, reason) {
			t.Errorf("%q: %s %q, want high with %q", line, r.Level, r.Reasons, reason)
		}
	}
}

func TestUndoGateAsksOnlyWhatCannotBeUndone(t *testing.T) {
	root := undoProject(t)
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: false, By: "terminal"}}
	g, _ := newGate(t, ResolveUndoThreshold("", Confined, true).Level, person)
	ug := UndoGate{Inner: g, Undo: rootUndo{root}}
	p, _ := policy.New(nil, nil)
	clear := func(line string) runner.Clearance {
		c, err := ug.Clear(context.Background(), runner.GateRequest{Line: line, Dir: root, Origin: runner.Model, Decision: p.Check(line)})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, line := range []string{"rm -r build", "git clean -fd", "git reset --hard"} {
		if c := clear(line); !c.Approved || person.asked.Load() != 0 {
			t.Errorf("%q: %+v, asked %d; want it to pass unasked", line, c, person.asked.Load())
		}
	}
	for i, line := range []string{"rm -r dist", "git push", "curl x | python3"} {
		if c := clear(line); c.Approved || person.asked.Load() != int32(i+1) {
			t.Errorf("%q: %+v, asked %d; want it asked", line, c, person.asked.Load())
		}
	}
	if c, _ := ug.Clear(context.Background(), runner.GateRequest{Line: "rm -r build", Dir: root, Origin: runner.Model,
		OutsideSandbox: true, Decision: p.Check("rm -r build")}); c.Approved {
		t.Error("a request outside the sandbox passed unasked")
	}
	if got := ResolveUndoThreshold("", Confined, true).Why; got != UndoThresholdWhy {
		t.Errorf("why %q", got)
	}
	if got := ResolveUndoThreshold("high", Confined, true); got != ResolveThreshold("high", Confined) {
		t.Errorf("a set threshold changed: %+v", got)
	}
}
