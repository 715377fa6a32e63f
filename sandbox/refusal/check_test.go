package refusal

import (
	"fmt"
	"strings"
	"testing"
)

// The scene of the table: one root /w/proj (a repository), the command ran
// in /w/proj/sub, home is /w/home, /w/link is a symlink to /w/proj.
var (
	tableRoots     = []string{"/w/proj"}
	tableProtected = []string{"/w/proj/.git/hooks", "/w/proj/.git/config", "/w/home/.wisp"}
	tableResolve   = linkResolver([]string{"/w/link -> /w/proj", "/tmp -> /private/tmp"})
)

type checkCase struct {
	name       string
	output     string
	networkOff bool
	roots      []string // tableRoots when nil
	verdict    Verdict
	paths      []string // every path checked
	refused    []string
	errno      string
}

func (c checkCase) input() Input {
	roots := c.roots
	if roots == nil {
		roots = tableRoots
	}
	return Input{Output: []byte(c.output), Dir: "/w/proj/sub", Home: "/w/home", Roots: roots,
		Protected: tableProtected, NetworkOff: c.networkOff, Resolve: tableResolve}
}

const eacces, eperm, erofs = "Permission denied", "Operation not permitted", "Read-only file system"

func refusedAt(name, output, errno string, paths ...string) checkCase {
	return checkCase{name: name, output: output, verdict: Refused, paths: paths, refused: paths, errno: errno}
}

func insideAt(name, output, errno string, paths ...string) checkCase {
	return checkCase{name: name, output: output, verdict: NotTheSandbox, paths: paths, errno: errno}
}

var shapeCases = []checkCase{
	refusedAt("dash redirect", "sh: 1: cannot create /w/out/x: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("dash as /bin/sh", "/bin/sh: 1: cannot create /w/out/x: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("dash, a space in the name", "sh: 1: cannot create /w/out/my file: Permission denied\n", eacces, "/w/out/my file"),
	insideAt("dash, a bare name", "sh: 1: cannot create out.log: Permission denied\n", eacces, "/w/proj/sub/out.log"),
	refusedAt("bash line", "bash: line 1: /w/out/x: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("bash", "bash: /w/out/x: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("sh line (macOS)", "sh: line 1: /w/out/x: Operation not permitted\n", eperm, "/w/out/x"),
	refusedAt("GNU touch", "touch: cannot touch '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("GNU touch, UTF-8 quotes", "touch: cannot touch ‘/w/out/x’: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("GNU cp", "cp: cannot create regular file '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("GNU mkdir", "mkdir: cannot create directory '/w/out/d': Read-only file system\n", erofs, "/w/out/d"),
	{name: "GNU mv", output: "mv: cannot move 'a' to '/w/out/a': Permission denied\n", verdict: Refused,
		paths: []string{"/w/proj/sub/a", "/w/out/a"}, refused: []string{"/w/out/a"}, errno: eacces},
	{name: "GNU mv, the source outside", output: "mv: cannot move '/w/out/a' to 'a': Permission denied\n", verdict: Refused,
		paths: []string{"/w/out/a", "/w/proj/sub/a"}, refused: []string{"/w/out/a"}, errno: eacces},
	{name: "BSD mv", output: "mv: rename a to /w/out/a: Operation not permitted\n", verdict: Refused,
		paths: []string{"/w/proj/sub/a", "/w/out/a"}, refused: []string{"/w/out/a"}, errno: eperm},
	refusedAt("GNU ln", "ln: failed to create symbolic link '/w/out/l': Permission denied\n", eacces, "/w/out/l"),
	refusedAt("GNU ln with its target", "ln: failed to create symbolic link '/w/out/l' -> '/usr/bin/x': Permission denied\n", eacces, "/w/out/l"),
	refusedAt("GNU rm", "rm: cannot remove '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("tee", "tee: /w/out/x: Permission denied\n", eacces, "/w/out/x"),
	insideAt("tee, a bare name", "tee: out: Permission denied\n", eacces, "/w/proj/sub/out"),
	refusedAt("dd", "dd: failed to open '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("install", "install: cannot create regular file '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("truncate", "truncate: cannot open '/w/out/x' for writing: Permission denied\n", eacces, "/w/out/x"),
	refusedAt("sed -i", "sed: couldn't open temporary file /w/out/sedAb12Cd: Permission denied\n", eacces, "/w/out/sedAb12Cd"),
	refusedAt("tar, an archive", "tar: /w/out/a.tar: Cannot open: Permission denied\ntar: Error is not recoverable: exiting now\n", eacces, "/w/out/a.tar"),
	refusedAt("tar (child)", "tar (child): ../../out/a.tgz: Cannot open: Permission denied\n", eacces, "/w/out/a.tgz"),
	{name: "tar, a member relative to -C", output: "tar: a.txt: Cannot open: Permission denied\n", verdict: Guess, errno: eacces},
	refusedAt("Python", "PermissionError: [Errno 13] Permission denied: '/w/out/x'\n", eacces, "/w/out/x"),
	refusedAt("Python, EROFS", "OSError: [Errno 30] Read-only file system: '/w/out/x'\n", erofs, "/w/out/x"),
	refusedAt("Python, EPERM", "PermissionError: [Errno 1] Operation not permitted: '/w/out/x'\n", eperm, "/w/out/x"),
	refusedAt("Python, a quote in the name", "PermissionError: [Errno 13] Permission denied: \"/w/out/it's\"\n", eacces, "/w/out/it's"),
	refusedAt("git mkdir", "fatal: cannot mkdir /w/out/r: Permission denied\n", eacces, "/w/out/r"),
	refusedAt("git work tree", "fatal: could not create work tree dir '/w/out/r': Permission denied\n", eacces, "/w/out/r"),
	refusedAt("git config lock", "error: could not lock config file /w/out/r/.git/config: Permission denied\n", eacces, "/w/out/r/.git/config"),
	{name: "git copying a template into a protected hooks dir", verdict: Refused,
		output: "fatal: cannot copy '/usr/share/git-core/templates/hooks/x' to '/w/proj/.git/hooks/x': Read-only file system\n",
		paths:  []string{"/w/proj/.git/hooks/x"}, refused: []string{"/w/proj/.git/hooks/x"}, errno: erofs},
	refusedAt("npm", "npm error code EACCES\nnpm error path /w/out/n\nnpm error Error: EACCES: permission denied, mkdir '/w/out/n'\n", eacces, "/w/out/n"),
	refusedAt("Node symlink", "Error: EACCES: permission denied, symlink '/usr/bin/x' -> '/w/out/l'\n", eacces, "/w/out/l"),
	refusedAt("perl die", "Cannot open /w/out/x: Permission denied at -e line 1.\n", eacces, "/w/out/x"),
	{name: "perl die, no path", output: "Permission denied at -e line 1.\n", verdict: Guess, errno: eacces},
	refusedAt("BSD touch", "touch: /w/out/x: Operation not permitted\n", eperm, "/w/out/x"),
	refusedAt("BSD mkdir", "mkdir: /w/out/d: Operation not permitted\n", eperm, "/w/out/d"),
	refusedAt("BSD cp", "cp: /w/out/x: Operation not permitted\n", eperm, "/w/out/x"),
	refusedAt("zsh", "zsh:1: permission denied: /w/out/x\n", eacces, "/w/out/x"),
	refusedAt("Go", "Error: open /w/out/x: operation not permitted\n", eperm, "/w/out/x"),
	refusedAt("Homebrew", "Error: The following directories are not writable by your user:\n/w/out/share\n\nYou should change the ownership\n", notWritable, "/w/out/share"),
}

var placeCases = []checkCase{
	refusedAt("relative with ..", "touch: cannot touch '../../out/x': Permission denied\n", eacces, "/w/out/x"),
	insideAt("relative with .. staying inside", "touch: cannot touch '../x': Permission denied\n", eacces, "/w/proj/x"),
	insideAt("./ relative", "bash: ./x: Permission denied\n", eacces, "/w/proj/sub/x"),
	refusedAt("~/ from the home", "cp: ~/x: Operation not permitted\n", eperm, "/w/home/x"),
	refusedAt("~ alone", "touch: cannot touch '~': Permission denied\n", eacces, "/w/home"),
	{name: "~user cannot be placed", output: "touch: cannot touch '~bob/x': Permission denied\n", verdict: Guess, errno: eacces},
	refusedAt("a root's name as a prefix", "touch: cannot touch '/w/project2/x': Permission denied\n", eacces, "/w/project2/x"),
	insideAt("the root itself", "touch: cannot touch '/w/proj': Permission denied\n", eacces, "/w/proj"),
	insideAt("a path through a symlink to the root", "touch: cannot touch '/w/link/x': Permission denied\n", eacces, "/w/proj/x"),
	{name: "a root given through a symlink", output: "touch: cannot touch '/w/proj/x': Permission denied\n", roots: []string{"/w/link"},
		verdict: NotTheSandbox, paths: []string{"/w/proj/x"}, errno: eacces},
	refusedAt("/tmp is /private/tmp, not a root here", "touch: /tmp/x: Operation not permitted\n", eperm, "/private/tmp/x"),
	{name: "/tmp is /private/tmp, a root", output: "touch: /tmp/x: Operation not permitted\n", roots: []string{"/private/tmp"},
		verdict: NotTheSandbox, paths: []string{"/private/tmp/x"}, errno: eperm},
	refusedAt("a protected path inside the root", "touch: cannot touch '/w/proj/.git/hooks/pre-commit': Read-only file system\n", erofs, "/w/proj/.git/hooks/pre-commit"),
	refusedAt("a protected file", "error: could not lock config file ../.git/config: Read-only file system\n", erofs, "/w/proj/.git/config"),
	insideAt("a protected path's name as a prefix", "touch: cannot touch '/w/proj/.git/hooksx': Permission denied\n", eacces, "/w/proj/.git/hooksx"),
	refusedAt("wisp's home", "PermissionError: [Errno 1] Operation not permitted: '/w/home/.wisp/approvals.json'\n", eperm, "/w/home/.wisp/approvals.json"),
	{name: "EBUSY on a protected file", output: "error: could not write config file ../.git/config: Device or resource busy\n",
		verdict: Refused, paths: []string{"/w/proj/.git/config"}, refused: []string{"/w/proj/.git/config"}, errno: "Device or resource busy"},
	{name: "EBUSY elsewhere", output: "rm: cannot remove '/w/out/mnt': Device or resource busy\n", verdict: None},
	{name: "one outside and one inside", verdict: Refused, errno: eacces,
		output: "touch: cannot touch 'a': Permission denied\ntouch: cannot touch '/w/out/b': Permission denied\n",
		paths:  []string{"/w/proj/sub/a", "/w/out/b"}, refused: []string{"/w/out/b"}},
	{name: "inside, and a line naming no path", verdict: Guess, errno: eacces,
		output: "touch: cannot touch 'a': Permission denied\nError: Permission denied\n", paths: []string{"/w/proj/sub/a"}},
	{name: "named twice, checked once", verdict: Refused, errno: eacces,
		output: "npm error path /w/out/n\nnpm error Error: EACCES: permission denied, mkdir '/w/out/n'\nnpm error  [Error: EACCES: permission denied, mkdir '/w/out/n'] {\n",
		paths:  []string{"/w/out/n"}, refused: []string{"/w/out/n"}},
	refusedAt("CRLF line ends", "touch: cannot touch '/w/out/x': Permission denied\r\n", eacces, "/w/out/x"),
	refusedAt("a progress line redrawn", "50%\r100%\rtouch: cannot touch '/w/out/x': Permission denied\n", eacces, "/w/out/x"),
	refusedAt("no final newline", "touch: cannot touch '/w/out/x': Permission denied", eacces, "/w/out/x"),
}

var noPathCases = []checkCase{
	{name: "ce87576a", output: "Error: Operation not permitted\n", verdict: Guess, errno: eperm},
	{name: "kill", output: "sh: 1: kill: Operation not permitted\n", verdict: Guess, errno: eperm},
	{name: "bash kill", output: "bash: kill: (1) - Operation not permitted\n", verdict: Guess, errno: eperm},
	{name: "network off: bash", output: "bash: connect: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/9: Permission denied\n", networkOff: true, verdict: Network, errno: eacces},
	{name: "network on: bash", output: "bash: connect: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/9: Permission denied\n", verdict: None},
	{name: "network off: curl", output: "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n", networkOff: true, verdict: Network, errno: eacces},
	{name: "network on: curl", output: "curl: (7) Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server\n", verdict: None},
	{name: "network off: git over https", output: "fatal: unable to access 'https://h/x/': Failed to connect to h port 443 after 1 ms: Permission denied\n", networkOff: true, verdict: Network, errno: eacces},
	{name: "network off: Python socket", output: "    sock.connect(sa)\nPermissionError: [Errno 13] Permission denied\n", networkOff: true, verdict: Network, errno: eacces},
	// Issue 32 item 6: the errno and the path decide, not the words near them.
	refusedAt("npm's EACCES beside the registry's URL", "npm error enoent Invalid response body while trying to fetch https://registry.npmjs.org/tape: EACCES: permission denied, open '/w/out/.npm/_cacache/tmp/abc'\n", eacces, "/w/out/.npm/_cacache/tmp/abc"),
	{name: "a URL beside a refused write, the network off", networkOff: true, verdict: Refused, errno: erofs,
		output: "npm error rofs Invalid response body while trying to fetch http://h/tape: EROFS: read-only file system, open '/w/out/t'\n",
		paths:  []string{"/w/out/t"}, refused: []string{"/w/out/t"}},
	{name: "a Unix socket dialled", output: "dial unix /run/user/1000/bus: socket: operation not permitted\n", verdict: RefusedSocket,
		paths: []string{"/run/user/1000/bus"}, errno: eperm},
	{name: "a Unix socket, the network off too", networkOff: true, output: "listen unixgram /w/proj/n.sock: socket: operation not permitted\n",
		verdict: RefusedSocket, paths: []string{"/w/proj/n.sock"}, errno: eperm},
	{name: "Go's TCP connect, the network off", networkOff: true, output: "dial tcp 10.0.0.1:443: connect: permission denied\n", verdict: Network, errno: eacces},
	{name: "Go's TCP connect, the network on", output: "dial tcp 10.0.0.1:443: connect: permission denied\n", verdict: None},
	{name: "a name not resolved, the network off", networkOff: true, output: "curl: (6) Could not resolve host: example.com\n", verdict: Network, errno: eacces},
	{name: "a name not resolved, the network on", output: "curl: (6) Could not resolve host: example.com\n", verdict: None},
	{name: "a refused write beats a refused connection", networkOff: true, verdict: Refused, errno: eacces,
		output: "curl: (7) Failed to connect to h port 80 after 0 ms: Couldn't connect to server\ntouch: cannot touch '/w/out/x': Permission denied\n",
		paths:  []string{"/w/out/x"}, refused: []string{"/w/out/x"}},
	{name: "a word in a path is not the network", output: "cp: cannot create regular file '/w/out/connect/connector.go': Permission denied\n",
		verdict: Refused, paths: []string{"/w/out/connect/connector.go"}, refused: []string{"/w/out/connect/connector.go"}, errno: eacces},
	{name: "ssh login", output: "git@github.com: Permission denied (publickey).\n", verdict: None},
	{name: "a refused read", output: "cat: /etc/shadow: Permission denied\nls: cannot open directory '/root': Permission denied\n", verdict: None},
	{name: "cd", output: "bash: line 1: cd: /root/x: Permission denied\n", verdict: None},
	{name: "find deleting is a write", output: "find: cannot delete '/w/out/x': Permission denied\n", verdict: Refused,
		paths: []string{"/w/out/x"}, refused: []string{"/w/out/x"}, errno: eacces},
	{name: "npm's path line for a failure of its own", output: "npm error code ENOENT\nnpm error path /w/out/package.json\nError: Permission denied\n", verdict: Guess, errno: eacces},
	{name: "no errno", output: "make: *** [Makefile:3: all] Error 1\n", verdict: None},
	{name: "a plain failure", output: "--- FAIL: TestX (0.00s)\n    x_test.go:9: got 1, want 2\nFAIL\n", verdict: None},
	{name: "empty", output: "", verdict: None},
	{name: "the errno's tail without its head", output: "xermission denied\n", verdict: None},
}

func TestCheckShapes(t *testing.T) { runCheckCases(t, shapeCases) }
func TestCheckPlaces(t *testing.T) { runCheckCases(t, placeCases) }
func TestCheckNoPath(t *testing.T) { runCheckCases(t, noPathCases) }

func runCheckCases(t *testing.T, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Check(c.input())
			got := fmt.Sprintf("%q paths=%q refused=%q errno=%q", r.Verdict, r.Paths, r.Refused, r.Errno)
			want := fmt.Sprintf("%q paths=%q refused=%q errno=%q", c.verdict, c.paths, c.refused, c.errno)
			if got != want {
				t.Errorf("output %q\n got %s\nwant %s", c.output, got, want)
			}
		})
	}
}

func TestCheckBoundsThePathsChecked(t *testing.T) {
	var out strings.Builder
	for i := range 200 {
		fmt.Fprintf(&out, "rm: cannot remove '/w/out/f%d': Permission denied\n", i)
	}
	r := Check(Input{Output: []byte(out.String()), Dir: "/w/proj", Roots: tableRoots, Resolve: tableResolve})
	if r.Verdict != Refused || len(r.Paths) != maxPaths || r.Paths[0] != "/w/out/f0" {
		t.Errorf("got %s with %d paths from %q, want refused with the first %d", r.Verdict, len(r.Paths), r.Paths[0], maxPaths)
	}
}

func TestCheckUsesRealPathByDefault(t *testing.T) {
	dir := realTempDir(t)
	link := symlinkTo(t, dir+"/proj", dir+"/link")
	r := Check(Input{Output: []byte("touch: cannot touch '" + link + "/x': Permission denied\n"), Dir: dir, Roots: []string{dir + "/proj"}})
	if r.Verdict != NotTheSandbox || len(r.Paths) != 1 || r.Paths[0] != dir+"/proj/x" {
		t.Errorf("got %+v, want not-the-sandbox for %s/proj/x", r, dir)
	}
}
