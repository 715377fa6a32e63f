package landlock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// The fix doctor prints where no copy of the profile is installed writes
// exactly wisp's profile for this wisp, even from a path with a space, a
// quote and a percent sign.
func TestAppArmorFixWritesTheProfile(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "it's 100% wisp", "bin", "wisp")
	fix := landlock.AppArmorFix(exe)
	printf, _, ok := strings.Cut(fix, " | sudo tee ")
	if !ok || !strings.HasSuffix(fix, " | sudo tee /etc/apparmor.d/wisp >/dev/null && sudo apparmor_parser -r /etc/apparmor.d/wisp") {
		t.Fatalf("fix: %s", fix)
	}
	out, err := exec.Command("/bin/sh", "-c", printf).Output()
	if err != nil {
		t.Fatalf("%s: %v", printf, err)
	}
	want := landlock.AppArmorProfile(exe)
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
	mustWriteFile(t, copyPath, landlock.AppArmorProfile(exe))
	want := "sudo install -m 0644 '" + copyPath + "' /etc/apparmor.d/wisp && sudo apparmor_parser -r /etc/apparmor.d/wisp"
	if got := landlock.AppArmorFix(exe); got != want {
		t.Fatalf("fix %q, want %q", got, want)
	}
	// A copy for another wisp is not this one's fix.
	mustWriteFile(t, copyPath, landlock.AppArmorProfile("/usr/bin/wisp"))
	if got := landlock.AppArmorFix(exe); !strings.HasPrefix(got, "printf ") {
		t.Fatalf("fix %q installs a profile for another path", got)
	}
}

// The profile that the .deb and make install ship has the rules that
// AppArmorProfile writes: one profile, two texts, kept the same.
func TestAppArmorProfileMatchesThePackaged(t *testing.T) {
	data, err := os.ReadFile("../../packaging/linux/apparmor.d/wisp")
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
	for _, line := range strings.Split(strings.TrimSpace(landlock.AppArmorProfile("/usr/bin/wisp")), "\n") {
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
	r := landlock.DetectUsernsRestriction(st)
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
		r    landlock.UsernsRestriction
		st   sandbox.Status
		want string
	}{
		{landlock.UsernsRestriction{}, none, "not enabled here, so it restricts no user namespace of wisp's"},
		{landlock.UsernsRestriction{Enabled: true}, none, "enabled; it does not restrict unprivileged user namespaces here"},
		{landlock.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "wisp (unconfined)", ProfileLoaded: true}, user,
			"restricts unprivileged user namespaces here (" + sysctl + "), and wisp's helper still has its user namespace: wisp runs under its AppArmor profile, which grants it"},
		{landlock.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "wisp (unconfined)", ProfileLoaded: true}, none,
			"restricts unprivileged user namespaces here (" + sysctl + "), and wisp runs under its profile, which grants them; the helper has none for another reason (see the sandbox line)"},
	} {
		got, err := c.r.Doctor(c.st, "/usr/bin/wisp")
		if err != nil || got != c.want {
			t.Errorf("%+v: %q, %v; want %q", c.r, got, err, c.want)
		}
	}
	// Loaded, but for another path: the reason says so.
	_, err := landlock.UsernsRestriction{Enabled: true, Restricted: true, How: sysctl, Label: "unconfined", ProfileLoaded: true}.Doctor(none, "/opt/wisp/bin/wisp")
	if err == nil || !strings.Contains(err.Error(), `wisp's AppArmor profile is loaded but does not cover this wisp (/opt/wisp/bin/wisp runs as "unconfined")`) {
		t.Errorf("loaded for another path: %v", err)
	}
}
