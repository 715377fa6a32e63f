package landlock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"golang.org/x/sys/unix"
)

// Landlock refuses reading a secret, but it has no right for listing one
// folder (the listing right is granted from /), for stat, nor for an
// inotify watch: on its own it lets a command see a secret's size and
// times, and watch ~/.ssh to learn when the key is read and which names
// appear there. And it cannot refuse what lies inside a root at all: wisp's
// home inside the project. So where the helper has a mount namespace, it
// covers them with a tmpfs of the command's own, read-only:
//
//   - wisp's home (--hide), empty: a command finds nothing there;
//   - each secret folder (--deny-read), holding an empty stand-in for each
//     name at its top, so that reading ~/.ssh/id_ed25519 is still refused
//     ("Permission denied": Landlock grants nothing under a secret) and the
//     refusal names the secret, while its size, times and contents, and
//     every later change to the real folder, stay out of sight. The
//     allowRead entries inside one are bound back over their stand-ins.
//
// A watch set on a cover sees only the cover, which never changes. A secret
// that is a file (~/.netrc) is left to Landlock: its folder's watch (~)
// would see its reads by name whatever covered it.

// maxStandIns bounds the stand-ins made for one secret folder, and so
// what covering it costs each helper's start: a password store or a
// browser profile can hold hundreds of names at its top, and a name left
// out only reads as missing rather than refused.
const maxStandIns = 256

// coverHidden covers the secret folders, then wisp's home. It runs in the
// namespace, after the roots and the protected paths are bound and before
// everything outside the roots turns read-only.
func coverHidden(h helperArgs) error {
	var covered []string
	for _, d := range secretFolders(h) {
		if paths.WithinAny(d, covered) {
			continue // inside a cover already: out of sight
		}
		if err := coverSecret(d, allowedInside(h.allowRead, d)); err != nil {
			return fmt.Errorf("hide the secret folder %s: %w", d, err)
		}
		covered = append(covered, d)
	}
	for _, p := range h.hide {
		if !isFolder(p) {
			continue // a link's target is covered by its own path; a missing home holds nothing
		}
		if err := mountCover(p, 0o700, unix.MS_RDONLY); err != nil {
			return fmt.Errorf("hide wisp's home %s: %w", p, err)
		}
	}
	return nil
}

// secretFolders are the denied paths that are folders here (not links),
// outermost first, but those that hold a root or lie inside one: a cover
// over a root would take the project away, and Landlock's grant of the root
// reaches what lies inside it anyway (the spec refuses such a secret).
func secretFolders(h helperArgs) []string {
	var out []string
	for _, d := range h.denyRead {
		if !isFolder(d) || paths.OutermostRoot(d, h.roots) != "" || anyWithin(h.roots, d) {
			continue
		}
		out = append(out, d)
	}
	slices.SortStableFunc(out, func(a, b string) int { return len(a) - len(b) })
	return out
}

// anyWithin reports whether one of list lies within dir.
func anyWithin(list []string, dir string) bool {
	for _, p := range list {
		if paths.Within(p, dir) {
			return true
		}
	}
	return false
}

func isFolder(p string) bool {
	info, err := os.Lstat(p)
	return err == nil && info.IsDir()
}

// standIn is one name at the top of a secret folder, as its cover shows it.
type standIn struct {
	name   string
	kind   fs.FileMode // fs.ModeDir, fs.ModeSymlink, or 0 for anything else
	target string      // a link's
}

// coverSecret puts a cover over the secret folder d with a stand-in for
// each of its names, and binds back the allowRead entries inside it.
func coverSecret(d string, allowed []string) error {
	names := standIns(d)
	back, err := openAllowed(allowed)
	if err != nil {
		return err
	}
	defer back.close()
	if err := mountCover(d, 0o700, 0); err != nil {
		return err
	}
	if err := makeStandIns(d, names); err != nil {
		return err
	}
	if err := back.bindInto(d); err != nil {
		return err
	}
	return makeReadOnly(d)
}

// standIns lists d's top names before it is covered. A folder that cannot
// be listed gets an empty cover.
func standIns(d string) []standIn {
	entries, err := os.ReadDir(d)
	if err != nil {
		return nil
	}
	var out []standIn
	for _, e := range entries[:min(len(entries), maxStandIns)] {
		s := standIn{name: e.Name()}
		switch {
		case e.IsDir():
			s.kind = fs.ModeDir
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(d, e.Name()))
			if err != nil {
				continue
			}
			s.kind, s.target = fs.ModeSymlink, target
		}
		out = append(out, s)
	}
	return out
}

// makeStandIns makes each stand-in in the cover at d, through one
// descriptor of it: an empty folder, the same link (a link leads where it
// leads, by its target's own rules), or for anything else a hard link to
// one empty file, a call each.
func makeStandIns(d string, names []standIn) error {
	dir, err := unix.Open(d, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(dir)
	empty := ""
	for _, s := range names {
		switch {
		case s.kind == fs.ModeDir:
			err = unix.Mkdirat(dir, s.name, 0o700)
		case s.kind == fs.ModeSymlink:
			err = unix.Symlinkat(s.target, dir, s.name)
		case empty != "":
			err = unix.Linkat(dir, empty, dir, s.name, 0)
		default:
			empty, err = s.name, makeEmptyFile(filepath.Join(d, s.name))
		}
		if err != nil {
			return fmt.Errorf("make the stand-in for %s: %w", s.name, err)
		}
	}
	return nil
}

func makeEmptyFile(p string) error {
	fd, err := unix.Open(p, unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	return unix.Close(fd)
}

// mountCover mounts an empty tmpfs over the folder p, with p's own mode
// bits where they can be read, mode otherwise.
func mountCover(p string, mode uint32, flags uintptr) error {
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err == nil {
		mode = st.Mode & 0o777
	}
	data := fmt.Sprintf("mode=%04o,size=1m,nr_inodes=%d", mode, 2*maxStandIns)
	return unix.Mount("tmpfs", p, "tmpfs", flags|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, data)
}

// allowedInside are the allowRead entries inside the secret d, each with
// no link on its way from d (one behind a link is reached through the
// link's stand-in, by the link target's own rules).
func allowedInside(allow []string, d string) []string {
	var out []string
	for _, a := range allow {
		if a == d || !paths.Within(a, d) {
			continue
		}
		if real, err := paths.Realpath(filepath.Dir(a)); err == nil && real == filepath.Dir(a) {
			out = append(out, a)
		}
	}
	return out
}

// allowedBack holds the allowRead entries of one secret folder open, as
// O_PATH descriptors made before the cover hides them.
type allowedBack struct {
	paths []string
	fds   []int
	kinds []fs.FileMode
	links []string
}

func openAllowed(allowed []string) (*allowedBack, error) {
	b := &allowedBack{}
	for _, a := range allowed {
		info, err := os.Lstat(a)
		if err != nil {
			continue // nothing to give back
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(a); err != nil {
				continue
			}
		}
		fd, err := unix.Open(a, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			b.close()
			return nil, fmt.Errorf("open %s to give it back: %w", a, err)
		}
		b.paths, b.fds = append(b.paths, a), append(b.fds, fd)
		b.kinds, b.links = append(b.kinds, info.Mode().Type()), append(b.links, link)
	}
	return b, nil
}

func (b *allowedBack) close() {
	for _, fd := range b.fds {
		unix.Close(fd)
	}
	b.fds = nil
}

// bindInto binds each entry back at its own path, now in the cover at d,
// making the folders on its way: a link is made again, anything else bound
// from its descriptor.
func (b *allowedBack) bindInto(d string) error {
	for i, a := range b.paths {
		if err := os.MkdirAll(filepath.Dir(a), 0o700); err != nil {
			return fmt.Errorf("make the way back to %s: %w", a, err)
		}
		if b.kinds[i] == fs.ModeSymlink {
			if err := unix.Symlink(b.links[i], a); err != nil && !errors.Is(err, unix.EEXIST) {
				return fmt.Errorf("give back the link %s: %w", a, err)
			}
			continue
		}
		if err := mountPoint(a, b.kinds[i] == fs.ModeDir); err != nil {
			return fmt.Errorf("give back %s: %w", a, err)
		}
		src := fmt.Sprintf("/proc/self/fd/%d", b.fds[i])
		if err := unix.Mount(src, a, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("give back %s (%s): %w", a, strings.TrimPrefix(a, d), err)
		}
	}
	return nil
}

// mountPoint makes the file or folder a bind lands on, unless its stand-in
// is there already.
func mountPoint(p string, dir bool) error {
	if _, err := os.Lstat(p); err == nil {
		return nil
	}
	if dir {
		return unix.Mkdir(p, 0o700)
	}
	return makeEmptyFile(p)
}
