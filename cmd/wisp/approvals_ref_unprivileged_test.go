//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// Root reads and writes every pending file whoever owns it, so answering
// by id prefix and digest across processes runs again as a person's
// account: this test binary as the unprivileged CI user.
func TestApprovalsByReferenceAsAnUnprivilegedUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("already unprivileged: the other tests ran as this user")
	}
	uid, gid := testenv.NeedUnprivileged(t)
	dir, err := os.MkdirTemp("", "wisp-approvals-unprivileged-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "wisp.test")
	copyExecutable(t, os.Args[0], bin)
	tmp := ownedDir(t, filepath.Join(dir, "tmp"), uid, gid)
	home := personalDir(t, uid, gid)
	names := []string{"TestApproveByIDPrefixFromAnotherProcess", "TestDenyByDigestThenAnsweredElsewhere",
		"TestNeverFiledAndMalformedReferences", "TestAmbiguousPrefixListsTheCandidates",
		"TestPendingPipedAndJSONSayOutsideReasonsAndScopes"}
	cmd := exec.Command(bin, "-test.count=1", "-test.v", "-test.run", "^("+strings.Join(names, "|")+")$")
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp, "HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as uid %d: %v\n%s", uid, err, out)
	}
	for _, name := range names {
		if !strings.Contains(string(out), "--- PASS: "+name) {
			t.Errorf("as uid %d, %s did not pass:\n%s", uid, name, out)
		}
	}
}
