package landlock

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// A command's own Unix sockets must work (socketpair, a test server bound
// in the project or in /tmp, Python's multiprocessing.Manager, go-plugin),
// while the person's stay out of its reach: through ssh-agent, D-Bus,
// docker, podman, systemd, tmux or the X server another program acts for
// the caller, outside the sandbox.
//
// Landlock ABI 9 refuses connecting by path to a socket made outside the
// command's Landlock domain, and scoping (ABI 6) does the same for
// abstract sockets: there the helper grants the right to no path at all,
// and a command's own sockets work anywhere (UnixByDomain).
//
// Below ABI 9 Landlock does not see a socket by path, so where the helper
// has a mount namespace it hides the person's sockets from the command's
// view (UnixHidden), before anything runs in it:
//
//   - the folders that hold them (--socket-home: /run/user, the runtime
//     folder, /tmp/.X11-unix, tmux's and ssh-agent's) get an empty tmpfs,
//     so a socket made there later is out of sight too. Inside a root the
//     cover stays writable, so a command's own X server or tmux works in it;
//   - every other socket bound at the start (/proc/net/unix lists them,
//     wherever they are: /run/docker.sock, /run/systemd/private, ~/.gnupg,
//     a server the person runs in the project) has /dev/null bound over
//     it: a connect gets ECONNREFUSED, and a hard link of it, EXDEV.
//
// A hard link into a root from anywhere else is refused by Landlock (a
// link across folders needs the refer right on both sides, which nothing
// outside the roots has); /proc/PID/root of a process outside the sandbox
// by Landlock's ptrace rule. What the view cannot see is a socket bound
// after the start outside the covered folders, or a hard link to one made
// before inside a root: the report names it (UnixGuard's gap). A served
// helper lists the bound sockets again before each command and is started
// afresh when one has appeared (Serves).
//
// Without a mount namespace below ABI 9, socket(AF_UNIX) stays refused by
// the seccomp filter (UnixRefused); socketpair works.

// socketHomes are the folders that hold the person's sockets, from wisp's
// own environment (the command's is filtered) and uid: the helper covers
// those that are folders when it starts.
func socketHomes(getenv func(string) string, uid int, home string) []string {
	tmp := "/tmp"
	tmux := getenv("TMUX_TMPDIR")
	if tmux == "" {
		tmux = tmp
	}
	candidates := []string{
		"/run/user", // every account's runtime folder: D-Bus, Wayland, systemd --user, podman, gpg-agent, pipewire
		getenv("XDG_RUNTIME_DIR"),
		filepath.Join(tmp, ".X11-unix"),
		filepath.Join(tmp, ".ICE-unix"),
		filepath.Join(tmux, fmt.Sprintf("tmux-%d", uid)),
		folderOf(getenv("SSH_AUTH_SOCK")),
		folderOf(strings.Split(getenv("TMUX"), ",")[0]),
	}
	if home != "" {
		candidates = append(candidates, filepath.Join(home, ".docker/run"), filepath.Join(home, ".docker/desktop"))
	}
	var out []string
	for _, c := range candidates {
		if c == "" || !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		if c == "/" || c == tmp || c == home || c == filepath.Clean(getenv("TMPDIR")) {
			continue // a socket's folder that holds much else: its sockets are hidden one by one
		}
		out = paths.AppendNew(out, c)
	}
	return out
}

func folderOf(p string) string {
	if p == "" {
		return ""
	}
	return filepath.Dir(p)
}

// hideSockets makes the view: the homes covered, then every socket bound
// now and still in sight covered by /dev/null. It runs in the namespace,
// after the roots, the protected paths and the secrets' covers, and before
// everything outside the roots turns read-only (which makes the covers
// outside the roots read-only too).
func hideSockets(h helperArgs) error {
	for _, d := range coverableHomes(h) {
		if err := mountCover(d, 0o755, 0); err != nil {
			return fmt.Errorf("hide the sockets in %s: %w", d, err)
		}
	}
	bound, err := boundSockets()
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, s := range bound {
		if seen[s.path] {
			continue
		}
		seen[s.path] = true
		if err := hideSocket(s.path); err != nil {
			return err
		}
	}
	return nil
}

// coverableHomes are the homes that are folders (not links: a link's
// target is a home of its own, or not one), hold no root (a cover over a
// root would take the project away), and lie in no secret folder, wisp's
// home or another home ($XDG_RUNTIME_DIR in /run/user), whose covers hide
// their sockets already, and hide the folder itself.
func coverableHomes(h helperArgs) []string {
	var folders []string
	for _, d := range h.socketHomes {
		if isFolder(d) && !anyWithin(h.roots, d) && !paths.WithinAny(d, h.denyRead) && !paths.WithinAny(d, h.hide) {
			folders = append(folders, d)
		}
	}
	var out []string
	for _, d := range folders {
		others := slices.DeleteFunc(slices.Clone(folders), func(o string) bool { return o == d })
		if !paths.WithinAny(d, others) {
			out = append(out, d)
		}
	}
	return out
}

// hideSocket binds /dev/null over the socket at p, through a descriptor
// of it opened without following a link: only a socket is ever covered,
// whatever p's folders have become. What cannot be opened (gone, under a
// cover, out of this user's reach) is out of the command's reach too.
func hideSocket(p string) error {
	fd, err := unix.Open(p, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return nil
	}
	err = unix.Mount("/dev/null", fmt.Sprintf("/proc/self/fd/%d", fd), "", unix.MS_BIND, "")
	switch {
	case errors.Is(err, unix.ENOENT):
		// Removed since it was opened: no path leads to it any more.
	case err != nil:
		return fmt.Errorf("hide the socket %s: %w", p, err)
	}
	return nil
}

// boundSocket is one Unix socket bound to a path, as /proc/net/unix lists
// it.
type boundSocket struct {
	path  string
	inode uint64 // the socket's own, which a new socket at the same path changes
	open  bool   // not a connection: a listening socket, or one that receives datagrams
}

// boundSockets lists the Unix sockets bound to a path in this network
// namespace: every program's, wherever its file is.
func boundSockets() ([]boundSocket, error) {
	data, err := readProc("/proc/net/unix")
	if err != nil {
		return nil, fmt.Errorf("list the Unix sockets to hide: %w", err)
	}
	return parseNetUnix(data), nil
}

// parseNetUnix reads /proc/net/unix: Num RefCount Protocol Flags Type St
// Inode Path, the path absent for a socket never bound and starting with @
// for an abstract one. St 01 is unconnected (a listener, or a datagram
// socket), 03 a connection (each accepted one repeats its server's path).
func parseNetUnix(data []byte) []boundSocket {
	var out []boundSocket
	scanner := bufio.NewScanner(bytes.NewReader(data))
	scanner.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) < 8 || !strings.HasPrefix(fields[7], "/") {
			continue
		}
		inode, err := strconv.ParseUint(fields[6], 10, 64)
		if err != nil {
			continue
		}
		out = append(out, boundSocket{path: strings.Join(fields[7:], " "), inode: inode, open: fields[5] == "01"})
	}
	return out
}

// socketsView digests the sockets that are not connections, each by path
// and inode: it changes when one is bound anew, which a served helper's
// view, made at its start, would not hide. Never "": when they cannot be
// listed it says so, which a later listing differs from.
func socketsView() string {
	bound, err := boundSockets()
	if err != nil {
		return "unlisted: " + err.Error()
	}
	var lines []string
	for _, s := range bound {
		if s.open {
			lines = append(lines, fmt.Sprintf("%d %s", s.inode, s.path))
		}
	}
	slices.Sort(lines)
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:12])
}

// userHome is the person's home for the socket homes under it, or "".
func userHome() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return home
}
