package checkpoint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// objects counts the store's objects.
func objects(t *testing.T, s *Store) int {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(s.dir, "objects", "*", "*"))
	if err != nil {
		t.Fatal(err)
	}
	return len(names)
}

func TestIncrementalCheckpointsReadOnlyWhatChanged(t *testing.T) {
	p := newProject(t, Options{Now: later})
	files := map[string]string{}
	for i := range 50 {
		files[fmt.Sprintf("pkg%d/file%d.go", i%5, i)] = fmt.Sprintf("package p\n// %d\n", i)
	}
	p.write(files)
	p.take("first")
	read, objs := p.store.filesRead.Load(), objects(t, p.store)
	if read != 50 {
		t.Errorf("the first checkpoint read %d files, want 50", read)
	}

	p.take("nothing changed")
	if n := p.store.filesRead.Load() - read; n != 0 {
		t.Errorf("a checkpoint of an unchanged project read %d files, want none", n)
	}
	if n := objects(t, p.store); n != objs {
		t.Errorf("a checkpoint of an unchanged project stored %d objects", n-objs)
	}

	p.write(map[string]string{"pkg1/file1.go": "changed\n", "pkg2/file2.go": "changed too\n"})
	read = p.store.filesRead.Load()
	p.take("two changed")
	if n := p.store.filesRead.Load() - read; n != 2 {
		t.Errorf("a checkpoint after two files changed read %d files, want 2", n)
	}
	// Two new contents, their folders' two trees and the root's.
	if n := objects(t, p.store) - objs; n != 5 {
		t.Errorf("a checkpoint after two files changed stored %d objects, want 5", n)
	}

	// Another process (a second wisp in the same project) finds the index.
	p.open(Options{Now: later})
	read = p.store.filesRead.Load()
	p.take("from another process")
	if n := p.store.filesRead.Load() - read; n != 0 {
		t.Errorf("a second process read %d files of an unchanged project", n)
	}
}

func TestARacilyCleanFileIsReadAgain(t *testing.T) {
	now := time.Now()
	p := newProject(t, Options{Now: func() time.Time { return now }})
	p.write(map[string]string{"a.txt": "a\n"})
	p.take("first") // a.txt was written within racyWindow of its reading
	read := p.store.filesRead.Load()
	p.take("again")
	if p.store.filesRead.Load() == read {
		t.Error("a file changed within the racy window was trusted by its stat")
	}
	now = now.Add(racyWindow + time.Second)
	p.take("later")
	read = p.store.filesRead.Load()
	p.take("again, later")
	if n := p.store.filesRead.Load() - read; n != 0 {
		t.Errorf("a file read well after it changed was read %d more times", n)
	}
}

func TestADamagedIndexOnlyCostsReads(t *testing.T) {
	p := newProject(t, Options{Now: later})
	p.write(map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	cp := p.take("first")
	if err := os.WriteFile(p.store.idx.path, []byte("wisp index 1\ngarbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.open(Options{Now: later})
	cp2 := p.take("with a damaged index")
	if cp2.Roots[0].Tree != cp.Roots[0].Tree {
		t.Error("the same project gave another tree once the index was damaged")
	}
}

func TestPruneKeepsTheNewestAndWhatTheyUse(t *testing.T) {
	clock := time.Now().Add(time.Hour)
	p := newProject(t, Options{Keep: 3, MaxAge: 24 * time.Hour, Now: func() time.Time { return clock }})
	var cps []*Checkpoint
	for i := range 6 {
		p.write(map[string]string{"a.txt": fmt.Sprintf("version %d\n", i), "same.txt": "unchanged\n"})
		cps = append(cps, p.take(fmt.Sprintf("turn %d", i)))
		clock = clock.Add(time.Minute)
	}
	res, err := p.store.Prune()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(res.Checkpoints) != "[1 2 3]" || res.Objects != 6 {
		t.Errorf("Prune removed checkpoints %v and %d objects; want [1 2 3], and each one's a.txt and root tree", res.Checkpoints, res.Objects)
	}
	for _, cp := range cps[3:] {
		p.restore(cp, RestoreOptions{})
		if data, _ := os.ReadFile(p.path("same.txt")); string(data) != "unchanged\n" {
			t.Errorf("after a restore to %d, same.txt holds %q", cp.ID, data)
		}
	}
	list, _ := p.store.List()
	clock = clock.Add(48 * time.Hour)
	res, err = p.store.Prune()
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Checkpoints) != len(list)-1 { // all too old but the newest
		t.Errorf("Prune of old checkpoints removed %v of %d, want all but the newest", res.Checkpoints, len(list))
	}
	// The index forgot what the store lost: a checkpoint taken now
	// stores every content it needs.
	p.write(map[string]string{"a.txt": "version 1\n"})
	cp := p.take("after the prune")
	if _, err := p.store.Restore(cp, RestoreOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := p.store.missingObjects(cp); err != nil {
		t.Error(err)
	}
}

// missingObjects reports an object cp uses that the store lacks.
func (s *Store) missingObjects(cp *Checkpoint) error {
	live, err := s.mark([]*Checkpoint{cp})
	if err != nil {
		return err
	}
	for h := range live {
		if !s.hasObject(h) {
			return fmt.Errorf("checkpoint %d uses object %s, which the store lacks", cp.ID, h)
		}
	}
	return nil
}

func TestRestoreFromADamagedStoreChangesNothing(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	cp := p.take("before")
	p.write(map[string]string{"a.txt": "changed\n", "b.txt": "changed too\n"})
	h, _ := cp.rootTree(p.dir)
	e, _ := p.store.lookupPath(*h, "b.txt")
	if err := os.WriteFile(p.store.objectPath(e.hash), []byte("B\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.refusedRestore(cp, "nothing was restored", e.hash.String(), "does not match")
}

func TestProjectKeysAreReadableAndDistinct(t *testing.T) {
	a, b := ProjectKey("/home/me/src/wisp"), ProjectKey("/home/me/work/wisp")
	if !strings.HasPrefix(a, "wisp-") || a == b {
		t.Errorf("ProjectKey = %q and %q", a, b)
	}
	if k := ProjectKey("/a/b\nc"); strings.ContainsAny(k, "/\n") {
		t.Errorf("ProjectKey of a name with a newline = %q", k)
	}
}

func TestRootsAreCanonicalAndNestedOnesFolded(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"p/granted", "other"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.Symlink(filepath.Join(base, "p"), filepath.Join(base, "link"))
	got, err := canonRoots([]string{filepath.Join(base, "link"), filepath.Join(base, "p/granted"), filepath.Join(base, "other"), filepath.Join(base, "p")})
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(base)
	if want := []string{real + "/other", real + "/p"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("canonRoots = %q, want %q", got, want)
	}
	if _, err := canonRoots([]string{filepath.Join(base, "missing")}); err == nil {
		t.Error("a missing root was taken")
	}
}
