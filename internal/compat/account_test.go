package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLinkable(t *testing.T) {
	for rel, want := range map[string]bool{
		"go/pkg/mod/github.com/google/uuid@v1.6.0/uuid.go": true,
		"go/pkg/mod/cache/download/x/@v/v1.0.0.zip":        true,
		".cache/go-build/ab/abcdef-d":                      true,
		".cache/go-build/trim.txt":                         false, // rewritten in place
		".cache/go-build/README":                           false,
		".npm/_cacache/index-v5/aa/bb":                     false, // npm appends to these
		"go/bin/tool":                                      false,
		".gitconfig":                                       false,
	} {
		if got := linkable(rel); got != want {
			t.Errorf("linkable(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestCopyTree copies a home as a run gets it: the module cache shared by
// hard links, the rest copied, read-only folders filled and then made
// read-only again, links kept as links.
func TestCopyTree(t *testing.T) {
	src := filepath.Join(t.TempDir(), "home")
	mod := filepath.Join(src, "go", "pkg", "mod", "m@v1")
	must(t, os.MkdirAll(mod, 0o755))
	must(t, os.WriteFile(filepath.Join(mod, "m.go"), []byte("package m\n"), 0o444))
	must(t, os.Chmod(mod, 0o555))
	must(t, os.MkdirAll(filepath.Join(src, ".npm"), 0o755))
	must(t, os.WriteFile(filepath.Join(src, ".npm", "index"), []byte("entry\n"), 0o600))
	must(t, os.Symlink("../.npm/index", filepath.Join(src, "go", "link")))
	t.Cleanup(func() { os.Chmod(mod, 0o755) })

	dst := filepath.Join(t.TempDir(), "copy")
	must(t, copyTree(src, dst, linkable))
	t.Cleanup(func() { removeTree(dst) })

	if !sameFile(t, filepath.Join(mod, "m.go"), filepath.Join(dst, "go", "pkg", "mod", "m@v1", "m.go")) {
		t.Error("the module cache's file was copied, not linked")
	}
	if sameFile(t, filepath.Join(src, ".npm", "index"), filepath.Join(dst, ".npm", "index")) {
		t.Error("npm's index was linked: a run appending to it would change the account it came from")
	}
	if data, _ := os.ReadFile(filepath.Join(dst, ".npm", "index")); string(data) != "entry\n" {
		t.Errorf("npm's index copied as %q", data)
	}
	if info, err := os.Stat(filepath.Join(dst, ".npm", "index")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("npm's index: %v, %v: want mode 0600", info, err)
	}
	if info, err := os.Stat(filepath.Join(dst, "go", "pkg", "mod", "m@v1")); err != nil || info.Mode().Perm() != 0o555 {
		t.Errorf("module folder: %v, %v: want mode 0555 as in the source", info, err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "go", "link")); err != nil || target != "../.npm/index" {
		t.Errorf("link: %q, %v", target, err)
	}
}

// TestCopyTreeIntoAnEmptyFolder: the fetch cache makes a project's folder
// before its source is copied in.
func TestCopyTreeIntoAnEmptyFolder(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	must(t, os.WriteFile(filepath.Join(src, "f"), []byte("x"), 0o644))
	must(t, copyTree(src, dst, nil))
	if _, err := os.Stat(filepath.Join(dst, "f")); err != nil {
		t.Error(err)
	}
}

func TestUserWritableAndRemoveTree(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "module")
	must(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "sub", "f.go"), nil, 0o444))
	must(t, os.Chmod(filepath.Join(dir, "sub"), 0o555))
	must(t, userWritable(dir))
	for _, p := range []string{filepath.Join(dir, "sub"), filepath.Join(dir, "sub", "f.go")} {
		if info, err := os.Stat(p); err != nil || info.Mode().Perm()&0o200 == 0 {
			t.Errorf("%s: %v, %v: want it writable by its owner", p, info, err)
		}
	}
	must(t, os.Chmod(filepath.Join(dir, "sub"), 0o555))
	must(t, removeTree(dir))
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("after removeTree: %v", err)
	}
}

// TestWhoRunsAsRoot: as root the suite needs the test user's ids, and
// refuses to run the projects as root.
func TestWhoRunsAsRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		p, err := whoRuns(func(string) string { return "" })
		if err != nil || p.Switch || p.UID != os.Getuid() {
			t.Errorf("not root: whoRuns = %+v, %v; want this user, no switch", p, err)
		}
		return
	}
	for value, want := range map[string]string{
		"":    "set WISP_TEST_USER_UID",
		"0":   "not root",
		"abc": "not root",
	} {
		_, err := whoRuns(func(name string) string {
			if name == "WISP_TEST_USER_UID" {
				return value
			}
			return ""
		})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("WISP_TEST_USER_UID=%q: %v, want an error saying %q", value, err, want)
		}
	}
}

func sameFile(t *testing.T, a, b string) bool {
	t.Helper()
	ia, err := os.Stat(a)
	must(t, err)
	ib, err := os.Stat(b)
	must(t, err)
	return os.SameFile(ia, ib)
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
