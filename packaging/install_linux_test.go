package packaging_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// treeEnv names a copy of the source with its binaries built, prepared by
// root for the run as the unprivileged user, who cannot reach root's Go
// module cache to build them.
const treeEnv = "WISP_TEST_BUILT_TREE"

// make install as a person, PREFIX a folder of theirs, writes the binaries,
// the completions and wisp-bar's autostart entry there and in their
// XDG_CONFIG_HOME, says the line that puts its bin on PATH, runs from
// there, and make uninstall removes every file and folder it made: nothing
// is left.
func TestMakeInstallLeavesNothingBehind(t *testing.T) {
	if restricting, _ := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); os.Geteuid() == 0 && strings.TrimSpace(string(restricting)) == "1" {
		t.Skip("root's make install would load a profile into this machine's AppArmor; TestMakeInstallAsRootLoadsTheProfile covers it without")
	}
	tree := builtTree(t)
	dir := t.TempDir()
	prefix, config := filepath.Join(dir, "local"), filepath.Join(dir, "config")
	out := runMake(t, tree, dir, "install", "PREFIX="+prefix)
	checkProfileLine(t, out, prefix)
	want := []string{"bin/wisp", "share/bash-completion/completions/wisp", "share/zsh/site-functions/_wisp",
		"share/fish/vendor_completions.d/wisp.fish", "share/wisp/apparmor.d/wisp"}
	for _, bin := range binaries(t, tree) {
		want = append(want, "bin/"+bin)
	}
	for _, p := range want {
		if _, err := os.Stat(filepath.Join(prefix, p)); err != nil {
			t.Errorf("make install did not write %s: %v\n%s", p, err, out)
		}
	}
	if hasBar(tree) {
		entry, err := os.ReadFile(filepath.Join(config, "autostart", "wisp-bar.desktop"))
		if err != nil || !bytes.Contains(entry, []byte("\nExec="+prefix+"/bin/wisp-bar\n")) {
			t.Errorf("wisp-bar's autostart entry: %v\n%s", err, entry)
		}
	}
	profile, _ := os.ReadFile(filepath.Join(prefix, "share/wisp/apparmor.d/wisp"))
	if !bytes.Contains(profile, []byte(`profile wisp "`+prefix+`/bin/wisp" flags=(unconfined) {`)) {
		t.Errorf("the profile's copy does not attach to the installed wisp:\n%s", profile)
	}
	if v, err := exec.Command(filepath.Join(prefix, "bin", "wisp"), "--version").CombinedOutput(); err != nil {
		t.Errorf("the installed wisp: %v\n%s", err, v)
	}
	out = runMake(t, tree, dir, "uninstall", "PREFIX="+prefix)
	if left := filesIn(t, dir); len(left) > 0 {
		t.Fatalf("make uninstall left %s\n%s", strings.Join(left, ", "), out)
	}
}

// Where the binaries cannot be installed, make install fails before it
// writes anything else: no completions, no autostart entry.
func TestMakeInstallWritesNothingWithoutTheBinaries(t *testing.T) {
	tree := builtTree(t)
	dir := t.TempDir()
	prefix := filepath.Join(dir, "local")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	// bin is a file: no one, root included, can install into it.
	if err := os.WriteFile(filepath.Join(prefix, "bin"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := makeCmd(tree, dir, "install", "PREFIX="+prefix)
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("make install succeeded with bin a file:\n%s", out)
	}
	if left := filesIn(t, dir); strings.Join(left, " ") != "local local/bin" {
		t.Fatalf("make install failed but wrote %s", strings.Join(left, ", "))
	}
}

// Root reads and writes every folder: the same as the unprivileged test
// user (a newcomer's account), in the copy root built for them.
func TestMakeInstallAsAPerson(t *testing.T) {
	r := testenv.NewRerun(t)
	tree := builtTree(t)
	r.Run(t, "^(TestMakeInstall(LeavesNothingBehind|WritesNothingWithoutTheBinaries)|TestReadmeFirstCommandOnAFreshDebianAccount)$",
		[]string{treeEnv + "=" + tree},
		"TestMakeInstallLeavesNothingBehind", "TestMakeInstallWritesNothingWithoutTheBinaries", "TestReadmeFirstCommandOnAFreshDebianAccount")
}

var (
	treeOnce sync.Once
	treeDir  string
)

// rerunEnv is what a test rerun in a simulated restricted namespace is
// given: root, before the rerun, builds the tree once and passes it on
// (the rerun's user may not build it); the rerun itself passes nothing.
func rerunEnv(t *testing.T) []string {
	if os.Getenv("WISP_TEST_RESTRICTED_USERNS") == "" && os.Geteuid() == 0 {
		return []string{treeEnv + "=" + builtTree(t)}
	}
	return nil
}

// builtTree is the copy the run as the unprivileged user was given, or one
// this process copies and builds (once).
func builtTree(t *testing.T) string {
	t.Helper()
	if tree := os.Getenv(treeEnv); tree != "" {
		return tree
	}
	treeOnce.Do(func() {
		dir, err := os.MkdirTemp("", "wisp-install-tree-")
		if err == nil {
			err = os.Chmod(dir, 0o755) // for the unprivileged test user too
		}
		if err != nil {
			t.Fatal(err)
		}
		treeDir = buildTree(t, filepath.Join(dir, "tree"))
	})
	if treeDir == "" {
		t.Fatal("no source tree was built")
	}
	return treeDir
}

// buildTree copies the source (the files git knows of, and new ones it
// does not ignore) to dir and runs make build there, so that no test
// writes in the checkout.
func buildTree(t *testing.T, dir string) string {
	t.Helper()
	list, err := exec.Command("git", "-C", "..", "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Fatalf("list the source: %v", err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(list), "\x00"), "\x00") {
		if err := copyFile(filepath.Join("..", f), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("make", "-C", dir, "--no-print-directory", "build").CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	return dir
}

func copyFile(from, to string) error {
	info, err := os.Lstat(from)
	if err != nil || !info.Mode().IsRegular() {
		return nil // deleted in the work tree, or a link: not needed to build
	}
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.MkdirAll(filepath.Dir(to), 0o755)
	}
	if err == nil {
		err = os.WriteFile(to, data, info.Mode().Perm()|0o444)
	}
	return err
}

// makeCmd is make TARGET in tree, as a person runs it but for the build,
// done already (-o build: whoever runs it builds with their own Go), with
// HOME and XDG_CONFIG_HOME in dir.
func makeCmd(tree, dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("make", append([]string{"-C", tree, "--no-print-directory", "-o", "build"}, args...)...)
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"))
	return cmd
}

func runMake(t *testing.T, tree, dir string, args ...string) string {
	t.Helper()
	out, err := makeCmd(tree, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("make %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// binaries are the names make build left in the tree's bin: what BINARIES lists.
func binaries(t *testing.T, tree string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(tree, "bin"))
	if err != nil || len(entries) == 0 {
		t.Fatalf("no binaries in %s/bin: %v", tree, err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func hasBar(tree string) bool {
	_, err := os.Stat(filepath.Join(tree, "bin", "wisp-bar"))
	return err == nil
}

// filesIn lists what dir holds, relative and sorted, but for the go
// command's own telemetry counters in XDG_CONFIG_HOME (the Makefile runs go
// env, which keeps them; make install writes nothing there).
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case rel == filepath.Join("config", "go"):
			return filepath.SkipDir
		case p != dir:
			out = append(out, rel)
		}
		return nil
	})
	// XDG_CONFIG_HOME itself, when go made it for its counters alone.
	if len(out) > 0 && out[0] == "config" && (len(out) == 1 || !strings.HasPrefix(out[1], "config"+string(filepath.Separator))) {
		out = out[1:]
	}
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// Where AppArmor restricts user namespaces (simulated, the sysctl reading
// 1), make install as a person says so and prints the one command that
// installs and loads the profile for the wisp it installed, and writes
// nothing outside PREFIX; make uninstall still leaves nothing.
func TestMakeInstallWhereUsernsAreRestricted(t *testing.T) {
	if !testenv.InRestrictedUsernsBySysctl(t, rerunEnv(t)...) {
		return
	}
	tree := builtTree(t)
	dir := t.TempDir()
	prefix := filepath.Join(dir, "local")
	out := runMake(t, tree, dir, "install", "PREFIX="+prefix)
	fix := "sudo install -m 0644 " + prefix + "/share/wisp/apparmor.d/wisp /etc/apparmor.d/wisp && sudo apparmor_parser -r /etc/apparmor.d/wisp"
	if !strings.Contains(out, "AppArmor restricts unprivileged user namespaces here") || !strings.Contains(out, fix) {
		t.Errorf("make install does not say the restriction and its fix %q:\n%s", fix, out)
	}
	if out, err := exec.Command("sh", filepath.Join(tree, "packaging/linux/apparmor.sh"), "restricted").CombinedOutput(); err != nil {
		t.Errorf("apparmor.sh restricted, which the .deb's postinst asks: %v\n%s", err, out)
	}
	if _, err := os.Stat("/etc/apparmor.d/wisp"); err == nil {
		t.Error("make install as a person wrote /etc/apparmor.d/wisp")
	}
	runMake(t, tree, dir, "uninstall", "PREFIX="+prefix)
	if left := filesIn(t, dir); len(left) > 0 {
		t.Fatalf("make uninstall left %s", strings.Join(left, ", "))
	}
}

// Root's make install where AppArmor restricts user namespaces installs
// wisp's profile for the wisp it installed as /etc/apparmor.d/wisp, loads
// it (apparmor_parser -r) and says so; make uninstall unloads it
// (apparmor_parser -R) and removes it. Simulated: /etc/apparmor.d is a
// tmpfs of the test's own, and apparmor_parser a stand-in that notes its
// arguments (no kernel here to load a profile into).
func TestMakeInstallAsRootLoadsTheProfile(t *testing.T) {
	if !testenv.InRestrictedUsernsAsRoot(t, rerunEnv(t)...) {
		return
	}
	tree, dir := builtTree(t), t.TempDir()
	bin, parserLog := filepath.Join(dir, "fakebin"), filepath.Join(dir, "parser.log")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$@\" >>'" + parserLog + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "apparmor_parser"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":"+os.Getenv("PATH"))
	prefix := filepath.Join(dir, "local")
	out := runMake(t, tree, dir, "install", "PREFIX="+prefix)
	if !strings.Contains(out, "wisp: installed and loaded the AppArmor profile /etc/apparmor.d/wisp") {
		t.Errorf("make install does not say it loaded the profile:\n%s", out)
	}
	profile, err := os.ReadFile("/etc/apparmor.d/wisp")
	if err != nil || !bytes.Contains(profile, []byte(`profile wisp "`+prefix+`/bin/wisp" flags=(unconfined) {`)) {
		t.Fatalf("/etc/apparmor.d/wisp: %v\n%s", err, profile)
	}
	runMake(t, tree, dir, "uninstall", "PREFIX="+prefix)
	calls, _ := os.ReadFile(parserLog)
	if string(calls) != "-r /etc/apparmor.d/wisp\n-R /etc/apparmor.d/wisp\n" {
		t.Errorf("apparmor_parser was run with\n%s\nwant -r on install, -R on uninstall", calls)
	}
	if _, err := os.Stat("/etc/apparmor.d/wisp"); err == nil {
		t.Error("make uninstall left /etc/apparmor.d/wisp")
	}
	if left := filesIn(t, dir); strings.Join(left, " ") != "fakebin fakebin/apparmor_parser parser.log" {
		t.Errorf("make uninstall left %s", strings.Join(left, ", "))
	}
}
