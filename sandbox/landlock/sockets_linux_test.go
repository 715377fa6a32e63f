package landlock

import (
	"os"
	"slices"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/wisp-sh/wisp/sandbox"
)

// TestParseNetUnix: the sockets bound to a path are read with their
// inode, a connection (each accepted one repeats its server's path) apart
// from a listener, and neither a socket never bound nor an abstract one is
// taken for a path; a path with a space stays whole.
func TestParseNetUnix(t *testing.T) {
	data := []byte(`Num       RefCount Protocol Flags    Type St Inode Path
00000000d9c614a1: 00000002 00000000 00010000 0001 01 5365937 /tmp/.X11-unix/X0
00000000332ba327: 00000003 00000000 00000000 0001 03 5365956 /tmp/.X11-unix/X0
0000000000d7a58c: 00000002 00000000 00000000 0002 01 1234 /run/systemd/notify
0000000000d7a58d: 00000003 00000000 00000000 0001 03 99
0000000000d7a58e: 00000002 00000000 00010000 0001 01 77 @/tmp/dbus-abc
0000000000d7a58f: 00000002 00000000 00010000 0001 01 78 /home/p/my sock
0000000000d7a590: 00000002 00000000 00010000 0001 01 79 relative.sock
`)
	got := parseNetUnix(data)
	want := []boundSocket{
		{path: "/tmp/.X11-unix/X0", inode: 5365937, open: true},
		{path: "/tmp/.X11-unix/X0", inode: 5365956, open: false},
		{path: "/run/systemd/notify", inode: 1234, open: true},
		{path: "/home/p/my sock", inode: 78, open: true},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("parsed %+v, want %+v", got, want)
	}
}

// TestSocketHomes: the folders of the person's sockets come from wisp's
// own environment, and never a folder that holds much else (/, /tmp,
// $TMPDIR, the home), whose sockets are hidden one by one instead.
func TestSocketHomes(t *testing.T) {
	env := map[string]string{
		"XDG_RUNTIME_DIR": "/run/user/1000",
		"SSH_AUTH_SOCK":   "/tmp/ssh-XXXXabc/agent.42",
		"TMUX":            "/tmp/tmux-1000/default,1234,0",
		"TMPDIR":          "/var/tmp/p",
	}
	got := socketHomes(func(k string) string { return env[k] }, 1000, "/home/p")
	for _, want := range []string{"/run/user", "/run/user/1000", "/tmp/.X11-unix", "/tmp/tmux-1000", "/tmp/ssh-XXXXabc", "/home/p/.docker/run"} {
		if !slices.Contains(got, want) {
			t.Errorf("socket homes %q lack %s", got, want)
		}
	}
	for _, agent := range []string{"/tmp/agent.sock", "/home/p/agent.sock", "/var/tmp/p/agent.sock", "/agent.sock", "relative/agent"} {
		env["SSH_AUTH_SOCK"] = agent
		for _, h := range socketHomes(func(k string) string { return env[k] }, 1000, "/home/p") {
			if h == "/" || h == "/tmp" || h == "/home/p" || h == "/var/tmp/p" || h == "relative" {
				t.Errorf("with SSH_AUTH_SOCK=%s, %s is a socket home", agent, h)
			}
		}
	}
}

// TestCoverableHomes: a home that holds a root, lies in a secret folder,
// wisp's home or another home (a cover over /run/user hides
// /run/user/1000: a second cover there would find no folder), or is not a
// folder here, is not covered.
func TestCoverableHomes(t *testing.T) {
	dir := t.TempDir()
	h := helperArgs{
		roots:       []string{dir + "/proj"},
		denyRead:    []string{dir + "/secret"},
		socketHomes: []string{dir, dir + "/secret/agent", dir + "/missing", dir + "/run/user/1000", dir + "/run", dir + "/x/y"},
	}
	for _, d := range []string{dir + "/proj", dir + "/secret/agent", dir + "/run/user/1000", dir + "/x"} {
		mustMkdirAll(t, d)
	}
	if got := coverableHomes(h); !slices.Equal(got, []string{dir + "/run"}) {
		t.Fatalf("coverable %q, want only %s/run", got, dir)
	}
}

// TestResolveUnixOnlyByDomain: Landlock's right to connect to a socket by
// path is handled only where it keeps the person's sockets (ABI 9), and
// never granted, not even in a root: a command's own sockets are reachable
// without it, and ssh-agent's in /tmp must not be.
func TestResolveUnixOnlyByDomain(t *testing.T) {
	f := sandbox.LandlockFeaturesOf(9, true)
	for _, tc := range []struct {
		guard   sandbox.UnixGuard
		handled bool
	}{
		{sandbox.UnixByDomain, true},
		{sandbox.UnixAllowed, false},
		{sandbox.UnixHidden, false},
	} {
		cfg := landlockConfig(f, true, tc.guard)
		if got := cfg.HandledAccessFS&ll.AccessFSResolveUnix != 0; got != tc.handled {
			t.Errorf("guard %d: resolve_unix handled %v, want %v", tc.guard, got, tc.handled)
		}
		rights, err := rootRights(t.TempDir(), cfg.HandledAccessFS)
		if err != nil {
			t.Fatal(err)
		}
		if rights&ll.AccessFSResolveUnix != 0 {
			t.Errorf("guard %d: a root is granted resolve_unix", tc.guard)
		}
	}
}

func mustMkdirAll(t *testing.T, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}
