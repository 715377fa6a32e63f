package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// These tests run as whoever runs them; TestAsAnUnprivilegedUser runs them
// again as the unprivileged CI user, since root changes what modes and
// owners mean.

// freshHome is a home as wisp makes it, with a config and approvals.
func freshHome(t *testing.T) Home {
	t.Helper()
	h, err := ResolveHome(envOf(HomeEnv, filepath.Join(t.TempDir(), "wisp")), noUserHome)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Ensure("pending"); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, h.ConfigFile(), `{"approval": {"threshold": "high"}}`, 0o600)
	mustWrite(t, h.ApprovalsFile(), `{"version": 1}`, 0o644)
	return h
}

func envOf(k, v string) func(string) string {
	return func(key string) string {
		if key == k {
			return v
		}
		return ""
	}
}

func noUserHome() (string, error) { return "", errors.New("no home in tests") }

func mustWrite(t *testing.T, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// wantUnsafe checks err is the refusal a person reads: the message, and
// the fix in the hint.
func wantUnsafe(t *testing.T, what string, err error, msg, fix string) {
	t.Helper()
	var unsafe *UnsafeError
	if !errors.As(err, &unsafe) {
		t.Fatalf("%s: got %v, want a refusal saying %q", what, err, msg)
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: message %q\n  does not say %q", what, err, msg)
	}
	if !strings.Contains(unsafe.Fix, fix) {
		t.Errorf("%s: fix %q\n  does not say %q", what, unsafe.Fix, fix)
	}
}

func TestHealthyHomeLoads(t *testing.T) {
	h := freshHome(t)
	if err := h.Check(os.Geteuid()); err != nil {
		t.Fatalf("a home as wisp makes it: %v", err)
	}
	cfg, err := Load(h)
	if err != nil || cfg.Approval.Threshold != "high" {
		t.Errorf("Load = %+v, %v", cfg.Approval, err)
	}
	missing := Home{Dir: filepath.Join(t.TempDir(), "not-yet")}
	if err := missing.Check(os.Geteuid()); err != nil {
		t.Errorf("a home not made yet: %v", err)
	}
}

func TestLooseHomeRefused(t *testing.T) {
	for _, tt := range []struct {
		mode os.FileMode
		msg  string
	}{
		{0o777, "is writable by others (mode 0777): whoever can write it can turn the sandbox off"},
		{0o770, "is writable by its group (mode 0770)"},
	} {
		h := freshHome(t)
		os.Chmod(h.Dir, tt.mode)
		wantUnsafe(t, tt.mode.String(), h.Check(os.Geteuid()), "wisp's home "+h.Dir+" "+tt.msg, "run: chmod 700 "+h.Dir)
	}
	h := freshHome(t)
	os.Chmod(h.Dir, 0o755) // others may read, not change: as ssh takes ~/.ssh
	if err := h.Check(os.Geteuid()); err != nil {
		t.Errorf("a 0755 home: %v", err)
	}
}

func TestLooseStateFilesRefused(t *testing.T) {
	for _, tt := range []struct {
		file func(Home) string
		mode os.FileMode
		msg  string
	}{
		{Home.ConfigFile, 0o666, "config.json is writable by others (mode 0666): whoever can write it can turn the sandbox off in wisp's config"},
		{Home.ConfigFile, 0o620, "config.json is writable by its group (mode 0620)"},
		{Home.ApprovalsFile, 0o666, "approvals.json is writable by others (mode 0666): whoever can write it can approve commands in your name"},
	} {
		h := freshHome(t)
		p := tt.file(h)
		os.Chmod(p, tt.mode)
		wantUnsafe(t, p+" "+tt.mode.String(), h.Check(os.Geteuid()), tt.msg, "run: chmod 600 "+p)
		if p == h.ConfigFile() {
			_, err := Load(h) // the read itself refuses it too
			wantUnsafe(t, "Load", err, tt.msg, "run: chmod 600 "+p)
			err = Set(h, "approval.threshold", "low")
			wantUnsafe(t, "Set", err, tt.msg, "run: chmod 600 "+p)
			if info, _ := os.Stat(p); info.Mode().Perm() != tt.mode {
				t.Errorf("wisp changed %s to %04o", p, info.Mode().Perm())
			}
		}
	}
}

// A link planted as the audit log while the home was loose would have wisp
// append to the link's target (a ~/.bashrc, say) once the modes are fixed.
func TestLinkedAuditLogRefused(t *testing.T) {
	h := freshHome(t)
	h.Ensure("logs")
	target := filepath.Join(t.TempDir(), "bashrc")
	mustWrite(t, target, "", 0o600)
	os.Symlink(target, h.AuditFile())
	wantUnsafe(t, "audit log a link", h.Check(os.Geteuid()), h.AuditFile()+" is a symbolic link (to "+target+")", "rm "+h.AuditFile())
}

// Ensure checks what it made or found: a folder someone else put where
// the home was to be, after Check looked, is refused, not written into.
func TestEnsureRefusesALooseFolderInThePlaceOfTheHome(t *testing.T) {
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	os.Mkdir(h.Dir, 0o777)
	os.Chmod(h.Dir, 0o777)
	_, err := h.Ensure()
	wantUnsafe(t, "Ensure", err, "wisp's home "+h.Dir+" is writable by others (mode 0777)", "run: chmod 700 "+h.Dir)
	os.Chmod(h.Dir, 0o700)
	os.Mkdir(filepath.Join(h.Dir, "logs"), 0o777)
	os.Chmod(filepath.Join(h.Dir, "logs"), 0o777)
	_, err = h.Ensure("logs")
	wantUnsafe(t, "Ensure logs", err, filepath.Join(h.Dir, "logs")+" is writable by others (mode 0777)", "run: chmod 700 ")
}

func TestLooseStateFolderRefused(t *testing.T) {
	h := freshHome(t)
	os.Chmod(h.PendingDir(), 0o777)
	wantUnsafe(t, "pending 0777", h.Check(os.Geteuid()), h.PendingDir()+" is writable by others (mode 0777)", "run: chmod 700 "+h.PendingDir())
}

// A linked config.json is refused, wherever it leads: the sandbox keeps
// the home unwritable, not the link's target, so a confined command could
// rewrite the target (a dotfiles checkout in the project, say).
func TestLinkedConfigRefused(t *testing.T) {
	for _, mode := range []os.FileMode{0o666, 0o600} {
		h := freshHome(t)
		target := filepath.Join(t.TempDir(), "dotfiles-config.json")
		mustWrite(t, target, `{"commandPolicy": {"sandbox": {"enabled": false}}}`, mode)
		os.Remove(h.ConfigFile())
		if err := os.Symlink(target, h.ConfigFile()); err != nil {
			t.Fatal(err)
		}
		msg := h.ConfigFile() + " is a symbolic link (to " + target + "): wisp reads its state only from files in its home"
		fix := "rm " + h.ConfigFile() + " && cp " + target + " " + h.ConfigFile()
		wantUnsafe(t, "Check", h.Check(os.Geteuid()), msg, fix)
		_, err := Load(h)
		wantUnsafe(t, "Load", err, msg, fix)
	}
}

// wisp's home reached through a link in a folder a confined command could
// write is refused: the command swaps the link, and the next wisp would
// read a home of the command's making. The fix names the real path.
func TestHomeThroughASwappableLinkRefused(t *testing.T) {
	proj := t.TempDir()
	real := filepath.Join(proj, "real", "home")
	os.MkdirAll(real, 0o700)
	os.Symlink("real", filepath.Join(proj, "link"))
	given := filepath.Join(proj, "link", "home")
	h, err := ResolveHome(envOf(HomeEnv, given), noUserHome)
	if err != nil {
		t.Fatal(err)
	}
	if h.Dir != real {
		t.Errorf("resolved to %s, want the real path %s", h.Dir, real)
	}
	wantUnsafe(t, "link in the project", h.Check(os.Geteuid()),
		"wisp's home "+given+" is reached through the symbolic link "+filepath.Join(proj, "link")+", in "+proj+", which you",
		"export WISP_HOME="+real)

	// The home itself a link (a dotfiles ~/.wisp) is the same case.
	os.Symlink(real, filepath.Join(proj, "dot-wisp"))
	h, _ = ResolveHome(envOf(HomeEnv, filepath.Join(proj, "dot-wisp")), noUserHome)
	wantUnsafe(t, "home a link", h.Check(os.Geteuid()), "is reached through the symbolic link "+filepath.Join(proj, "dot-wisp"), "export WISP_HOME="+real)
}

// A link that only root can change (the system's own, in /) is followed,
// and the home is the real path behind it.
func TestHomeThroughASystemLinkLoads(t *testing.T) {
	info, err := os.Lstat("/bin")
	if err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Skip("/bin is not a link here")
	}
	real, _ := filepath.EvalSymlinks("/bin")
	h, _ := ResolveHome(envOf(HomeEnv, "/bin/wisp-home-that-does-not-exist"), noUserHome)
	if h.Dir != filepath.Join(real, "wisp-home-that-does-not-exist") {
		t.Errorf("resolved to %s", h.Dir)
	}
	if err := h.Check(os.Geteuid()); err != nil {
		t.Errorf("a home behind /bin, a link only root can change: %v", err)
	}
}

// A home may live under a folder others can write only when it is sticky
// (/tmp): without the sticky bit they could move the home aside.
func TestHomeUnderAWritableFolder(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	os.Mkdir(shared, 0o777)
	os.Chmod(shared, 0o777)
	h := Home{Dir: filepath.Join(shared, "wisp")}
	h.Ensure()
	wantUnsafe(t, "0777 parent", h.Check(os.Geteuid()),
		"wisp's home "+h.Dir+" lies in "+shared+", which is writable by others (mode 0777, not sticky): they could move the home aside",
		"chmod go-w "+shared)
	os.Chmod(shared, 0o777|os.ModeSticky)
	if err := h.Check(os.Geteuid()); err != nil {
		t.Errorf("a 0700 home of ours under a sticky folder: %v", err)
	}
}

// Owners: checked against the uid given, so this runs as any user; the
// test with real other owners is TestForeignOwners.
func TestHomeOfAnotherUidRefused(t *testing.T) {
	h := freshHome(t)
	me, other := os.Geteuid(), os.Geteuid()+1
	if me == 0 { // folders of root's are fine above anyone's home
		wantUnsafe(t, "home of root's", h.Check(other),
			"wisp's home "+h.Dir+" belongs to uid 0, not to you (uid 1)", "sudo chown -R 1 "+h.Dir)
		return
	}
	wantUnsafe(t, "parent of another uid", h.Check(other),
		"wisp's home "+h.Dir+" lies in ", "set WISP_HOME to a folder of your own")
	if !strings.Contains(h.Check(other).Error(), ", which belongs to uid "+strconv.Itoa(me)+": its owner could move the home aside") {
		t.Errorf("does not name the owner: %v", h.Check(other))
	}
}

// BenchmarkHomeCheck is what the check adds to every wisp start: a walk of
// the home's path and a look at each state folder and file.
func BenchmarkHomeCheck(b *testing.B) {
	dir := b.TempDir()
	h, _ := ResolveHome(envOf(HomeEnv, filepath.Join(dir, "wisp")), noUserHome)
	h.Ensure("pending")
	h.Ensure("logs")
	os.WriteFile(h.ConfigFile(), []byte("{}"), 0o600)
	for b.Loop() {
		if err := h.Check(os.Geteuid()); err != nil {
			b.Fatal(err)
		}
	}
}

// A home whose named path leads elsewhere than it did at ResolveHome (a
// link swapped in between) is refused, not followed to the new place.
func TestHomeThatNowLeadsElsewhereRefused(t *testing.T) {
	h := freshHome(t)
	moved := Home{Dir: h.Dir, Given: filepath.Join(t.TempDir(), "elsewhere")}
	wantUnsafe(t, "moved", moved.Check(os.Geteuid()), moved.Given+" now leads to "+moved.Given+", not to "+h.Dir, "set WISP_HOME to the real path")
}
