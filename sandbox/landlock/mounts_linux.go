package landlock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// Landlock has no right for a file's metadata: outside the roots it refuses
// writes, but not chmod, chown, utimes or setxattr (a setuid copy of a
// shell, a home made 0777). So wherever the helper has a mount namespace it
// gives the command a read-only view of everything but the roots, as
// bubblewrap's --ro-bind / / --bind ROOT ROOT does: each root bound onto
// itself, then every mount outside the roots turned read-only, where the
// kernel refuses every change, metadata included (EROFS).

// bindRoots binds each root onto itself, outermost first, so that each is a
// mount of its own that stays writable when what holds it turns read-only.
// A root inside another root is covered by the outer one's bind.
func bindRoots(roots []string) error {
	for _, root := range outermostRoots(roots) {
		if err := unix.Mount(root, root, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("bind the writable root %s: %w", root, err)
		}
	}
	return nil
}

// mountPrivateTerminals gives the namespace a pseudo-terminal instance of
// its own, as bubblewrap's --dev does: a new devpts on /dev/pts, whose ptmx
// serves /dev/ptmx. A command then opens by name only the terminals it
// made itself (script, expect, a test suite's pty), never another
// session's; its own terminal it keeps through its descriptors and
// /dev/tty.
func mountPrivateTerminals() error {
	if err := unix.Mount("devpts", "/dev/pts", "devpts", unix.MS_NOSUID|unix.MS_NOEXEC, "newinstance,ptmxmode=0666"); err != nil {
		return fmt.Errorf("mount a pseudo-terminal instance of the command's own: %w", err)
	}
	if err := unix.Mount("/dev/pts/ptmx", "/dev/ptmx", "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind the command's own /dev/ptmx: %w", err)
	}
	return nil
}

// outermostRoots are the roots that lie inside no other root, shortest
// first.
func outermostRoots(roots []string) []string {
	var out []string
	for _, r := range roots {
		if paths.OutermostRoot(r, roots) == r {
			out = paths.AppendNew(out, r)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
}

// readOnlyOutsideRoots turns every mount of the namespace read-only but
// those inside a root, which keep their own flag, and the protected paths'
// binds, which are read-only already. Only the mount itself changes, never
// one below it (which may lie inside a root).
func readOnlyOutsideRoots(roots, protect []string) error {
	mounts, err := readMountInfo("/proc/self/mountinfo")
	if err != nil {
		return err
	}
	for _, m := range mounts {
		if m.readOnly || (paths.OutermostRoot(m.path, roots) != "" && !paths.WithinAny(m.path, protect)) {
			continue
		}
		err := setReadOnly(m.path)
		switch {
		case errors.Is(err, unix.ENOENT), errors.Is(err, unix.EINVAL):
			// Hidden under another mount, whose own entry covers the path.
		case err != nil:
			return fmt.Errorf("make %s read-only outside the writable roots: %w", m.path, err)
		}
	}
	return nil
}

// setReadOnly turns the one mount at p read-only.
func setReadOnly(p string) error {
	attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	err := unix.MountSetattr(unix.AT_FDCWD, p, unix.AT_SYMLINK_NOFOLLOW|unix.AT_NO_AUTOMOUNT, &attr)
	if errors.Is(err, unix.ENOSYS) {
		return remountReadOnly(p)
	}
	return err
}

// mountEntry is one line of /proc/self/mountinfo, as far as the view needs.
type mountEntry struct {
	path     string // the mount point
	readOnly bool   // the mount's own flag, not its filesystem's
}

// readMountInfo reads the mount table of the calling thread's namespace.
func readMountInfo(file string) ([]mountEntry, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read the mount table: %w", err)
	}
	return parseMountInfo(data)
}

// parseMountInfo parses mountinfo(5): ID PARENT MAJ:MIN ROOT MOUNTPOINT
// OPTIONS ..., the mount point with its spaces, tabs, newlines and
// backslashes written as octal escapes.
func parseMountInfo(data []byte) ([]mountEntry, error) {
	var out []mountEntry
	scanner := bufio.NewScanner(bytes.NewReader(data))
	scanner.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) < 6 {
			return nil, fmt.Errorf("read the mount table: a line with %d fields: %q", len(fields), scanner.Text())
		}
		path, err := unescapeMountPath(fields[4])
		if err != nil {
			return nil, err
		}
		out = append(out, mountEntry{path: path, readOnly: slices.Contains(strings.Split(fields[5], ","), "ro")})
	}
	return out, scanner.Err()
}

func unescapeMountPath(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+4 > len(s) {
			return "", fmt.Errorf("read the mount table: a cut escape in %q", s)
		}
		n, err := strconv.ParseUint(s[i+1:i+4], 8, 8)
		if err != nil {
			return "", fmt.Errorf("read the mount table: a bad escape in %q", s)
		}
		b.WriteByte(byte(n))
		i += 3
	}
	return b.String(), nil
}
