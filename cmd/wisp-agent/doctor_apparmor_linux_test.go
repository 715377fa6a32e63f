package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// Where AppArmor restricts unprivileged user namespaces and wisp's profile
// is not loaded (simulated: testenv.InRestrictedUserns), `wisp doctor`
// fails its apparmor line: it names the project's .git/hooks and
// .git/config as not protected, gives the missing profile as the reason,
// and the fix that installs and loads it, never the sysctl. The sandbox
// line says the same paths are NOT protected for want of a namespace.
func TestDoctorWhereAppArmorRestrictsUserNamespaces(t *testing.T) {
	var env []string
	switch {
	case os.Getenv("WISP_TEST_RESTRICTED_USERNS") != "":
	case os.Geteuid() == 0: // the run as the unprivileged user gets a HOME outside every root
		uid, gid := testenv.NeedUnprivileged(t)
		env = []string{"HOME=" + personalDir(t, uid, gid)}
	default:
		t.Skip("run as root: only there can the simulation keep root's files root's, which wisp's home check needs")
	}
	if !testenv.InRestrictedUserns(t, env...) {
		return
	}
	e := newHomeE2E(t)
	// Without a namespace wisp refuses to run from inside a writable root
	// (the test binary's folder is in one): wisp is installed outside them.
	e.bin = installedWisp(t, filepath.Join(e.outside, "bin"))
	if out, err := exec.Command("git", "init", "-q", e.project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	project, _ := filepath.EvalSymlinks(e.project)
	home := filepath.Join(e.outside, "home")
	out, code := e.run(home, "doctor")
	t.Logf("wisp doctor:\n%s", out)
	if code != cli.ExitFailure {
		t.Errorf("doctor: exit %d, want %d", code, cli.ExitFailure)
	}
	line := lineWith(out, "FAIL apparmor ")
	hooks, config := filepath.Join(project, ".git", "hooks"), filepath.Join(project, ".git", "config")
	for _, want := range []string{
		"AppArmor restricts unprivileged user namespaces here (AppArmor is enabled and the helper could make no user namespace",
		"and wisp's AppArmor profile is not loaded (/etc/apparmor.d/wisp), so wisp's helper can make no mount namespace",
		"NOT protected: " + hooks + ", " + config + " (inside the writable roots, a confined command can write them)",
		"fix, for wisp alone (never the sysctl): ",
		"sudo tee /etc/apparmor.d/wisp >/dev/null && sudo apparmor_parser -r /etc/apparmor.d/wisp",
	} {
		if !strings.Contains(line, want) {
			t.Errorf("doctor's apparmor line lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sysctl -w") || strings.Contains(out, "restrict_unprivileged_userns=0") {
		t.Errorf("doctor asks to turn the restriction off for the whole machine:\n%s", out)
	}
	sandboxLine := lineWith(out, "ok   sandbox ")
	if !strings.Contains(sandboxLine, "NOT protected: "+hooks+" (no mount namespace can be had here") {
		t.Errorf("doctor's sandbox line does not say .git/hooks is not protected:\n%s", out)
	}
	if _, err := os.Stat(home); err == nil {
		t.Errorf("doctor made the home %s", home)
	}
}

// installedWisp copies this test binary into dir as wisp (testscript runs
// it as wisp by that name).
func installedWisp(t *testing.T, dir string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "wisp")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return bin
}

func lineWith(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}
