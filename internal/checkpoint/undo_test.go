package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// binaryContent has every byte value, NUL and invalid UTF-8 included.
func binaryContent(seed byte) string {
	b := make([]byte, 4096)
	for i := range b {
		b[i] = byte(i) ^ seed
	}
	return string(b)
}

// aRepository is a project as a person has it: a git repository with a
// commit, a stash, text and binary files, an executable script, links
// (one dangling), empty folders, odd names, and an ignored log.
func aRepository(t *testing.T, p *project) {
	needGit(t)
	p.write(map[string]string{
		"README.md":           "# project\n\nhello\n",
		"src/main.go":         "package main\n\nfunc main() {}\n",
		"src/util/util.go":    "package util\n",
		"src/util/deep/x.txt": "x\n",
		"docs/guide.md":       "guide\nline 2\n",
		"docs/img/logo.bin":   binaryContent(0),
		"scripts/run.sh":      "#!/bin/sh\necho run\n",
		"link@":               "src/main.go",
		"dangling@":           "../nowhere",
		"empty/":              "",
		"nested/empty/":       "",
		".gitignore":          "*.log\n",
		"weird\nname.txt":     "a newline in the name\n",
		"caf\xe9.txt":         "a name that is not UTF-8\n",
		"keep.log":            "ignored, from before\n",
	})
	chmod(t, p.path("scripts/run.sh"), 0o755)
	chmod(t, p.path("docs/guide.md"), 0o600)
	git(t, p.dir, "init", "-q", "-b", "main")
	git(t, p.dir, "add", "-A")
	git(t, p.dir, "commit", "-q", "-m", "first")
	os.WriteFile(p.path("README.md"), []byte("stashed edit\n"), 0o644)
	git(t, p.dir, "stash", "-q")
}

// aTurn is what a model's turn might do: edit, create, delete, `rm -r` a
// folder, chmod, relink, change a binary file, remove and add folders.
func aTurn(t *testing.T, p *project) {
	p.write(map[string]string{
		"README.md":         "# project\n\nhello\nmore\n",
		"src/new.go":        "package main\n\n// new\n",
		"docs/img/logo.bin": binaryContent(7),
		"link@":             "README.md",
		"newdir/":           "",
		"build.log":         "ignored, from the turn\n",
		"caf\xe9.txt":       "changed\n",
	})
	for _, rel := range []string{"docs/guide.md", "empty", "weird\nname.txt"} {
		if err := os.Remove(p.path(rel)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.RemoveAll(p.path("src/util")); err != nil { // rm -r
		t.Fatal(err)
	}
	chmod(t, p.path("scripts/run.sh"), 0o644)
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func TestUndoATurnExactlyAndRedoIt(t *testing.T) {
	p := newProject(t, Options{})
	aRepository(t, p)
	before, gitBefore := snapshot(t, p.dir), gitState(t, p.dir)
	cp0 := p.take("before turn 1")

	aTurn(t, p)
	after := snapshot(t, p.dir)
	cp1 := p.take("after turn 1")

	changes, err := p.store.Diff(cp0)
	if err != nil {
		t.Fatal(err)
	}
	sameTree(t, "Diff", map[string]string{
		"README.md":           "modified file",
		"src/new.go":          "added file",
		"docs/guide.md":       "removed file",
		"docs/img/logo.bin":   "modified file",
		"link":                "modified symlink",
		"newdir":              "added folder",
		"empty":               "removed folder",
		"weird\nname.txt":     "removed file",
		"caf\xe9.txt":         "modified file",
		"src/util":            "removed folder",
		"src/util/util.go":    "removed file",
		"src/util/deep":       "removed folder",
		"src/util/deep/x.txt": "removed file",
		"scripts/run.sh":      "modified file mode",
	}, changeSet(changes))
	lines := map[string]*LineCount{}
	for _, c := range changes {
		lines[c.Path] = c.Lines
		if c.Path == "docs/img/logo.bin" && !c.Binary {
			t.Error("logo.bin is not said to be binary")
		}
	}
	if l := lines["README.md"]; l == nil || *l != (LineCount{Added: 1}) {
		t.Errorf("README.md's lines: %+v, want 1 added", l)
	}
	if l := lines["docs/guide.md"]; l == nil || *l != (LineCount{Removed: 2}) {
		t.Errorf("guide.md's lines: %+v, want 2 removed", l)
	}

	res := p.restore(cp0, RestoreOptions{After: cp1})
	before["build.log"] = after["build.log"] // ignored: not recorded, so never removed
	sameTree(t, "the project after the undo", before, snapshot(t, p.dir))
	sameTree(t, "git's view after the undo", gitBefore, gitState(t, p.dir))
	if len(res.Changes) != len(changes) || res.Redo == nil || res.Redo.Before != cp0.ID {
		t.Errorf("Restored = %d changes, redo %+v; want %d changes and a redo of checkpoint %d", len(res.Changes), res.Redo, len(changes), cp0.ID)
	}

	p.restore(res.Redo, RestoreOptions{})
	sameTree(t, "the project after the redo", after, snapshot(t, p.dir))
}

func TestAPersonsEditSinceTheTurnIsAConflict(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"})
	cp0 := p.take("before")
	p.write(map[string]string{"a.txt": "a by the model\n", "b.txt": "b by the model\n"})
	cp1 := p.take("after")
	// The person, since: edits a file the turn changed, and makes one.
	p.write(map[string]string{"a.txt": "a by hand\n", "mine.txt": "mine\n"})

	conflicts, err := p.store.Conflicts(cp1, cp0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a.txt": "modified file", "mine.txt": "added file"}
	sameTree(t, "Conflicts", want, changeSet(conflicts))

	beforeTry := snapshot(t, p.dir)
	_, err = p.store.Restore(cp0, RestoreOptions{After: cp1})
	var ce *ConflictError
	if !errors.As(err, &ce) {
		t.Fatalf("Restore over a person's edits = %v, want a ConflictError", err)
	}
	sameTree(t, "Conflicts in the error", want, changeSet(ce.Conflicts))
	sameTree(t, "the project after a refused restore", beforeTry, snapshot(t, p.dir))

	res := p.restore(cp0, RestoreOptions{After: cp1, Keep: []string{p.path("a.txt"), p.path("mine.txt")}})
	got := snapshot(t, p.dir)
	sameTree(t, "the project, the person's files kept", map[string]string{
		".": got["."], "a.txt": beforeTry["a.txt"], "mine.txt": beforeTry["mine.txt"],
		"b.txt": snapshotOf(t, map[string]string{"b.txt": "b\n"})["b.txt"], "c.txt": beforeTry["c.txt"],
	}, got)
	if !slices.Contains(res.Kept, p.path("a.txt")) || !slices.Contains(res.Kept, p.path("mine.txt")) {
		t.Errorf("Kept = %q, want a.txt and mine.txt", res.Kept)
	}

	p.restore(cp0, RestoreOptions{After: cp1, Overwrite: true})
	if _, err := os.Stat(p.path("mine.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("after an overwriting restore, mine.txt: %v, want it gone", err)
	}
}

// snapshotOf is the snapshot entry of files written fresh, 0644.
func snapshotOf(t *testing.T, files map[string]string) map[string]string {
	q := &project{t: t, dir: t.TempDir()}
	q.write(files)
	return snapshot(t, q.dir)
}

func TestIgnoredFilesAreNeitherRecordedNorTouched(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{
		".gitignore":       "build/\n*.o\n",
		"main.c":           "int main(){}\n",
		"build/out.bin":    binaryContent(1),
		"lib/.gitignore":   "gen/\n",
		"lib/gen/x.c":      "generated\n",
		"lib/lib.c":        "lib\n",
		"secrets.o":        "object\n",
		"keep/.gitignore":  "*\n",
		"keep/ignored.txt": "ignored by its own folder's rules\n",
	})
	cp0 := p.take("before")
	if cp0.Roots[0].Files != 5 { // .gitignore, main.c, lib/.gitignore, lib/lib.c, keep/.gitignore
		t.Errorf("recorded %d files, want 5", cp0.Roots[0].Files)
	}
	// The turn: deletes the ignored build output, makes more of it in a
	// new folder, stops ignoring *.o, and ignores a file it creates.
	os.RemoveAll(p.path("build"))
	p.write(map[string]string{
		"newpkg/x.o":  "new object\n",
		".gitignore":  "build/\nnew.tmp\n",
		"new.tmp":     "made by the turn, then ignored\n",
		"lib/lib.c":   "lib changed\n",
		"lib/gen/y.c": "generated too\n",
	})
	turn := snapshot(t, p.dir)

	res := p.restore(cp0, RestoreOptions{})
	got := snapshot(t, p.dir)
	for rel, want := range map[string]string{
		"secrets.o":        turn["secrets.o"], // ignored then: untouched, though *.o is not ignored now
		"lib/gen/y.c":      turn["lib/gen/y.c"],
		"newpkg/x.o":       turn["newpkg/x.o"], // ignored by the checkpoint's rules: kept
		"keep/ignored.txt": turn["keep/ignored.txt"],
		"new.tmp":          "", // not ignored then: the undo removes it
		"build/out.bin":    "", // never recorded: cannot come back
	} {
		if got[rel] != want {
			t.Errorf("%s after the undo: %q, want %q", rel, got[rel], orNone(want))
		}
	}
	if data, _ := os.ReadFile(p.path("lib/lib.c")); string(data) != "lib\n" {
		t.Errorf("lib/lib.c after the undo holds %q", data)
	}
	if !slices.Contains(res.Kept, p.path("newpkg")) {
		t.Errorf("Kept = %q, want newpkg (it holds an ignored file)", res.Kept)
	}

	p.restore(res.Redo, RestoreOptions{})
	sameTree(t, "the project after the redo", turn, snapshot(t, p.dir))
}

func TestRootsGitFolderIsNeverRecorded(t *testing.T) {
	needGit(t)
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n"})
	git(t, p.dir, "init", "-q")
	cp := p.take("before")
	h, _ := cp.rootTree(p.dir)
	if e, _ := p.store.lookupPath(*h, ".git"); e != nil {
		t.Fatal("the checkpoint recorded .git")
	}
	// A repository the turn makes inside the project: its folder stays,
	// with its .git, though the rest of what the turn made goes.
	git(t, p.dir, "init", "-q", "sub")
	p.write(map[string]string{"sub/file.txt": "x\n", "sub/.GIT/config": "case-folded\n"})
	res := p.restore(cp, RestoreOptions{})
	if _, err := os.Stat(p.path("sub/.git/HEAD")); err != nil {
		t.Errorf("sub/.git after the undo: %v", err)
	}
	if _, err := os.Stat(p.path("sub/file.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sub/file.txt after the undo: %v, want it removed", err)
	}
	if !slices.Contains(res.Kept, p.path("sub")) {
		t.Errorf("Kept = %q, want sub", res.Kept)
	}
}

func TestSpecialFilesAreListedAndLeftBe(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n"})
	if err := mkfifo(p.path("pipe")); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	cp := p.take("before")
	if !slices.Equal(cp.Special, []string{p.path("pipe")}) {
		t.Errorf("Special = %q, want the pipe", cp.Special)
	}
	os.Remove(p.path("a.txt"))
	p.restore(cp, RestoreOptions{})
	if fi, err := os.Lstat(p.path("pipe")); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe after the undo: %v %v", fi, err)
	}
	if _, err := os.Stat(p.path("a.txt")); err != nil {
		t.Error(err)
	}
}

func TestCheckpointsSkipWispsHome(t *testing.T) {
	p := newProject(t, Options{})
	// wisp's home inside the launch folder, as DESIGN.md allows.
	home := p.path("home")
	p.write(map[string]string{"home/config.json": "{}\n", "a.txt": "a\n"})
	p.open(Options{Skip: []string{home}})
	p.store.Close()
	s, err := Open(Dir(home, p.dir), Options{Skip: []string{home}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cp, err := s.Take([]string{p.dir}, "before")
	if err != nil {
		t.Fatal(err)
	}
	if cp.Roots[0].Files != 1 {
		t.Errorf("recorded %d files, want only a.txt", cp.Roots[0].Files)
	}
	os.WriteFile(p.path("home/config.json"), []byte("changed\n"), 0o600)
	if changes, err := s.Diff(cp); err != nil || len(changes) != 0 {
		t.Errorf("Diff = %v, %v; want no change (the home is not recorded)", changeSet(changes), err)
	}
}

func TestRootsOverTheCapAreRefused(t *testing.T) {
	p := newProject(t, Options{MaxRootBytes: 1000})
	p.write(map[string]string{"small.txt": "a\n", "big/one.bin": strings.Repeat("x", 600), "big/two.bin": strings.Repeat("y", 600)})
	_, err := p.store.Take([]string{p.dir}, "before")
	var ce *CapError
	if !errors.As(err, &ce) || ce.Root != p.dir || ce.Size != 1202 {
		t.Fatalf("Take over the cap = %v, want a CapError for %s of 1202 bytes", err, p.dir)
	}
	for _, want := range []string{p.dir, "1.2 kB", "1.0 kB", ".gitignore"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if list, _ := p.store.List(); len(list) != 0 {
		t.Errorf("a checkpoint was recorded: %v", list)
	}
	p.write(map[string]string{".gitignore": "big/\n"})
	p.take("with big/ ignored")
}

// A root with far more entries than a project holds (a home folder, a
// disk) is refused when the walk passes the cap, not walked to its end:
// what a walk reads stays bounded by the cap.
func TestRootsWithTooManyEntriesAreRefusedWithoutWalkingThemAll(t *testing.T) {
	p := newProject(t, Options{MaxRootEntries: 40})
	files := map[string]string{}
	for i := range 400 {
		files[fmt.Sprintf("d%d/f%d.txt", i%10, i)] = "x\n"
	}
	p.write(files)
	_, err := p.store.Take([]string{p.dir}, "before")
	var ce *CapError
	if !errors.As(err, &ce) || ce.Root != p.dir || ce.Entries != 40 {
		t.Fatalf("Take of 410 entries over a cap of 40 = %v, want a CapError at 40 entries", err)
	}
	for _, want := range []string{p.dir, "more than 40 files and folders", "start wisp in the project's own folder", ".gitignore"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error %q does not say %q", err, want)
		}
	}
	if read := p.store.filesRead.Load(); read > 40 {
		t.Errorf("the walk read %d files past a cap of 40 entries", read)
	}
	if list, _ := p.store.List(); len(list) != 0 {
		t.Errorf("a checkpoint was recorded: %v", list)
	}
}
