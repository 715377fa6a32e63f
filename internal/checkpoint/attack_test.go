package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What a turn (a model, or a program it ran) could do to make a restore,
// which runs as the person and outside the sandbox, do harm.

// A link the turn puts where a folder was must not lead the restore,
// which runs as the person and outside the sandbox, out of the root.
func TestRestoreNeverWritesThroughALink(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"src/a.go": "package a\n", "src/b/c.go": "package b\n"})
	cp := p.take("before")
	outside := t.TempDir()
	os.RemoveAll(p.path("src"))
	if err := os.Symlink(outside, p.path("src")); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(outside, "b"), 0o755)
	p.restore(cp, RestoreOptions{})
	if names, _ := filepath.Glob(filepath.Join(outside, "*", "*")); len(names) > 0 {
		t.Errorf("the restore wrote outside the root: %q", names)
	}
	if fi, err := os.Lstat(p.path("src")); err != nil || !fi.IsDir() {
		t.Fatalf("src after the undo: %v, %v", fi, err)
	}
	if data, _ := os.ReadFile(p.path("src/b/c.go")); string(data) != "package b\n" {
		t.Errorf("src/b/c.go after the undo: %q", data)
	}
}

func TestARestoreNeverMakesASetIDProgram(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"tool": "#!/bin/sh\n"})
	chmod(t, p.path("tool"), 0o755|os.ModeSetuid|os.ModeSetgid)
	cp := p.take("before")
	os.Remove(p.path("tool"))
	p.restore(cp, RestoreOptions{})
	if fi, err := os.Stat(p.path("tool")); err != nil || fi.Mode() != 0o755 {
		t.Errorf("tool after the undo: %v %v, want -rwxr-xr-x", fi.Mode(), err)
	}
}

// Root's undo in a person's project (sudo wisp) leaves the person's files
// theirs, as they were.
func TestRootsRestoreKeepsOwners(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root makes files of another owner")
	}
	const uid, gid = 4242, 4243
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n", "dir/b.txt": "b\n", "l@": "a.txt"})
	filepath.Walk(p.dir, func(path string, _ os.FileInfo, _ error) error { return os.Lchown(path, uid, gid) })
	cp := p.take("before")
	os.RemoveAll(p.path("dir"))
	os.Remove(p.path("l"))
	p.write(map[string]string{"a.txt": "changed by root\n"})
	p.restore(cp, RestoreOptions{})
	for _, rel := range []string{"a.txt", "dir", "dir/b.txt", "l"} {
		fi, err := os.Lstat(p.path(rel))
		if err != nil {
			t.Fatal(err)
		}
		if st := fi.Sys().(*syscall.Stat_t); st.Uid != uid || st.Gid != gid {
			t.Errorf("%s after root's undo belongs to %d:%d, want %d:%d", rel, st.Uid, st.Gid, uid, gid)
		}
	}
}

// A link in a root is recorded as a link: the checkpoint never reads
// what it points to, so a link to a secret outside the roots puts no copy
// of the secret in wisp's home.
func TestCheckpointsNeverFollowALinkOut(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret")
	const content = "a secret outside the roots: 5b2f0c1e\n"
	if err := os.WriteFile(secret, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	p := newProject(t, Options{})
	p.write(map[string]string{"leak@": secret, "dir/up@": "../../..", "a.txt": "a\n"})
	cp := p.take("before")
	filepath.WalkDir(p.store.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if data, _ := os.ReadFile(path); strings.Contains(string(data), "5b2f0c1e") {
				t.Errorf("the store holds the secret, in %s", path)
			}
		}
		return nil
	})
	os.Remove(p.path("leak"))
	p.restore(cp, RestoreOptions{})
	if target, err := os.Readlink(p.path("leak")); err != nil || target != secret {
		t.Errorf("leak after the undo: %q, %v; want the link back", target, err)
	}
}

// The store holds copies of the project's files: only its owner may read
// it.
func TestTheStoreIsPrivate(t *testing.T) {
	p := newProject(t, Options{})
	p.write(map[string]string{"a.txt": "a\n"})
	p.take("before")
	filepath.WalkDir(filepath.Join(p.home, "checkpoints"), func(path string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := d.Info()
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v: others may read it", path, fi.Mode())
		}
		return nil
	})
}
