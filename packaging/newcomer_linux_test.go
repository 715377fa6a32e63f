package packaging_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/dbustest"
)

// debianProfile is what Debian 12's /etc/skel/.profile does with PATH: it
// adds ~/.local/bin only if the folder exists at login.
const debianProfile = `# set PATH so it includes user's private bin if it exists
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
`

// account is a fresh login's home and PATH: the system's folders, none of
// the home's.
type account struct {
	home string
	path string
}

func freshAccount(t *testing.T, profile string) account {
	t.Helper()
	a := account{home: t.TempDir(), path: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
	if goBin, err := exec.LookPath("go"); err == nil {
		a.path += ":" + filepath.Dir(goBin) // make's go env, as the README's first line needs Go
	}
	if err := os.WriteFile(filepath.Join(a.home, ".profile"), []byte(profile), 0o644); err != nil {
		t.Fatal(err)
	}
	return a
}

// shell runs line with bash in dir as the account's login shell would,
// the build done already (it is root's, in the tree: -o build).
func (a account) shell(t *testing.T, dir, line string) (string, error) {
	t.Helper()
	// make as the person types it, but for the build: done already, by
	// root (the account cannot reach root's Go module cache).
	builtAlready := "make() { command make -o build --no-print-directory \"$@\"; }\n"
	cmd := exec.Command("bash", "-c", builtAlready+line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+a.home, "PATH="+a.path,
		"XDG_CONFIG_HOME="+filepath.Join(a.home, ".config"), "WISP_HOME=")
	cmd.WaitDelay = time.Minute // a process the line left running does not hold the test
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// readmeLine is the README's command for a person who is not root, as written.
func readmeLine(t *testing.T, tree string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(tree, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`(make install PREFIX=~/.local && [^`]+)`").FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README gives no command for a person who is not root (make install PREFIX=~/.local && ...)")
	}
	return string(m[1])
}

// The README's first command for a person who is not root, run as written
// on a fresh Debian account (~/.local/bin does not exist at login, so it is
// not on PATH), starts the chat; the install says what puts wisp on PATH,
// and doing what it says does. make uninstall with a PREFIX wisp was not
// installed with says so and which one it was; with the right one it stops
// the wisp-bar running from there, says what it removed and that ~/.wisp
// stays; a second time, that there was nothing to remove. One install for
// all of it: each costs seconds, twice (as root and as the person).
func TestReadmeFirstCommandOnAFreshDebianAccount(t *testing.T) {
	tree := builtTree(t)
	a := freshAccount(t, debianProfile)
	out, err := a.shell(t, tree, readmeLine(t, tree))
	if err != nil || !strings.Contains(out, "wisp chat · ") {
		t.Fatalf("the README's command %q: %v\n%s", readmeLine(t, tree), err, out)
	}
	bin := filepath.Join(a.home, ".local/bin")
	want := bin + " is not on your PATH, so the command wisp is not found yet.\n" +
		"Run it by its path now:  " + bin + "/wisp chat\n" +
		"Your ~/.profile adds " + bin + " to PATH when it exists at login: it does now, so log in again, or run  . ~/.profile  in this shell.\n"
	if !strings.Contains(out, want) {
		t.Errorf("make install does not say\n%s\nit said:\n%s", want, out)
	}
	if found, _ := a.shell(t, a.home, ". ~/.profile && command -v wisp"); strings.TrimSpace(found) != bin+"/wisp" {
		t.Errorf("after . ~/.profile, command -v wisp says %q, want %s/wisp", found, bin)
	}
	a.path = bin + ":" + a.path // a new login
	uninstallWithTheWrongPrefix(t, tree, a)
	if hasBar(tree) {
		uninstallStopsWispBar(t, tree, a)
	} else {
		a.shell(t, tree, "make uninstall PREFIX=~/.local")
	}
	out, err = a.shell(t, tree, "make uninstall PREFIX=~/.local")
	if want := "nothing to remove: no record of an install in " + a.home + "/.local (" + a.home + "/.local/share/wisp/installed), and no wisp in " + bin + "\n"; err != nil || !strings.Contains(out, want) {
		t.Errorf("a second make uninstall: %v; it does not say %q:\n%s", err, want, out)
	}
}

func uninstallWithTheWrongPrefix(t *testing.T, tree string, a account) {
	t.Helper()
	out, err := a.shell(t, tree, "make uninstall PREFIX=~/elsewhere")
	want := "the wisp on your PATH is " + a.home + "/.local/bin/wisp: to remove that one, make uninstall PREFIX=" + a.home + "/.local\n"
	if err != nil || !strings.Contains(out, "nothing to remove: ") || !strings.Contains(out, want) {
		t.Errorf("make uninstall with the wrong PREFIX: %v; want %q:\n%s", err, want, out)
	}
}

// uninstallStopsWispBar runs the installed wisp-bar, then make uninstall.
func uninstallStopsWispBar(t *testing.T, tree string, a account) {
	t.Helper()
	// The bus's socket path must fit in 108 bytes: not under the test's own
	// folder, deep in the unprivileged user's run.
	t.Setenv("TMPDIR", "/tmp")
	bus := dbustest.StartSessionBus(t)
	bar := exec.Command(filepath.Join(a.home, ".local/bin/wisp-bar"))
	bar.Env = append(os.Environ(), "HOME="+a.home, "WISP_HOME=", "DBUS_SESSION_BUS_ADDRESS="+bus)
	if err := bar.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { bar.Wait(); close(exited) }()
	t.Cleanup(func() { bar.Process.Kill(); <-exited })
	out, err := a.shell(t, tree, "make uninstall PREFIX=~/.local")
	for _, line := range []string{"stopped wisp-bar (pid " + strconv.Itoa(bar.Process.Pid) + ")\n",
		"removed " + a.home + "/.local/bin/wisp\n", "removed what make install wrote for " + a.home + "/.local\n",
		"kept " + a.home + "/.wisp (your configuration, conversations, approvals and audit log): to remove it too, rm -rf " + a.home + "/.wisp\n"} {
		if err != nil || !strings.Contains(out, line) {
			t.Errorf("make uninstall: %v; it does not say %q:\n%s", err, line, out)
		}
	}
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		t.Error("wisp-bar still runs after make uninstall")
	}
}

// checkProfileLine checks that make install, into a PREFIX whose bin is not
// on PATH and that ~/.profile does not add, gave the line to add to
// ~/.profile, and that the line, run as a login shell runs it, finds wisp.
func checkProfileLine(t *testing.T, out, prefix string) {
	t.Helper()
	intro := "To find it by name, add this line to ~/.profile:\n    "
	i := strings.Index(out, intro)
	if i < 0 {
		t.Errorf("make install into %s, not on PATH, does not say the line to add to ~/.profile:\n%s", prefix, out)
		return
	}
	line, rest, _ := strings.Cut(out[i+len(intro):], "\n")
	if !strings.HasPrefix(rest, "then log in again, or run  . ~/.profile  in this shell.\n") {
		t.Errorf("make install does not say how the line takes effect:\n%s", out)
	}
	found, err := exec.Command("sh", "-c", "PATH=/usr/bin:/bin; "+line+"\ncommand -v wisp").Output()
	if err != nil || strings.TrimSpace(string(found)) != prefix+"/bin/wisp" {
		t.Errorf("with %s, command -v wisp says %q (%v), want %s/bin/wisp", line, found, err, prefix)
	}
}
