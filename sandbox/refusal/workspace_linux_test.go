package refusal

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// workspace is the scene a capture runs in: W/root is the one writable
// root (a repository, so .git/hooks and .git/config are protected), W/outside
// lies outside it, W/home is HOME, W/link-root is a symlink to the root.
type workspace struct {
	dir                        string // W, a real path
	root, outside, home, link  string
	protected, readOnly, roots []string
	immutable                  bool // root/immutable carries the flag
}

func newWorkspace(t *testing.T) workspace {
	t.Helper()
	w, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := workspace{dir: w, root: w + "/root", outside: w + "/outside", home: w + "/home", link: w + "/link-root"}
	ws.roots = []string{ws.root}
	ws.protected = []string{ws.root + "/.git/hooks", ws.root + "/.git/config"}
	ws.readOnly = append([]string{ws.root + "/ro"}, ws.protected...)
	for _, d := range []string{"root/ro", "root/tmp", "root/locked", "outside/tree/a/b", "home"} {
		must(t, os.MkdirAll(filepath.Join(w, d), 0o755))
	}
	for _, f := range []string{"root/a.txt", "root/immutable", "outside/existing.txt", "outside/tree/a/f", "outside/tree/a/b/g"} {
		must(t, os.WriteFile(filepath.Join(w, f), []byte("a\n"), 0o644))
	}
	must(t, os.MkdirAll(ws.root+"/pkg", 0o755))
	must(t, os.WriteFile(ws.root+"/pkg/package.json", []byte(`{"name":"pkg","version":"1.0.0"}`), 0o644))
	must(t, os.Symlink(ws.root, ws.link))
	git(t, ws.root, "init", "-q")
	git(t, ws.root, "init", "-q", "src")
	ws.immutable = makeImmutable(t, ws.root+"/immutable")
	must(t, os.Chmod(ws.root+"/locked", 0o500))
	return ws
}

// makeImmutable sets the file flag (chattr +i) that refuses writes with
// EPERM inside a root, and clears it again so the directory can go.
func makeImmutable(t *testing.T, path string) bool {
	t.Helper()
	if out, err := exec.Command("chattr", "+i", path).CombinedOutput(); err != nil {
		t.Logf("chattr +i %s: %v: %s", path, err, out)
		return false
	}
	t.Cleanup(func() { _ = exec.Command("chattr", "-i", path).Run() })
	return true
}

// openToOthers lets an unprivileged user walk down to the workspace. It
// opens only the test's own directories, below the temporary directory.
func (ws workspace) openToOthers(t *testing.T) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	must(t, err)
	for d := ws.dir; d != "/" && d != "."; d = filepath.Dir(d) {
		info, err := os.Stat(d)
		must(t, err)
		if info.Mode().Perm()&0o005 == 0o005 {
			continue
		}
		if !within(d, tmp) || d == tmp {
			t.Skipf("%s is closed to other users; set TMPDIR to a directory they can reach", d)
		}
		must(t, os.Chmod(d, info.Mode().Perm()|0o005))
	}
	must(t, os.Chmod(ws.root, 0o777))
	must(t, os.Chmod(ws.root+"/tmp", 0o777))
}

// run runs line under the helper, as the sandbox will: the real kernel
// refuses, the real tools print.
func (ws workspace) run(t *testing.T, c captureCase, uid, gid int) []byte {
	t.Helper()
	spec := confineSpec{Line: c.line, Writable: []string{ws.root}, NetworkOff: c.networkOff, UID: uid, GID: gid}
	if os.Geteuid() == 0 {
		spec.ReadOnly = ws.readOnly // a mount namespace needs root; the cases that need it say so
	}
	raw, err := json.Marshal(spec)
	must(t, err)
	self, err := os.Executable()
	must(t, err)
	cmd := exec.Command(self)
	cmd.Dir = ws.dirOf(c)
	lang := c.lang
	if lang == "" {
		lang = "C"
	}
	cmd.Env = []string{
		confineEnv + "=" + string(raw), "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + ws.home,
		"TMPDIR=" + ws.root + "/tmp", "LANG=" + lang, "OUT=" + ws.outside, "ROOT=" + ws.root,
		"LINKROOT=" + ws.link, "PARENT=" + strconv.Itoa(os.Getpid()), "GIT_CONFIG_NOSYSTEM=1",
		"npm_config_cache=" + ws.root + "/tmp/npm", "npm_config_update_notifier=false",
	}
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "refusal test helper:") {
		t.Fatalf("the helper could not confine %q: %s", c.line, out)
	}
	return out
}

func (ws workspace) dirOf(c captureCase) string {
	if c.dir == "" {
		return ws.root
	}
	return filepath.Join(ws.dir, c.dir)
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
