package landlock

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// secretOnAQuietWay makes a secret, DIR/home/.ssh, on a way no other test
// changes, and returns DIR (its real path) and the secret. The digest lists
// every folder on the way from / to the secret. In t.TempDir's folder
// (GOTMPDIR), where the other packages' tests make and remove folders
// while this one runs, two listings a moment apart can differ; /var/tmp
// is on a quiet way.
func secretOnAQuietWay(t testing.TB) (dir, secret string) {
	t.Helper()
	base, err := os.MkdirTemp("/var/tmp", "wisp-readview-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if dir, err = filepath.EvalSymlinks(base); err != nil {
		t.Fatal(err)
	}
	secret = filepath.Join(dir, "home", ".ssh")
	if err := os.MkdirAll(secret, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir, secret
}

// TestReadViewSeesEveryChange: the digest a served helper is compared by
// changes with each entry made, made again at once, or removed beside a
// secret, though wisp keeps the last one while the folders stay as they
// were: a helper that missed one would keep a view without it.
func TestReadViewSeesEveryChange(t *testing.T) {
	dir, secret := secretOnAQuietWay(t)
	deny := []string{secret}
	seen := map[string]string{}
	step := func(name string) {
		t.Helper()
		v := readView(deny)
		if again := readView(deny); again != v {
			t.Fatalf("%s: two digests of the same folders differ: %s %s", name, v, again)
		}
		if before, dup := seen[v]; dup {
			t.Fatalf("%s: the digest is the one of %q", name, before)
		}
		seen[v] = name
	}
	step("at first")
	for _, change := range []struct {
		name string
		do   func() error
	}{
		{"a file beside the secret", func() error { return os.WriteFile(filepath.Join(dir, "home", "notes"), nil, 0o600) }},
		{"another at once", func() error { return os.WriteFile(filepath.Join(dir, "home", "todo"), nil, 0o600) }},
		{"a folder beside the secret", func() error { return os.Mkdir(filepath.Join(dir, "home", "src"), 0o700) }},
		{"one removed", func() error { return os.Remove(filepath.Join(dir, "home", "notes")) }},
		{"one renamed", func() error { return os.Rename(filepath.Join(dir, "home", "todo"), filepath.Join(dir, "home", "done")) }},
	} {
		if err := change.do(); err != nil {
			t.Fatal(err)
		}
		step(change.name)
	}
}

// TestReadViewKeptOnlyWhenSettled: the last digest is kept only when every
// folder it listed had last changed well before the listing (a change in
// the same tick of the file system's clock would keep its times), and only
// while each is the same folder with the same times.
func TestReadViewKeptOnlyWhenSettled(t *testing.T) {
	dir := t.TempDir()
	listed := time.Now()
	old := dirStamp{path: dir, ino: 1, mtime: listed.Add(-time.Second).UnixNano(), ctime: listed.Add(-time.Second).UnixNano(), ok: true}
	recent := old
	recent.ctime = listed.Add(-time.Millisecond).UnixNano()
	for _, tc := range []struct {
		name   string
		stamps []dirStamp
		want   bool
	}{
		{"changed a second before", []dirStamp{old}, true},
		{"changed just before", []dirStamp{old, recent}, false},
		{"not stamped", []dirStamp{old, {path: "/missing"}}, false},
	} {
		if got := settledBefore(tc.stamps, listed); got != tc.want {
			t.Errorf("%s: settled = %v, want %v", tc.name, got, tc.want)
		}
	}
	v := viewCache{stamps: []dirStamp{stampOf(dir)}}
	if !v.unchanged() {
		t.Fatal("a folder just stamped counts as changed")
	}
	other := t.TempDir()
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, dir); err != nil {
		t.Fatal(err)
	}
	if v.unchanged() {
		t.Error("another folder put in the place of a stamped one counts as the same")
	}
}
