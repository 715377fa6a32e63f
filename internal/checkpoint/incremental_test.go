package checkpoint

import (
	"os"
	"testing"
)

// A store that watches takes from its last checkpoint the folders that did
// not change, and walks the rest: after every kind of change a person or a
// command makes (an edit that keeps size and mtime, a new folder, a
// rename, a chmod, a .gitignore that lets a folder in, a folder become a
// link, a file written through a hard link in another folder, rm -r), its
// checkpoint records exactly what a full walk by a store
// that does not watch records, and reads only the folders that changed.
func TestWatchedCheckpointsRecordWhatAFullWalkRecords(t *testing.T) {
	p := newProject(t, Options{Watch: true})
	if p.store.watch == nil {
		t.Skip("no folder watcher on this system: every checkpoint walks all")
	}
	p.write(map[string]string{
		"a/b/c/one.txt": "one\n", "a/b/two.txt": "two\n", "a/keep.txt": "keep\n",
		"d/e/three.txt": "three\n", "d/link@": "../a/keep.txt", "empty/": "",
		".gitignore": "out/\n", "out/big.bin": "ignored\n",
		"x/y/z/deep.txt": "deep\n", "x/y/w/other.txt": "other\n",
	})
	p.take("first, walked whole")
	fullHome := t.TempDir()
	full, err := Open(Dir(fullHome, p.dir), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()

	steps := []struct {
		name   string
		change func()
		// most is the folders the watched walk may list: the changed
		// ones and those above them, not the whole tree (12 folders).
		most int
	}{
		{"nothing", func() {}, 1},
		{"an edit that keeps size and mtime", func() {
			path := p.path("x/y/z/deep.txt")
			st, _ := os.Stat(path)
			os.WriteFile(path, []byte("DEEP\n"), 0o644)
			os.Chtimes(path, st.ModTime(), st.ModTime())
		}, 4},
		{"a new file deep down", func() { p.write(map[string]string{"a/b/c/new.txt": "new\n"}) }, 4},
		{"a new folder with files", func() { p.write(map[string]string{"d/new/sub/f.txt": "f\n"}) }, 5},
		{"a folder renamed", func() { must(t, os.Rename(p.path("a/b"), p.path("d/b2"))) }, 6},
		{"an edit in the renamed folder", func() { p.write(map[string]string{"d/b2/c/one.txt": "ONE\n"}) }, 4},
		{"a chmod", func() { must(t, os.Chmod(p.path("d/e/three.txt"), 0o600)) }, 3},
		{"a folder's own mode", func() { must(t, os.Chmod(p.path("x/y/w"), 0o700)) }, 4},
		{".gitignore lets a folder in", func() { p.write(map[string]string{".gitignore": "# nothing\n"}) }, 20},
		{"a folder becomes a link", func() {
			must(t, os.RemoveAll(p.path("x/y/w")))
			must(t, os.Symlink("z", p.path("x/y/w")))
		}, 3},
		{"a hard link made", func() { must(t, os.Link(p.path("x/y/z/deep.txt"), p.path("a/twin.txt"))) }, 2},
		// A new link's other name may be in a folder the last walk took
		// unread: this walk walks all, and from then on the folders of
		// both names are walked every time.
		{"written through its other name", func() {
			f, err := os.OpenFile(p.path("a/twin.txt"), os.O_WRONLY|os.O_TRUNC, 0)
			must(t, err)
			f.WriteString("changed through a\n")
			must(t, f.Close())
		}, 13},
		{"rm -r", func() { must(t, os.RemoveAll(p.path("d"))) }, 5},
		{"a file becomes a folder", func() {
			must(t, os.Remove(p.path("a/keep.txt")))
			p.write(map[string]string{"a/keep.txt/inside.txt": "in\n"})
		}, 6},
	}
	for _, step := range steps {
		step.change()
		before := p.store.dirsRead.Load()
		watched := p.take(step.name)
		listed := p.store.dirsRead.Load() - before
		walked, err := full.Take([]string{p.dir}, step.name)
		if err != nil {
			t.Fatal(err)
		}
		w, f := watched.Roots[0], walked.Roots[0]
		if w.Tree != f.Tree || w.Files != f.Files || w.Bytes != f.Bytes {
			t.Fatalf("after %s the watched checkpoint recorded %+v, a full walk %+v", step.name, w, f)
		}
		if listed > int64(step.most) {
			t.Errorf("after %s the watched checkpoint listed %d folders, want at most %d", step.name, listed, step.most)
		}
	}
}

// Changes made while a checkpoint walks are seen by the next one: the
// walk watches a folder before it lists it.
func TestWatchedCheckpointsSeeWhatChangedBeforeThem(t *testing.T) {
	p := newProject(t, Options{Watch: true})
	if p.store.watch == nil {
		t.Skip("no folder watcher on this system")
	}
	p.write(map[string]string{"a/f.txt": "1\n"})
	p.take("first")
	for i := range 20 {
		content := []byte{byte('a' + i), '\n'}
		must(t, os.WriteFile(p.path("a/f.txt"), content, 0o644))
		cp := p.take("after a write")
		data, err := p.store.readObject(mustHash(t, p.store, cp, "a/f.txt"))
		if err != nil || string(data) != string(content) {
			t.Fatalf("write %d: the checkpoint recorded %q (%v), want %q", i, data, err, content)
		}
	}
}

func mustHash(t *testing.T, s *Store, cp *Checkpoint, rel string) hash {
	t.Helper()
	h, err := cp.rootTree(cp.Roots[0].Path)
	if err != nil || h == nil {
		t.Fatal(err)
	}
	e, err := s.lookupPath(*h, rel)
	if err != nil || e == nil {
		t.Fatalf("%s is not in checkpoint %d: %v", rel, cp.ID, err)
	}
	return e.hash
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
