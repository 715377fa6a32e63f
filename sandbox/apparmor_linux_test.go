package sandbox_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
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
	exe := testExecutable(t)
	auto := newLandlock(t, exe, sandbox.NamespaceAuto)
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
	r := sandbox.DetectUsernsRestriction(st)
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
	t.Run("suite", func(t *testing.T) { sandboxtest.Run(t, auto, suiteOptions(t, auto)) })
}

// The fix doctor prints where no copy of the profile is installed writes
// exactly wisp's profile for this wisp, even from a path with a space, a
// quote and a percent sign.
func TestAppArmorFixWritesTheProfile(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "it's 100% wisp", "bin", "wisp")
	fix := sandbox.AppArmorFix(exe)
	printf, _, ok := strings.Cut(fix, " | sudo tee ")
	if !ok || !strings.HasSuffix(fix, " | sudo tee /etc/apparmor.d/wisp >/dev/null && sudo apparmor_parser -r /etc/apparmor.d/wisp") {
		t.Fatalf("fix: %s", fix)
	}
	out, err := exec.Command("/bin/sh", "-c", printf).Output()
	if err != nil {
		t.Fatalf("%s: %v", printf, err)
	}
	want := sandbox.AppArmorProfile(exe)
	if string(out) != want {
		t.Fatalf("the fix writes\n%s\nwant\n%s", out, want)
	}
	if !strings.Contains(want, `profile wisp "`+exe+`" flags=(unconfined) {`) {
		t.Fatalf("the profile does not attach to %s:\n%s", exe, want)
	}
}

// Where make install or the .deb put the profile's copy beside wisp, the
// fix installs that copy.
func TestAppArmorFixUsesTheInstalledCopy(t *testing.T) {
	prefix := t.TempDir()
	exe := filepath.Join(prefix, "bin", "wisp")
	copyPath := filepath.Join(prefix, "share", "wisp", "apparmor.d", "wisp")
	if err := os.MkdirAll(filepath.Dir(copyPath), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWriteFile(t, copyPath, sandbox.AppArmorProfile(exe))
	want := "sudo install -m 0644 '" + copyPath + "' /etc/apparmor.d/wisp && sudo apparmor_parser -r /etc/apparmor.d/wisp"
	if got := sandbox.AppArmorFix(exe); got != want {
		t.Fatalf("fix %q, want %q", got, want)
	}
	// A copy for another wisp is not this one's fix.
	mustWriteFile(t, copyPath, sandbox.AppArmorProfile("/usr/bin/wisp"))
	if got := sandbox.AppArmorFix(exe); !strings.HasPrefix(got, "printf ") {
		t.Fatalf("fix %q installs a profile for another path", got)
	}
}

// The profile that the .deb and make install ship has the rules that
// AppArmorProfile writes: one profile, two texts, kept the same.
func TestAppArmorProfileMatchesThePackaged(t *testing.T) {
	data, err := os.ReadFile("../packaging/linux/apparmor.d/wisp")
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			rules = append(rules, line)
		}
	}
	var want []string
	for _, line := range strings.Split(strings.TrimSpace(sandbox.AppArmorProfile("/usr/bin/wisp")), "\n") {
		want = append(want, strings.TrimSpace(line))
	}
	if strings.Join(rules, "\n") != strings.Join(want, "\n") {
		t.Fatalf("packaging/linux/apparmor.d/wisp has the rules\n%s\nand AppArmorProfile\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
	}
}

// Where the kernel says so (the sysctl reads 1, as on Ubuntu), that is the
// reason given (packaging's TestMakeInstallWhereUsernsAreRestricted has
// make install find it the same way).
func TestUsernsRestrictedBySysctl(t *testing.T) {
	if !testenv.InRestrictedUsernsBySysctl(t) {
		return
	}
	project := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	project, _ = filepath.EvalSymlinks(project)
	hooks := filepath.Join(project, ".git", "hooks")
	exe := testExecutable(t)
	st := sandbox.Report(exe, sandbox.Spec{Roots: []string{project}, Protected: []string{hooks}, Home: "/nonexistent/wisp-home", Network: true})
	r := sandbox.DetectUsernsRestriction(st)
	if !r.Restricted || r.How != "kernel.apparmor_restrict_unprivileged_userns is 1" {
		t.Fatalf("detection: %+v, want restricted by the sysctl", r)
	}
	_, err := r.Doctor(st, exe)
	if err == nil || !strings.Contains(err.Error(), "AppArmor restricts unprivileged user namespaces here (kernel.apparmor_restrict_unprivileged_userns is 1), and wisp's AppArmor profile is not loaded") ||
		!strings.Contains(err.Error(), "NOT protected: "+hooks+" ") {
		t.Fatalf("doctor: %v", err)
	}
}

// Doctor's line where nothing is lost: AppArmor off or not restricting,
// the namespace had all the same (root, or under wisp's profile), or the
// profile in force and the namespace missing for another reason, which is
// then not blamed on AppArmor.
func TestAppArmorDoctorWhereNothingIsLost(t *testing.T) {
	user := sandbox.Status{Namespace: sandbox.NamespaceUser}
	none := sandbox.Status{Namespace: sandbox.NamespaceNone, NamespaceWhy: "no space"}
	sysctl := "kernel.apparmor_restrict_unprivileged_userns is 1"
	for _, c := range []struct {
		r    sandbox.UsernsRestriction
		st   sandbox.Status
		want string
	}{
		{sandbox.UsernsRestriction{}, none, "not enabled here, so it restricts no user namespace of wisp's"},
		{sandbox.UsernsRestriction{Enabled: true}, none, "enabled; it does not restrict unprivileged user namespaces here"},
		{sandbox.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "wisp (unconfined)", ProfileLoaded: true}, user,
			"restricts unprivileged user namespaces here (" + sysctl + "), and wisp's helper still has its user namespace: wisp runs under its AppArmor profile, which grants it"},
		{sandbox.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "wisp (unconfined)", ProfileLoaded: true}, none,
			"restricts unprivileged user namespaces here (" + sysctl + "), and wisp runs under its profile, which grants them; the helper has none for another reason (see the sandbox line)"},
	} {
		got, err := c.r.Doctor(c.st, "/usr/bin/wisp")
		if err != nil || got != c.want {
			t.Errorf("%+v: %q, %v; want %q", c.r, got, err, c.want)
		}
	}
	// Loaded, but for another path: the reason says so.
	_, err := sandbox.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "unconfined", ProfileLoaded: true}.Doctor(none, "/opt/wisp/bin/wisp")
	if err == nil || !strings.Contains(err.Error(), `wisp's AppArmor profile is loaded but does not cover this wisp (/opt/wisp/bin/wisp runs as "unconfined")`) {
		t.Errorf("loaded for another path: %v", err)
	}
}
