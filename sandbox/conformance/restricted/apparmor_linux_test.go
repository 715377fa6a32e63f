package restricted_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
	"github.com/wisp-sh/wisp/sandbox/sandboxtest"
)

// Where AppArmor restricts unprivileged user namespaces and wisp's profile
// is not loaded, the helper has no namespace: the detection says AppArmor
// is why, the doctor line names the .git paths a confined command can then
// write, gives the profile's absence as the reason and the fix that loads
// it, never the sysctl; and the suite still holds without the namespace.
// Simulated in a user namespace of the test's own (testenv.InRestrictedUserns).
func TestUsernsRestrictedByAppArmor(t *testing.T) {
	if !testenv.InRestrictedUserns(t) {
		return
	}
	exe := sandboxtest.Executable(t)
	auto := sandboxtest.NewLandlock(t, exe, sandbox.NamespaceAuto)
	if ns, why := auto.Namespace(); ns != sandbox.NamespaceNone {
		t.Fatalf("the probe found a %s namespace where no user namespace can be made (%s)", ns, why)
	}
	project := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	// The project the only root: the test binary and a home lie in the
	// temporary folders, which are roots of a spec that NewSpec makes.
	project, _ = filepath.EvalSymlinks(project)
	hooks, config := filepath.Join(project, ".git", "hooks"), filepath.Join(project, ".git", "config")
	spec := sandbox.Spec{Roots: []string{project}, Protected: []string{hooks, config}, Home: "/nonexistent/wisp-home", Network: true}
	st := sandbox.Report(exe, spec)
	if st.Err != nil {
		t.Fatalf("report: %v", st.Err)
	}
	r := landlock.DetectUsernsRestriction(st)
	if !r.Restricted || !strings.HasPrefix(r.How, "AppArmor is enabled and the helper could make no user namespace") || r.ProfileLoaded {
		t.Fatalf("detection: %+v, want restricted by the failed probe, with no profile loaded", r)
	}
	_, err := r.Doctor(st, exe)
	if err == nil {
		t.Fatal("doctor passes where the read-only binds cannot be made")
	}
	msg := err.Error()
	for _, want := range []string{
		"AppArmor restricts unprivileged user namespaces here (AppArmor is enabled and the helper could make no user namespace",
		"wisp's AppArmor profile is not loaded (/etc/apparmor.d/wisp), so wisp's helper can make no mount namespace",
		"NOT protected: " + hooks + ", " + config + " (inside the writable roots, a confined command can write them)",
		"outside the roots a command can change the mode, owner and times",
		"wisp refuses to launch where a writable root would hold its home",
		"fix, for wisp alone (never the sysctl): printf ",
		" | sudo tee /etc/apparmor.d/wisp >/dev/null && sudo apparmor_parser -r /etc/apparmor.d/wisp",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("doctor's line lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "sysctl -w") || strings.Contains(msg, "restrict_unprivileged_userns=0") {
		t.Errorf("doctor's line asks to turn the restriction off for the whole machine:\n%s", msg)
	}
	t.Run("suite", func(t *testing.T) { sandboxtest.Run(t, auto, sandboxtest.LandlockOptions(t, auto)) })
}
