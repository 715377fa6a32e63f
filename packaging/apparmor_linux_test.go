package packaging_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox/landlock"
)

// apparmor_parser takes wisp's profiles: the one the .deb ships, the copy
// make install writes for a PREFIX with a space, and the one wisp doctor's
// fix writes (landlock.AppArmorProfile). -Q parses and compiles without
// loading anything into the kernel. A parser older than AppArmor 4.0
// (Debian 12 has 3.0) knows neither abi/4.0 nor the userns rule, both of
// which came with the restriction itself, so such a system never restricts
// user namespaces and never loads the profile (apparmor.sh checks the
// sysctl first); there the rest of each profile is parsed, userns aside,
// and the test says so.
func TestAppArmorProfilesParse(t *testing.T) {
	parser := apparmorParser(t)
	major := parserMajor(t, parser)
	shipped, err := os.ReadFile("linux/apparmor.d/wisp")
	if err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(t.TempDir(), "my tools")
	profiles := map[string]string{
		"the .deb's":          string(shipped),
		"make install's copy": installCopy(t, prefix),
		"wisp doctor's fix's": landlock.AppArmorProfile(filepath.Join(prefix, "bin", "wisp")),
	}
	for name, text := range profiles {
		if strings.Count(text, "  userns,\n") != 3 {
			t.Errorf("%s profile does not grant userns to wisp, wisp-agent and wisp-sandbox:\n%s", name, text)
		}
		if major < 4 {
			t.Logf("apparmor_parser %d predates the userns rule: parsing %s profile without it", major, name)
			text = strings.ReplaceAll(strings.ReplaceAll(text, "abi <abi/4.0>,", "abi <abi/3.0>,"), "  userns,\n", "")
		}
		f := filepath.Join(t.TempDir(), "wisp")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(parser, "-Q", "-K", f).CombinedOutput(); err != nil {
			t.Errorf("apparmor_parser -Q refuses %s profile: %v\n%s\n%s", name, err, out, text)
		}
	}
}

// The parser refuses a broken profile: the test above can fail.
func TestAppArmorParserRefusesABrokenProfile(t *testing.T) {
	parser := apparmorParser(t)
	f := filepath.Join(t.TempDir(), "wisp")
	if err := os.WriteFile(f, []byte("profile wisp /usr/bin/wisp {\n  no such rule here,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(parser, "-Q", "-K", f).CombinedOutput(); err == nil {
		t.Fatalf("apparmor_parser -Q takes a broken profile:\n%s", out)
	}
}

// apparmor_parser, from Debian's apparmor package (.ci/run installs it);
// it lives in /usr/sbin, which a person's PATH may lack.
func apparmorParser(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("apparmor_parser"); err == nil {
		return p
	}
	for _, p := range []string{"/usr/sbin/apparmor_parser", "/sbin/apparmor_parser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	testenv.NeedKernel(t, false, "apparmor_parser is missing (Debian's apparmor package)")
	return ""
}

func parserMajor(t *testing.T, parser string) int {
	t.Helper()
	out, _ := exec.Command(parser, "--version").CombinedOutput()
	m := regexp.MustCompile(`version (\d+)\.`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("apparmor_parser --version says no version:\n%s", out)
	}
	major, _ := strconv.Atoi(string(m[1]))
	return major
}

// installCopy is the profile make install writes for PREFIX: install.sh's
// own sed, run on the shipped profile.
func installCopy(t *testing.T, prefix string) string {
	t.Helper()
	script, err := os.ReadFile("../scripts/install.sh")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?s)install_profile_copy\(\) \{\n\ttmp=\$\(mktemp\)\n(.*?)\n\tif grep`)
	m := re.FindSubmatch(script)
	if m == nil {
		t.Fatal("scripts/install.sh has no install_profile_copy sed to run")
	}
	cmd := exec.Command("sh", "-c", `here=..; tmp=/dev/stdout; `+string(m[1]))
	cmd.Env = append(os.Environ(), "PREFIX="+prefix)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("install.sh's sed: %v", err)
	}
	if !strings.Contains(string(out), `profile wisp "`+prefix+`/bin/wisp" `) {
		t.Fatalf("make install's copy does not attach to %s/bin/wisp:\n%s", prefix, out)
	}
	return string(out)
}

// Where AppArmor does not restrict user namespaces (Debian, this machine),
// the .deb's postinst loads nothing and says why: apparmor.sh load writes
// no /etc/apparmor.d/wisp, and unload finds none to remove.
func TestAppArmorScriptWhereNotRestricted(t *testing.T) {
	if v, _ := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); strings.TrimSpace(string(v)) == "1" {
		t.Skip("AppArmor restricts user namespaces here: TestMakeInstallAsRootLoadsTheProfile covers that case")
	}
	if _, err := os.Stat("/etc/apparmor.d/wisp"); err == nil {
		t.Skip("/etc/apparmor.d/wisp is installed here: nothing to learn from a load that would not touch it")
	}
	if err := exec.Command("sh", "linux/apparmor.sh", "restricted").Run(); err == nil {
		t.Fatal("apparmor.sh restricted says yes where the sysctl does not read 1")
	}
	out, err := exec.Command("sh", "linux/apparmor.sh", "load", "linux/apparmor.d/wisp").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "AppArmor does not restrict unprivileged user namespaces here, so wisp needs no AppArmor profile") {
		t.Fatalf("apparmor.sh load: %v\n%s", err, out)
	}
	if _, err := os.Stat("/etc/apparmor.d/wisp"); err == nil {
		t.Fatal("apparmor.sh load installed /etc/apparmor.d/wisp where nothing restricts user namespaces")
	}
	if out, err := exec.Command("sh", "linux/apparmor.sh", "unload").CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("apparmor.sh unload with nothing installed: %v\n%s", err, out)
	}
}
