package gitguard_test

import (
	"path/filepath"
	"testing"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// TestGitGCPutsNothingBack: git gc writes .git/info/refs itself
// (repack.updateServerInfo), which no local git command reads: the
// put-back leaves it, and says nothing, as it does for exclude and
// sparse-checkout. What git acts on there, attributes (drivers, programs)
// and grafts (the history it shows), is still taken out.
func TestGitGCPutsNothingBack(t *testing.T) {
	f := newGitFixture(t)
	snap := mustSnapshot(t, f.spec())
	f.git(f.proj, "-c", "repack.updateServerInfo=true", "gc", "-q")
	if !paths.Exists(filepath.Join(f.proj, ".git/info/refs")) {
		t.Fatal("control: git gc wrote no .git/info/refs, so the case proves nothing")
	}
	writeFile(t, filepath.Join(f.proj, ".git/info/exclude"), "*.log\n", 0o644)
	if done := snap.PutBack(); len(done) != 0 {
		t.Errorf("after git gc the put-back did %v; want nothing (no note)", done)
	}
	if !paths.Exists(filepath.Join(f.proj, ".git/info/refs")) {
		t.Error("the put-back removed .git/info/refs, which git wrote itself")
	}

	snap = mustSnapshot(t, f.spec())
	writeFile(t, filepath.Join(f.proj, ".git/info/attributes"), "* filter=run\n", 0o644)
	writeFile(t, filepath.Join(f.proj, ".git/info/grafts"), "0000000000000000000000000000000000000000\n", 0o644)
	done := snap.PutBack()
	for _, name := range []string{"attributes", "grafts"} {
		if paths.Exists(filepath.Join(f.proj, ".git/info", name)) {
			t.Errorf(".git/info/%s was left; the put-back did %v", name, done)
		}
	}
	if len(done) != 2 {
		t.Errorf("put-back did %v, want the two files named", done)
	}
}
