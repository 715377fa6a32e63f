package refusal

import (
	"os"
	"path/filepath"
	"testing"
)

func realTempDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// symlinkTo makes dir (a directory) and link pointing at it.
func symlinkTo(t *testing.T, dir, link string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	return link
}

func TestRealPath(t *testing.T) {
	dir := realTempDir(t)
	symlinkTo(t, dir+"/a/b", dir+"/link")
	for _, c := range []struct{ in, want string }{
		{dir + "/link", dir + "/a/b"},
		{dir + "/link/new/file", dir + "/a/b/new/file"}, // a refused write's file never exists
		{dir + "/link/../c", dir + "/a/c"},              // .. after a symlink is physical, as the kernel's
		{dir + "/a/./b//x/", dir + "/a/b/x"},            // cleaned
		{dir + "/missing/../x", dir + "/x"},             // a missing prefix is cleaned lexically
		{"/", "/"},
	} {
		if got := RealPath(c.in); got != c.want {
			t.Errorf("RealPath(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		p, dir string
		want   bool
	}{
		{"/work/proj", "/work/proj", true},
		{"/work/proj/x", "/work/proj", true},
		{"/work/proj/x", "/work/proj/", true},
		{"/work/project2/x", "/work/proj", false},
		{"/work", "/work/proj", false},
		{"/anything", "/", true},
	} {
		if got := within(c.p, c.dir); got != c.want {
			t.Errorf("within(%q, %q) = %v, want %v", c.p, c.dir, got, c.want)
		}
	}
}
