package testenv

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// restrictedStageEnv carries InRestrictedUserns's stage across its runs of
// the test binary: "setup" in the namespace with the capabilities to make
// it, "inside" once they are gone.
const restrictedStageEnv = "WISP_TEST_RESTRICTED_USERNS"

// InRestrictedUserns reports whether the calling test runs where AppArmor's
// restriction of unprivileged user namespaces (Ubuntu 23.10 and later) is
// simulated, without changing the machine: as an unprivileged user, in a
// user namespace the test made, with user.max_user_namespaces 0 for its
// children (so no further user namespace can be made, as the restriction
// leaves an unconfined person without wisp's profile), and with
// /sys/module/apparmor/parameters/enabled saying Y in its mount namespace,
// as on a kernel with AppArmor. When it returns false the test's body has
// run there already (the test binary ran itself again, for this test
// alone) and passed, or t failed; the caller returns. The restriction is
// one on unprivileged users: root starts that run as the unprivileged test
// user (the binary copied by NewRerun, HOME and TMPDIR a folder of its own,
// then rerunEnv), with root's ids mapped too; another user starts it as
// itself, with only its own ids mapped, so that root's files look nobody's.
func InRestrictedUserns(t *testing.T, rerunEnv ...string) bool {
	t.Helper()
	return inRestricted(t, rerunEnv)
}

// restrictedSysctlEnv asks the setup stage for the sysctl too.
const restrictedSysctlEnv = "WISP_TEST_RESTRICTED_SYSCTL"

// InRestrictedUsernsBySysctl is InRestrictedUserns where the kernel also
// says so, as Ubuntu's does: /proc/sys/kernel/apparmor_restrict_unprivileged_userns
// reads 1 (a tmpfs over /proc/sys/kernel in the test's mount namespace,
// holding a copy of the other files there).
func InRestrictedUsernsBySysctl(t *testing.T, rerunEnv ...string) bool {
	t.Helper()
	if os.Getenv(restrictedStageEnv) == "" {
		t.Setenv(restrictedSysctlEnv, "1") // for the runs this one starts
	}
	return inRestricted(t, append(rerunEnv, restrictedSysctlEnv+"=1"))
}

// restrictedRootEnv asks the setup stage to stay root, with a tmpfs over
// /etc/apparmor.d for what root's installs write there.
const restrictedRootEnv = "WISP_TEST_RESTRICTED_AS_ROOT"

// InRestrictedUsernsAsRoot is InRestrictedUsernsBySysctl for root, who is
// not restricted but installs the profile that lifts the restriction: the
// test runs as root (uid 0 of a user namespace of its own, mapped to root,
// with env added), where /etc/apparmor.d is a tmpfs of its mount namespace
// (so nothing lands in the machine's), AppArmor looks enabled and the
// sysctl reads 1. Run by another user it skips (it needs root).
func InRestrictedUsernsAsRoot(t *testing.T, env ...string) bool {
	t.Helper()
	switch {
	case os.Getenv(restrictedStageEnv) != "":
		return inRestricted(t, nil)
	case os.Geteuid() != 0:
		t.Skip("needs root: the install it checks is root's")
	}
	if _, err := os.Stat("/etc/apparmor.d"); err != nil {
		NeedKernel(t, false, "no /etc/apparmor.d to put a tmpfs over (Debian's apparmor package)")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env = append(append(os.Environ(), env...), restrictedSysctlEnv+"=1", restrictedRootEnv+"=1")
	runRestricted(t, exe, "", nil, selfMapping(0, 0), env)
	return false
}

func inRestricted(t *testing.T, rerunEnv []string) bool {
	t.Helper()
	switch os.Getenv(restrictedStageEnv) {
	case "inside":
		return true
	case "setup":
		enterRestricted(t) // does not return but on failure
		return false
	}
	if os.Geteuid() == 0 {
		runRestrictedAsUser(t, rerunEnv)
		return false
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runRestricted(t, exe, "", nil, selfMapping(os.Geteuid(), os.Getegid()), os.Environ())
	return false
}

// runRestrictedAsUser is root's way in: the binary copied where the
// unprivileged test user can run it (NewRerun), started as that user in
// the new namespace, with root mapped too, so that root's files still look
// root's there (mapping only the user's own uid, as a person's test run
// must, shows them as nobody's, which wisp's home check rightly refuses).
func runRestrictedAsUser(t *testing.T, env []string) {
	t.Helper()
	r := NewRerun(t)
	maps := selfMapping(r.UID, r.GID)
	maps.UidMappings = append(maps.UidMappings, syscall.SysProcIDMap{ContainerID: 0, HostID: 0, Size: 1})
	maps.GidMappings = append(maps.GidMappings, syscall.SysProcIDMap{ContainerID: 0, HostID: 0, Size: 1})
	maps.GidMappingsEnableSetgroups = true // to clear root's supplementary groups
	maps.Credential = &syscall.Credential{Uid: uint32(r.UID), Gid: uint32(r.GID), Groups: []uint32{}}
	runEnv := append(append(os.Environ(), "TMPDIR="+r.Tmp, "HOME="+r.Tmp), env...)
	runRestricted(t, r.bin, r.Tmp, maps, nil, runEnv)
}

func selfMapping(uid, gid int) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
	}
}

// runRestricted starts this test again (exe) in a new user and mount
// namespace with the ids of attr (or of self), holding, as ambient
// capabilities, what the setup needs: CAP_SYS_ADMIN for the mount,
// CAP_SYS_RESOURCE for the sysctl.
func runRestricted(t *testing.T, exe, dir string, attr, self *syscall.SysProcAttr, env []string) {
	t.Helper()
	if attr == nil {
		attr = self
	}
	attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SYS_RESOURCE}
	cmd := exec.Command(exe, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Dir = dir
	cmd.Env = append(env, restrictedStageEnv+"=setup")
	cmd.SysProcAttr = attr
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		NeedKernel(t, false, "no user namespace here for the test to simulate the restriction in ("+err.Error()+")")
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("in the restricted namespace: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "--- PASS: "+t.Name()) {
		t.Fatalf("in the restricted namespace, %s did not pass:\n%s", t.Name(), out.String())
	}
	t.Logf("in the restricted namespace:\n%s", out.String())
}

// enterRestricted is the setup stage: it makes the namespace look
// restricted, then runs the test again without the setup's capabilities
// (an exec by a uid other than 0, with no ambient capabilities, keeps
// none), as the person the restriction is about.
func enterRestricted(t *testing.T) {
	t.Helper()
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		t.Fatalf("make the test's mounts private: %v", err)
	}
	if err := unix.Mount("wisp-test", "/sys/module", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		t.Fatalf("mount a tmpfs over /sys/module: %v", err)
	}
	params := "/sys/module/apparmor/parameters"
	if err := os.MkdirAll(params, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(params, "enabled"), []byte("Y\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if os.Getenv(restrictedSysctlEnv) == "1" {
		restrictBySysctl(t)
	}
	if os.Getenv(restrictedRootEnv) == "1" {
		if err := unix.Mount("wisp-test", "/etc/apparmor.d", "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
			t.Fatalf("mount a tmpfs over /etc/apparmor.d: %v", err)
		}
	}
	if err := os.WriteFile("/proc/sys/user/max_user_namespaces", []byte("0\n"), 0); err != nil {
		t.Fatalf("set user.max_user_namespaces to 0 in the test's namespace: %v", err)
	}
	runtime.LockOSThread() // the exec below starts from this thread, with its capabilities
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		t.Fatalf("clear the setup's ambient capabilities: %v", err)
	}
	env := []string{restrictedStageEnv + "=inside"}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, restrictedStageEnv+"=") {
			env = append(env, kv)
		}
	}
	exe, err := os.Executable()
	if err == nil {
		err = syscall.Exec(exe, os.Args, env)
	}
	t.Fatalf("run the test again in the restricted namespace: %v", err)
}

// restrictBySysctl puts a tmpfs over /proc/sys/kernel that holds a copy of
// what can be read there (the sandbox reads cap_last_cap and
// random/boot_id) and apparmor_restrict_unprivileged_userns, reading 1.
func restrictBySysctl(t *testing.T) {
	t.Helper()
	const dir = "/proc/sys/kernel"
	files := map[string][]byte{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if data, err := os.ReadFile(p); err == nil {
				files[p] = data
			}
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("nothing readable in %s to copy", dir)
	}
	files[filepath.Join(dir, "apparmor_restrict_unprivileged_userns")] = []byte("1\n")
	if err := unix.Mount("wisp-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		t.Fatalf("mount a tmpfs over %s: %v", dir, err)
	}
	for p, data := range files {
		err := os.MkdirAll(filepath.Dir(p), 0o755)
		if err == nil {
			err = os.WriteFile(p, data, 0o444)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}
