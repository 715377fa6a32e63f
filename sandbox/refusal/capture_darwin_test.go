package refusal

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/seatbelt"
)

// macCase is one real macOS tool run under the real Seatbelt profile. want
// holds the paths the check must find, as for Linux ($WORK the workspace,
// $BREW Homebrew's prefix; a trailing * matches a prefix).
type macCase struct {
	name, line string
	networkOff bool
	needs      string // programs that must be installed
	verdict    Verdict
	want       []string
}

// macCases are the corpus of decision D9 on a Mac: BSD's tools, zsh, the
// interpreters and git, each refused writing outside the root or into a
// protected path, and Homebrew's not-writable list.
var macCases = []macCase{
	{name: "sh-redirect", line: `echo hi > "$OUT/redir"`, verdict: Refused, want: []string{"$WORK/outside/redir"}},
	{name: "zsh-redirect", line: `zsh -c 'echo hi > "$OUT/zsh-redir"'`, needs: "zsh", verdict: Refused, want: []string{"$WORK/outside/zsh-redir"}},
	{name: "touch", line: `touch "$OUT/touched"`, verdict: Refused, want: []string{"$WORK/outside/touched"}},
	{name: "touch-relative-dotdot", line: `touch ../outside/rel`, verdict: Refused, want: []string{"$WORK/outside/rel"}},
	{name: "mkdir", line: `mkdir "$OUT/newdir"`, verdict: Refused, want: []string{"$WORK/outside/newdir"}},
	{name: "cp", line: `cp a.txt "$OUT/"`, verdict: Refused, want: []string{"$WORK/outside/a.txt"}},
	{name: "mv-out", line: `mv a.txt "$OUT/"`, verdict: Refused, want: []string{"$WORK/outside/a.txt"}},
	{name: "rm", line: `rm "$OUT/existing.txt"`, verdict: Refused, want: []string{"$WORK/outside/existing.txt"}},
	{name: "tee", line: `echo hi | tee "$OUT/teed"`, verdict: Refused, want: []string{"$WORK/outside/teed"}},
	{name: "dd", line: `dd if=/dev/zero of="$OUT/dd" bs=1 count=1`, verdict: Refused, want: []string{"$WORK/outside/dd"}},
	{name: "python-open", line: `python3 -c 'open("'"$OUT"'/py", "w")'`, needs: "python3", verdict: Refused, want: []string{"$WORK/outside/py"}},
	{name: "perl-die-path", line: `perl -e 'open(my $f, ">", "$ENV{OUT}/perl") or die "Cannot open $ENV{OUT}/perl: $!"'`, needs: "perl", verdict: Refused, want: []string{"$WORK/outside/perl"}},
	{name: "git-init", line: `git init -q "$OUT/repo"`, needs: "git", verdict: Refused, want: []string{"$WORK/outside/repo*"}},
	{name: "protected-hook", line: `touch .git/hooks/pre-commit`, verdict: Refused, want: []string{"$WORK/root/.git/hooks/pre-commit"}},
	{name: "protected-git-config", line: `git config user.name x`, needs: "git", verdict: Refused, want: []string{"$WORK/root/.git/config*"}},
	{name: "brew-install", line: `brew install --quiet hello`, needs: "brew", verdict: Refused, want: []string{"$BREW/*"}},
	{name: "net-off-curl", line: `curl -sS http://127.0.0.1:9/`, needs: "curl", networkOff: true, verdict: Guess},
	{name: "net-on-curl", line: `curl -sS http://127.0.0.1:9/`, needs: "curl", verdict: None},
	{name: "cat-missing", line: `cat no-such-file`, verdict: None},
}

// TestCaptureCorpusMacOS runs each case under the real Seatbelt profile,
// through sandbox-exec, and checks the verdict on what the real tool
// printed; with -update it also writes the output as a fixture,
// darwin-captured-NAME.txt, which TestCorpus then checks on every system.
// A tool that is not installed is a failure under WISP_REQUIRE_KERNEL=1,
// but brew, which a Mac need not have.
func TestCaptureCorpusMacOS(t *testing.T) {
	_, err := os.Stat(sandbox.SeatbeltExec)
	testenv.NeedKernel(t, err == nil && !sandbox.Nested(), "sandbox-exec is missing, or the tests run inside another sandbox")
	ws := newMacWorkspace(t)
	for _, c := range macCases {
		t.Run(c.name, func(t *testing.T) {
			for _, need := range strings.Fields(c.needs) {
				if _, err := exec.LookPath(need); err != nil {
					if need == "brew" {
						t.Skip("Homebrew is not installed here")
					}
					testenv.NeedKernel(t, false, need+" is not installed")
				}
			}
			out := ws.run(t, c)
			r := Check(Input{Output: out, Dir: ws.root, Home: ws.home, Roots: ws.roots, Protected: ws.protected, NetworkOff: c.networkOff})
			got := r.Paths
			if c.verdict == Refused {
				got = r.Refused
			}
			if r.Verdict != c.verdict || !macPathsMatch(got, c.want, ws) {
				t.Errorf("%s printed:\n%s\ngot %q %q, want %q %q", c.line, out, r.Verdict, got, c.verdict, c.want)
			}
			if *update {
				writeFixture(t, "darwin-captured-"+c.name, ws.fixture(c, out, r))
			}
		})
	}
}

// macPathsMatch: one wanted path a found one, or, for a prefix, every
// found path under it (Homebrew lists as many folders as it checks).
func macPathsMatch(got, want []string, ws macWorkspace) bool {
	if len(want) == 1 && strings.HasSuffix(want[0], "/*") {
		prefix := strings.TrimSuffix(ws.expand(want[0]), "*")
		for _, g := range got {
			if !strings.HasPrefix(g, prefix) {
				return false
			}
		}
		return len(got) > 0
	}
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		w := ws.expand(want[i])
		if prefix, ok := strings.CutSuffix(w, "*"); ok && !strings.HasPrefix(got[i], prefix) || !ok && got[i] != w {
			return false
		}
	}
	return true
}

// macWorkspace is W/root (a repository: its hooks and config protected,
// the one writable root but the temporary folder the tools need),
// W/outside, and W/home as HOME.
type macWorkspace struct {
	dir, root, outside, home, brew string
	roots, protected               []string
}

func newMacWorkspace(t *testing.T) macWorkspace {
	t.Helper()
	w, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := macWorkspace{dir: w, root: w + "/root", outside: w + "/outside", home: w + "/home"}
	ws.roots = []string{ws.root}
	ws.protected = []string{ws.root + "/.git/hooks", ws.root + "/.git/config"}
	for _, d := range []string{"root/tmp", "outside", "home"} {
		if err := os.MkdirAll(filepath.Join(w, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"root/a.txt", "outside/existing.txt"} {
		if err := os.WriteFile(filepath.Join(w, f), []byte("a\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("git", "init", "-q", ws.root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	if out, err := exec.Command("brew", "--prefix").Output(); err == nil {
		ws.brew, _ = filepath.EvalSymlinks(strings.TrimSpace(string(out)))
	}
	return ws
}

func (ws macWorkspace) expand(p string) string {
	return strings.NewReplacer("$WORK", ws.dir, "$BREW", ws.brew).Replace(p)
}

// run runs the line as wisp would on a Mac: sandbox-exec with the profile
// for the workspace's spec, in the root, with a plain environment.
func (ws macWorkspace) run(t *testing.T, c macCase) []byte {
	t.Helper()
	spec := sandbox.Spec{Roots: ws.roots, Protected: ws.protected, Network: !c.networkOff}
	argv, err := seatbelt.Backend{}.Command(spec, c.line)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = ws.root
	cmd.Env = []string{
		"PATH=/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin", "HOME=" + ws.home, "TMPDIR=" + ws.root + "/tmp",
		"LANG=C", "OUT=" + ws.outside, "ROOT=" + ws.root, "PARENT=" + strconv.Itoa(os.Getpid()),
		"GIT_CONFIG_NOSYSTEM=1", "HOMEBREW_NO_AUTO_UPDATE=1", "HOMEBREW_NO_ANALYTICS=1",
		"HOMEBREW_NO_ENV_HINTS=1", "HOMEBREW_CACHE=" + ws.root + "/tmp/brew-cache",
		"HOMEBREW_LOGS=" + ws.root + "/tmp/brew-logs", "HOMEBREW_TEMP=" + ws.root + "/tmp",
	}
	out, _ := cmd.CombinedOutput()
	return out
}

// fixture records the capture with the workspace written as $WORK.
func (ws macWorkspace) fixture(c macCase, out []byte, r Result) fixture {
	f := fixture{
		comment: fmt.Sprintf("Captured by TestCaptureCorpusMacOS/%s under Seatbelt (LANG=C, uid %d).", c.name, os.Geteuid()),
		command: c.line, goos: "darwin", dir: ws.root, home: ws.home, roots: ws.roots, protected: ws.protected,
		networkOff: c.networkOff, verdict: r.Verdict, paths: r.Paths, refused: r.Refused, errno: r.Errno,
		model: r.ModelLine(ws.roots, true), person: r.PersonNote(ws.roots), output: out,
	}
	return f.replace(ws.dir, "$WORK")
}
