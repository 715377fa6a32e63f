package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestUndoable(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	p := &project{t: t, dir: root}
	p.write(map[string]string{
		".gitignore":         "build/\n*.log\n",
		"src/a.go":           "a",
		"src/gen/.gitignore": "*.pb.go\n",
		"src/gen/x.pb.go":    "generated",
		"src/gen/y.go":       "y",
		"build/out":          "o",
		"docs/notes.log":     "log",
		"docs/guide.md":      "g",
		"sub/.git/HEAD":      "ref",
		"sub/file":           "f",
		"empty/":             "",
		"link@":              outside,
	})
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		why  string // "" when undoable
	}{
		{"src/a.go", ""}, {"empty", ""}, {"missing/thing", ""}, {"not-there", ""},
		{"link", ""}, // the link itself is recorded; rm -r of it removes the link
		{"build", "left out of checkpoints by .gitignore"},
		{"build/out", "left out of checkpoints by .gitignore"},
		{"docs", "docs/notes.log is left out of checkpoints by .gitignore"},
		{"docs/guide.md", ""},
		{"src", "x.pb.go is left out of checkpoints by .gitignore"},
		{"src/gen/y.go", ""},
		{"sub", "sub/.git is a repository's own folder"},
		{"sub/.git/HEAD", "a repository's own folder"},
		{".", "left out of checkpoints"},
		{"pipe", "socket, pipe or device"},
		{"link/x", "outside the folders checkpoints record"},
		{outside, "outside the folders checkpoints record"},
		{"../", "outside the folders checkpoints record"},
	}
	for _, tt := range tests {
		err := Undoable([]string{root}, root, tt.path, nil)
		switch {
		case tt.why == "" && err != nil:
			t.Errorf("%s: %v, want undoable", tt.path, err)
		case tt.why != "" && (err == nil || !strings.Contains(err.Error(), tt.why)):
			t.Errorf("%s: %v, want %q", tt.path, err, tt.why)
		}
	}
	os.MkdirAll(filepath.Join(root, "store"), 0o700)
	if err := Undoable([]string{root}, root, ".", []string{filepath.Join(root, "store")}); err == nil {
		t.Error("a folder holding the store is undoable")
	}
}

func TestUndoableLocation(t *testing.T) {
	root := t.TempDir()
	p := &project{t: t, dir: root}
	p.write(map[string]string{".gitignore": "build/\n", "build/x": "x", "src/a": "a", "sub/.git/HEAD": "h"})
	for path, ok := range map[string]bool{".": true, "src": true, "sub": true, "build": false, "sub/.git": false, "..": false} {
		if err := UndoableLocation([]string{root}, root, path, nil); (err == nil) != ok {
			t.Errorf("%s: %v, want ok %v", path, err, ok)
		}
	}
}
