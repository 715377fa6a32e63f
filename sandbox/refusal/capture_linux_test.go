package refusal

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// captureCase is one real command run under the real Landlock sandbox.
// want holds the paths the check must find ($WORK is the workspace; a
// trailing * matches a prefix): the refused ones for Refused, every one
// otherwise.
type captureCase struct {
	name, line   string
	dir          string // relative to the workspace; "root" when empty
	lang         string // LANG; "C" when empty (ASCII quotes)
	networkOff   bool
	unprivileged bool
	needs        string // programs that must be installed; "root" for the read-only binds, "chattr" for a file flag
	verdict      Verdict
	want         []string
}

var captureCases = []captureCase{
	// Writes outside the roots: Landlock's EACCES.
	{name: "sh-redirect", line: `echo hi > "$OUT/redir"`, verdict: Refused, want: []string{"$WORK/outside/redir"}},
	{name: "sh-redirect-relative", line: `echo hi > ../outside/rel`, verdict: Refused, want: []string{"$WORK/outside/rel"}},
	{name: "bash-redirect", line: `bash -c 'echo hi > "$OUT/bash-redir"'`, verdict: Refused, want: []string{"$WORK/outside/bash-redir"}},
	{name: "touch", line: `touch "$OUT/touched"`, verdict: Refused, want: []string{"$WORK/outside/touched"}},
	{name: "touch-utf8", line: `touch "$OUT/touched"`, lang: "C.UTF-8", verdict: Refused, want: []string{"$WORK/outside/touched"}},
	{name: "touch-relative-dotdot", line: `touch ../outside/rel`, verdict: Refused, want: []string{"$WORK/outside/rel"}},
	{name: "touch-home", line: `touch ~/.probe`, verdict: Refused, want: []string{"$WORK/home/.probe"}},
	{name: "mkdir", line: `mkdir "$OUT/newdir"`, verdict: Refused, want: []string{"$WORK/outside/newdir"}},
	{name: "mkdir-p-utf8", line: `mkdir -p "$OUT/new/deeper"`, lang: "C.UTF-8", verdict: Refused, want: []string{"$WORK/outside/new"}},
	{name: "cp", line: `cp a.txt "$OUT/"`, verdict: Refused, want: []string{"$WORK/outside/a.txt"}},
	{name: "cp-r", line: `cp -r ro "$OUT/ro-copy"`, verdict: Refused, want: []string{"$WORK/outside/ro-copy"}},
	{name: "mv-out", line: `mv a.txt "$OUT/"`, verdict: Refused, want: []string{"$WORK/outside/a.txt"}},
	{name: "mv-in", line: `mv "$OUT/existing.txt" moved.txt`, verdict: Refused, want: []string{"$WORK/outside/existing.txt"}},
	{name: "ln-s", line: `ln -s a.txt "$OUT/link"`, verdict: Refused, want: []string{"$WORK/outside/link"}},
	{name: "rm", line: `rm "$OUT/existing.txt"`, verdict: Refused, want: []string{"$WORK/outside/existing.txt"}},
	{name: "rm-rf", line: `rm -rf "$OUT/tree"`, verdict: Refused, want: []string{"$WORK/outside/tree/a/b/g", "$WORK/outside/tree/a/f"}},
	{name: "tee", line: `echo hi | tee "$OUT/teed"`, verdict: Refused, want: []string{"$WORK/outside/teed"}},
	{name: "dd", line: `dd if=/dev/zero of="$OUT/dd" bs=1 count=1`, verdict: Refused, want: []string{"$WORK/outside/dd"}},
	{name: "install", line: `install a.txt "$OUT/installed"`, verdict: Refused, want: []string{"$WORK/outside/installed"}},
	// install -d hides its mkdir's EACCES and reports the chmod after it.
	{name: "install-d", line: `install -d "$OUT/idir"`, verdict: None},
	{name: "truncate", line: `truncate -s 0 "$OUT/existing.txt"`, verdict: Refused, want: []string{"$WORK/outside/existing.txt"}},
	{name: "tar-create", line: `tar -cf "$OUT/a.tar" a.txt`, verdict: Refused, want: []string{"$WORK/outside/a.tar"}},
	{name: "tar-extract-C", line: `tar -cf tmp/a.tar a.txt && tar -xf tmp/a.tar -C "$OUT"`, verdict: Guess},
	{name: "python-open", line: `python3 -c 'open("'"$OUT"'/py", "w")'`, needs: "python3", verdict: Refused, want: []string{"$WORK/outside/py"}},
	{name: "python-mkdir-relative", line: `python3 -c 'import os; os.mkdir("../outside/pydir")'`, needs: "python3", verdict: Refused, want: []string{"$WORK/outside/pydir"}},
	{name: "python-rename", line: `python3 -c 'import os; os.rename("a.txt", "'"$OUT"'/renamed")'`, needs: "python3", verdict: Refused, want: []string{"$WORK/outside/renamed"}},
	{name: "git-init", line: `git init -q "$OUT/repo"`, needs: "git", verdict: Refused, want: []string{"$WORK/outside/repo"}},
	{name: "git-clone", line: `git clone -q src "$OUT/clone"`, needs: "git", verdict: Refused, want: []string{"$WORK/outside/clone"}},
	{name: "perl-die-path", line: `perl -e 'open(my $f, ">", "$ENV{OUT}/perl") or die "Cannot open $ENV{OUT}/perl: $!"'`, needs: "perl", verdict: Refused, want: []string{"$WORK/outside/perl"}},
	{name: "perl-die-bare", line: `perl -e 'open(my $f, ">", "$ENV{OUT}/perl") or die "$!"'`, needs: "perl", verdict: Guess},
	{name: "sed-i", line: `sed -i s/a/b/ "$OUT/existing.txt"`, verdict: Refused, want: []string{"$WORK/outside/sed*"}},
	{name: "npm-install", line: `npm install --offline --no-audit --no-fund --prefix "$OUT/npmproj" ./pkg`, needs: "npm", verdict: Refused, want: []string{"$WORK/outside/npmproj"}},

	// Protected paths inside the root: the read-only bind's EROFS.
	{name: "protected-hook", line: `touch .git/hooks/pre-commit`, needs: "root", verdict: Refused, want: []string{"$WORK/root/.git/hooks/pre-commit"}},
	{name: "protected-hook-redirect", line: `echo '#!/bin/sh' > "$ROOT/.git/hooks/post-checkout"`, needs: "root", verdict: Refused, want: []string{"$WORK/root/.git/hooks/post-checkout"}},
	// git renames .git/config.lock onto the bound file: EBUSY.
	{name: "protected-git-config", line: `git config user.name x`, needs: "git root", verdict: Refused, want: []string{"$WORK/root/.git/config"}},

	// Inside the roots, refused by something else.
	{name: "readonly-mount", line: `touch ro/x`, needs: "root", verdict: NotTheSandbox, want: []string{"$WORK/root/ro/x"}},
	{name: "readonly-mount-mkdir-utf8", line: `mkdir ro/d`, lang: "C.UTF-8", needs: "root", verdict: NotTheSandbox, want: []string{"$WORK/root/ro/d"}},
	{name: "immutable-redirect", line: `echo x > immutable`, needs: "chattr", verdict: NotTheSandbox, want: []string{"$WORK/root/immutable"}},
	{name: "immutable-python", line: `python3 -c 'open("immutable", "w")'`, needs: "python3 chattr", verdict: NotTheSandbox, want: []string{"$WORK/root/immutable"}},
	{name: "immutable-rm", line: `rm -f immutable`, needs: "chattr", verdict: NotTheSandbox, want: []string{"$WORK/root/immutable"}},
	{name: "symlinked-root", line: `touch "$LINKROOT/ro/y"`, dir: "link-root", needs: "root", verdict: NotTheSandbox, want: []string{"$WORK/root/ro/y"}},
	{name: "unprivileged-locked-dir", line: `touch locked/x`, unprivileged: true, verdict: NotTheSandbox, want: []string{"$WORK/root/locked/x"}},
	{name: "unprivileged-outside", line: `touch "$OUT/by-user"`, unprivileged: true, verdict: Refused, want: []string{"$WORK/outside/by-user"}},

	// No path to check: a process.
	{name: "kill-outside-domain", line: `kill -0 "$PARENT"`, verdict: Guess},

	// A connection with the network off: the sandbox's, named as such.
	{name: "net-off-curl", line: `curl -sS http://127.0.0.1:9/`, needs: "curl", networkOff: true, verdict: Network},
	{name: "net-off-curl-name", line: `curl -sS http://registry.npmjs.org/`, needs: "curl", networkOff: true, verdict: Network},
	{name: "net-off-git", line: `git ls-remote http://127.0.0.1:9/x`, needs: "git", networkOff: true, verdict: Network},
	{name: "net-off-npm", line: `npm view left-pad --registry http://127.0.0.1:9/ --fetch-retries=0 --offline=false`, needs: "npm", networkOff: true, verdict: Network},
	{name: "net-off-bash-dev-tcp", line: `bash -c 'echo > /dev/tcp/127.0.0.1/9'`, networkOff: true, verdict: Network},
	{name: "net-off-python-socket", line: `python3 -c 'import socket; socket.create_connection(("127.0.0.1", 9))'`, needs: "python3", networkOff: true, verdict: Network},
	{name: "net-off-ssh", line: `ssh -o BatchMode=yes -p 9 git@127.0.0.1 true`, needs: "ssh", networkOff: true, verdict: Network},

	// No verdict: the network on (nothing listening), a plain failure.
	{name: "net-on-curl", line: `curl -sS http://127.0.0.1:9/`, needs: "curl", verdict: None},
	{name: "net-on-git", line: `git ls-remote http://127.0.0.1:9/x`, needs: "git", verdict: None},
	{name: "net-on-bash-dev-tcp", line: `bash -c 'echo > /dev/tcp/127.0.0.1/9'`, verdict: None},
	{name: "grep-no-match", line: `grep nothing-here a.txt`, verdict: None},
	{name: "false", line: `touch fine && false`, verdict: None},
	{name: "cat-missing", line: `cat no-such-file`, verdict: None},
}

// TestCaptureCorpus runs each case under the real Landlock sandbox and
// checks the verdict on what the real tool printed; with -update it also
// writes the output as a fixture for TestCorpus.
func TestCaptureCorpus(t *testing.T) {
	testenv.NeedKernel(t, landlockABI() >= 6, "Landlock ABI 6 (files, TCP, signal scoping) is needed to capture refusals")
	ws := newWorkspace(t)
	for _, c := range captureCases {
		t.Run(c.name, func(t *testing.T) {
			if missing := ws.missing(c.needs); missing != "" {
				t.Skip(missing)
			}
			var uid, gid int
			if c.unprivileged {
				uid, gid = testenv.NeedUnprivileged(t)
				ws.openToOthers(t)
			}
			out := ws.run(t, c, uid, gid)
			r := Check(ws.input(c, out))
			ws.checkCaptured(t, c, out, r)
			if *update {
				writeFixture(t, "linux-"+c.name, ws.fixture(c, out, r))
			}
		})
	}
}

// missing says what a case needs that is not here.
func (ws workspace) missing(needs string) string {
	for _, need := range strings.Fields(needs) {
		switch {
		case need == "root" && os.Geteuid() != 0:
			return "the read-only binds need root (a mount namespace)"
		case need == "chattr" && !ws.immutable:
			return "this file system has no immutable flag (chattr +i)"
		case need != "root" && need != "chattr":
			if _, err := exec.LookPath(need); err != nil {
				return need + " is not installed"
			}
		}
	}
	return ""
}

// checkCaptured: the verdict, and each wanted path among the refused ones
// (or, for other verdicts, among those checked), no more and no fewer.
func (ws workspace) checkCaptured(t *testing.T, c captureCase, out []byte, r Result) {
	t.Helper()
	got := r.Paths
	if c.verdict == Refused {
		got = r.Refused
	}
	ok := r.Verdict == c.verdict && len(got) == len(c.want)
	for i := 0; ok && i < len(got); i++ {
		ok = matchesWant(got[i], strings.ReplaceAll(c.want[i], "$WORK", ws.dir))
	}
	if !ok {
		t.Errorf("%s printed:\n%s\ngot %q %q, want %q %q", c.line, out, r.Verdict, got, c.verdict, c.want)
	}
}

func matchesWant(got, want string) bool {
	if prefix, ok := strings.CutSuffix(want, "*"); ok {
		return strings.HasPrefix(got, prefix)
	}
	return got == want
}

func (ws workspace) input(c captureCase, out []byte) Input {
	return Input{Output: out, Dir: ws.dirOf(c), Home: ws.home, Roots: ws.rootsOf(c), Protected: ws.protected, NetworkOff: c.networkOff}
}

func (ws workspace) rootsOf(c captureCase) []string {
	if c.dir == "link-root" {
		return []string{ws.link}
	}
	return ws.roots
}

// fixture records the capture with the workspace written as $WORK.
func (ws workspace) fixture(c captureCase, out []byte, r Result) fixture {
	in := ws.input(c, out)
	lang := c.lang
	if lang == "" {
		lang = "C"
	}
	f := fixture{
		comment: fmt.Sprintf("Captured by TestCaptureCorpus/%s under Landlock ABI %d (LANG=%s, uid %s).", c.name, landlockABI(), lang, map[bool]string{true: "unprivileged", false: "0"}[c.unprivileged]),
		command: c.line, goos: "linux", dir: in.Dir, home: in.Home, roots: in.Roots, protected: in.Protected,
		links: []string{ws.link + " -> " + ws.root}, networkOff: c.networkOff, verdict: r.Verdict,
		paths: r.Paths, refused: r.Refused, errno: r.Errno, model: r.ModelLine(in.Roots, true),
		person: r.PersonNote(in.Roots), output: out,
	}
	return f.replace(ws.dir, "$WORK")
}
