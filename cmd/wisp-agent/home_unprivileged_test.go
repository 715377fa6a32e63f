//go:build linux

package main

import (
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// foreignHomeEnv names a wisp home of the unprivileged user's whose
// config.json is root's, prepared by TestHomeAsAnUnprivilegedUser.
const foreignHomeEnv = "WISP_TEST_FOREIGN_HOME"

// Root reads every file and may write every folder, so the home's checks
// and the link swap are run again as a person's account: this test binary
// as the unprivileged CI user, over the TestHome tests.
func TestHomeAsAnUnprivilegedUser(t *testing.T) {
	r := testenv.NewRerun(t)
	home := personalDir(t, r.UID, r.GID) // outside every root: writes outside go here
	foreign := r.OwnedDir(t, "foreign-home")
	if err := os.WriteFile(filepath.Join(foreign, "config.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Run(t, "^TestHome(LinkSwapped|Loose|ForeignOwner)", []string{"HOME=" + home, foreignHomeEnv + "=" + foreign},
		"TestHomeLinkSwappedByAConfinedCommand", "TestHomeLooseRefusedBeforeAnyRun", "TestHomeForeignOwner")
}

// A config.json of another user is refused, exit 2: as root, one chowned
// to the unprivileged user; as that user, one of root's.
func TestHomeForeignOwner(t *testing.T) {
	e := newHomeE2E(t)
	home, owner := e.path("home"), 0
	if os.Geteuid() == 0 {
		uid, gid := testenv.NeedUnprivileged(t)
		os.Mkdir(home, 0o700)
		os.WriteFile(filepath.Join(home, "config.json"), []byte("{}\n"), 0o600)
		os.Chown(filepath.Join(home, "config.json"), uid, gid)
		owner = uid
	} else if home = os.Getenv(foreignHomeEnv); home == "" {
		t.Skip("run by TestHomeAsAnUnprivilegedUser, which prepares a config of root's")
	}
	cfg := filepath.Join(home, "config.json")
	out, code := e.run(home, "config", "get", "approval.threshold")
	want := "wisp: error: " + cfg + " belongs to uid " + strconv.Itoa(owner) + ", not to you (uid " + strconv.Itoa(os.Geteuid()) + ")"
	if code != cli.ExitUsage || !strings.Contains(out, want) || !strings.Contains(out, "wisp: hint: if it is yours, run: sudo chown -R ") {
		t.Fatalf("exit %d, want %d and %q\n%s", code, cli.ExitUsage, want, out)
	}
	if out, _ := e.run(home, "doctor"); !strings.Contains(out, "FAIL home     "+cfg+" belongs to uid "+strconv.Itoa(owner)) {
		t.Errorf("doctor:\n%s", out)
	}
}

// personalDir is a folder of the user's in their own home directory, which
// no writable root covers (/tmp does).
func personalDir(t *testing.T, uid, gid int) string {
	t.Helper()
	u, err := user.LookupId(strconv.Itoa(uid))
	if err != nil {
		t.Fatalf("find the unprivileged user's home directory: %v", err)
	}
	dir, err := os.MkdirTemp(u.HomeDir, "wisp-home-e2e-")
	if err != nil {
		t.Fatalf("a folder outside every root for uid %d: %v", uid, err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chown(dir, uid, gid); err != nil {
		t.Fatal(err)
	}
	return dir
}
