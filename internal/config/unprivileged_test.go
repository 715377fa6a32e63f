//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// foreignEnv names the folder that the root parent of
// TestAsAnUnprivilegedUser prepares with files of root's, which the
// unprivileged user cannot make for itself.
const foreignEnv = "WISP_TEST_FOREIGN_DIR"

// Root reads every file, so what holds for a person's account is tested as
// one: this test binary re-run as the unprivileged CI user, over the same
// tests, plus the folder of root's files TestForeignOwners needs there.
func TestAsAnUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	foreign := foreignFiles(t, r)
	r.Run(t, "^Test(Healthy|Loose|Linked|HomeThrough|HomeUnder|HomeOf|Foreign)", []string{foreignEnv + "=" + foreign}, "TestForeignOwners")
}

// TestForeignOwners refuses a home, a config.json and a folder above the
// home that belong to another user, with real owners: as root it chowns
// them to the unprivileged user; as that user it reads what root prepared.
// A link in a folder only root can write is followed for a user.
func TestForeignOwners(t *testing.T) {
	if os.Geteuid() == 0 {
		foreignOwnersAsRoot(t)
		return
	}
	dir := os.Getenv(foreignEnv)
	if dir == "" {
		t.Skip("run by TestAsAnUnprivilegedUser, which prepares files of root's")
	}
	me := strconv.Itoa(os.Geteuid())
	home := Home{Dir: filepath.Join(dir, "home-of-root")}
	wantUnsafe(t, "home of root's", home.Check(os.Geteuid()),
		"wisp's home "+home.Dir+" belongs to uid 0, not to you (uid "+me+")", "mv "+home.Dir+" "+home.Dir+".untrusted")
	mine := Home{Dir: filepath.Join(dir, "home-with-roots-config")}
	wantUnsafe(t, "config of root's", mine.Check(os.Geteuid()),
		mine.ConfigFile()+" belongs to uid 0, not to you (uid "+me+")", "sudo chown -R "+me+" "+mine.ConfigFile())
	_, err := Load(mine)
	wantUnsafe(t, "Load of root's config", err, mine.ConfigFile()+" belongs to uid 0", "sudo chown")

	linked, err := ResolveHome(envOf(HomeEnv, filepath.Join(dir, "link-by-root", "home")), noUserHome)
	if err != nil {
		t.Fatal(err)
	}
	if err := linked.Check(os.Geteuid()); err != nil {
		t.Errorf("a home behind a link only root can change: %v", err)
	}
	if want := filepath.Join(dir, "home-with-roots-config", "..", "users-folder", "home"); linked.Dir != filepath.Clean(want) {
		t.Errorf("resolved to %s, want %s", linked.Dir, filepath.Clean(want))
	}
}

func foreignOwnersAsRoot(t *testing.T) {
	uid, gid := testenv.NeedUnprivileged(t)
	other := strconv.Itoa(uid)
	h := freshHome(t)
	os.Chown(h.ConfigFile(), uid, gid)
	wantUnsafe(t, "config of another", h.Check(0), h.ConfigFile()+" belongs to uid "+other+", not to you (uid 0)", "sudo chown -R 0 "+h.ConfigFile())
	_, err := Load(h)
	wantUnsafe(t, "Load of another's config", err, h.ConfigFile()+" belongs to uid "+other, "sudo chown")

	h = freshHome(t)
	os.Chown(h.Dir, uid, gid)
	wantUnsafe(t, "home of another", h.Check(0), "wisp's home "+h.Dir+" belongs to uid "+other+", not to you (uid 0)", "mv "+h.Dir+" "+h.Dir+".untrusted")

	h = freshHome(t)
	parent := filepath.Dir(h.Dir)
	os.Chown(parent, uid, gid)
	wantUnsafe(t, "parent of another", h.Check(0),
		"wisp's home "+h.Dir+" lies in "+parent+", which belongs to uid "+other+": its owner could move the home aside", "set WISP_HOME to a folder of your own")
}

// foreignFiles makes, in the run's folder, the folder of root's files that
// TestForeignOwners reads as the unprivileged user.
func foreignFiles(t *testing.T, r *testenv.Rerun) string {
	foreign := filepath.Join(r.Dir, "foreign") // root's, 0755
	os.Mkdir(foreign, 0o755)
	os.Mkdir(filepath.Join(foreign, "home-of-root"), 0o700)
	cfgHome := filepath.Join(foreign, "home-with-roots-config")
	mkdirOwned(t, cfgHome, r.UID, r.GID)
	mustWrite(t, filepath.Join(cfgHome, "config.json"), "{}", 0o644)
	mkdirOwned(t, filepath.Join(foreign, "users-folder"), r.UID, r.GID)
	mkdirOwned(t, filepath.Join(foreign, "users-folder", "home"), r.UID, r.GID)
	if err := os.Symlink("users-folder", filepath.Join(foreign, "link-by-root")); err != nil {
		t.Fatal(err)
	}
	return foreign
}

func mkdirOwned(t *testing.T, p string, uid, gid int) {
	t.Helper()
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(p, uid, gid); err != nil {
		t.Fatal(err)
	}
}
