package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// UnsafeError says that wisp's home, or a state file in it, is one that
// someone other than the person could change: another user, or a command
// confined by the sandbox. wisp acts on none of it then (a changed
// config.json turns the sandbox off) and changes nothing itself; Fix is
// what the person runs to make it safe.
type UnsafeError struct {
	Path    string
	Problem string // follows the path in the message
	Fix     string // the command that fixes it, or what to do
}

func (e *UnsafeError) Error() string { return e.Path + " " + e.Problem }

// Hint is the fix, for the `wisp: hint:` line.
func (e *UnsafeError) Hint() string { return e.Fix }

// stateDirs are the folders in the home whose contents wisp acts on.
var stateDirs = []string{"pending", "logs", "outputs", "threads", "cache"}

// Check says whether wisp may trust its home, as ssh trusts ~/.ssh: every
// link on the way to it sits in a folder only root can change; every folder
// above it belongs to root or to uid and no one else may write it (unless
// it is sticky, as /tmp is); the home, its state folders, config.json,
// approvals.json and the audit log belong to uid, are not links, and no one
// else may write them. A home that does not exist yet is fine: wisp creates
// it, 0700. The error is an *UnsafeError that says what is wrong and how to
// fix it.
func (h Home) Check(uid int) error {
	real, err := walkLinks(h.given(), uid, 0)
	if err != nil {
		return err
	}
	if h.Given != "" && real != h.Dir { // a link swapped since ResolveHome
		return &UnsafeError{Path: h.given(), Problem: fmt.Sprintf("now leads to %s, not to %s as it did when wisp started: a link on the way changed", real, h.Dir),
			Fix: "find out what changed it, then set WISP_HOME to the real path of your home"}
	}
	if err := checkAncestors(h.Dir, uid); err != nil {
		return err
	}
	info, err := os.Lstat(h.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("inspect wisp's home %s: %w", h.Dir, err)
	}
	if !info.IsDir() {
		return &UnsafeError{Path: "wisp's home " + h.Dir, Problem: "is not a folder", Fix: "move it away so that wisp can create its home there"}
	}
	if err := checkOwned("wisp's home "+h.Dir, h.Dir, info, uid, "700"); err != nil {
		return err
	}
	return h.checkContents(uid)
}

// checkContents checks the state folders and files that exist.
func (h Home) checkContents(uid int) error {
	for _, sub := range stateDirs {
		p := filepath.Join(h.Dir, sub)
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("inspect %s: %w", p, err)
		}
		if !info.IsDir() {
			return &UnsafeError{Path: p, Problem: "is not a folder (" + kindOf(info) + ")", Fix: "remove it (wisp creates the folder again): rm " + p}
		}
		if err := checkOwned(p, p, info, uid, "700"); err != nil {
			return err
		}
	}
	// The audit log too: it is opened for appending, following a link.
	for _, p := range []string{h.ConfigFile(), h.ApprovalsFile(), h.AuditFile()} {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("inspect %s: %w", p, err)
		}
		if err := checkStateFile(p, info, uid); err != nil {
			return err
		}
	}
	return nil
}

// checkStateFile refuses a state file that is a link or not a regular
// file, belongs to someone else, or that others may write.
func checkStateFile(p string, info fs.FileInfo, uid int) error {
	if info.Mode()&fs.ModeSymlink != 0 {
		return linkedFileError(p)
	}
	if !info.Mode().IsRegular() {
		return &UnsafeError{Path: p, Problem: "is not a regular file (" + kindOf(info) + ")", Fix: "move it away: mv " + p + " " + p + ".untrusted"}
	}
	return checkOwned(p, p, info, uid, "600")
}

// linkedFileError explains why a state file may not be a link: the sandbox
// keeps wisp's home unwritable, not the place a link leads to, so a
// confined command could rewrite a linked config.json at its target.
func linkedFileError(p string) error {
	target, _ := os.Readlink(p)
	if filepath.Base(p) == "audit.jsonl" {
		return &UnsafeError{Path: p, Problem: fmt.Sprintf("is a symbolic link (to %s): wisp would append its audit log to what the link leads to", target),
			Fix: "remove the link (wisp starts a new log): rm " + p}
	}
	return &UnsafeError{Path: p, Problem: fmt.Sprintf("is a symbolic link (to %s): wisp reads its state only from files in its home, which the sandbox keeps unwritable, and not from where a link leads", target),
		Fix: fmt.Sprintf("replace the link with the file itself: rm %s && cp %s %s", p, target, p)}
}

// checkOwned refuses info (of path p, named subject in the message) when it
// belongs to someone other than uid, or when its group or others may write
// it. mode is what chmod makes it safe.
func checkOwned(subject, p string, info fs.FileInfo, uid int, mode string) error {
	owner, ok := ownerOf(info)
	if !ok {
		return &UnsafeError{Path: subject, Problem: "has an owner wisp cannot read", Fix: "move it away: mv " + p + " " + p + ".untrusted"}
	}
	if owner != uid {
		return &UnsafeError{Path: subject, Problem: fmt.Sprintf("belongs to uid %d, not to you (uid %d): its owner could change what wisp does", owner, uid),
			Fix: fmt.Sprintf("if it is yours, run: sudo chown -R %d %s; if it is not, move it away: mv %s %s.untrusted", uid, p, p, p)}
	}
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return &UnsafeError{Path: subject, Problem: fmt.Sprintf("is writable by %s (mode %04o): %s", whoWrites(perm), perm, whatWriteDoes(p)),
			Fix: fmt.Sprintf("run: chmod %s %s", mode, p)}
	}
	return nil
}

func whatWriteDoes(p string) string {
	if filepath.Base(p) == "approvals.json" {
		return "whoever can write it can approve commands in your name"
	}
	return "whoever can write it can turn the sandbox off in wisp's config"
}

// checkAncestors refuses a home beneath a folder whose owner is neither
// root nor uid, or that others may write without the sticky bit: either
// could move the home aside and put one of their own in its place. It
// looks at every existing folder from / down to the home's parent; dir is
// a real path.
func checkAncestors(dir string, uid int) error {
	for _, a := range ancestors(dir) {
		info, err := os.Lstat(a)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("inspect %s, a folder above wisp's home: %w", a, err)
		}
		owner, _ := ownerOf(info)
		subject := "wisp's home " + dir
		if owner != 0 && owner != uid {
			return &UnsafeError{Path: subject, Problem: fmt.Sprintf("lies in %s, which belongs to uid %d: its owner could move the home aside and put one of their own in its place", a, owner),
				Fix: "set WISP_HOME to a folder of your own, outside " + a}
		}
		if perm := info.Mode().Perm(); perm&0o022 != 0 && info.Mode()&fs.ModeSticky == 0 {
			return &UnsafeError{Path: subject, Problem: fmt.Sprintf("lies in %s, which is writable by %s (mode %04o, not sticky): they could move the home aside and put one of their own in its place", a, whoWrites(perm), perm),
				Fix: fmt.Sprintf("run: chmod go-w %s, or set WISP_HOME to a folder only you can change", a)}
		}
	}
	return nil
}

// ancestors lists the folders above p, / first.
func ancestors(p string) []string {
	var out []string
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		out = append([]string{d}, out...)
		if d == filepath.Dir(d) {
			return out
		}
	}
}

// maxLinks bounds how many links walkLinks follows, as the kernel's ELOOP.
const maxLinks = 40

// walkLinks resolves the absolute path p one component at a time, as the
// kernel does, and refuses a link on the way that a command of uid (or
// anyone but root) could swap: one in a folder that is not root's alone.
// When uid is root every folder is writable to it, so only the system's
// own links in / (macOS's /tmp and /var) are taken. The missing tail of a
// path that does not exist yet is kept as written.
func walkLinks(p string, uid, followed int) (string, error) {
	real := "/"
	parts := strings.Split(p, "/")
	for i, part := range parts {
		switch part {
		case "", ".":
			continue
		case "..":
			real = filepath.Dir(real)
			continue
		}
		next := filepath.Join(real, part)
		info, err := os.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.Join(append([]string{real}, parts[i:]...)...), nil
		}
		if err != nil {
			return "", fmt.Errorf("resolve wisp's home %s: %w", p, err)
		}
		if info.Mode()&fs.ModeSymlink == 0 {
			real = next
			continue
		}
		if real, err = followLink(p, next, real, uid, followed); err != nil {
			return "", err
		}
	}
	return real, nil
}

// followLink checks the link at link (in folder dir) and resolves it.
func followLink(home, link, dir string, uid, followed int) (string, error) {
	if followed >= maxLinks {
		return "", fmt.Errorf("resolve wisp's home %s: too many symbolic links", home)
	}
	if who := swappableBy(dir, uid); who != "" {
		real := realpathMissingOK(home)
		return "", &UnsafeError{Path: "wisp's home " + home,
			Problem: fmt.Sprintf("is reached through the symbolic link %s, in %s, which %s can change: a confined command could swap the link and give the next wisp a home of its own, with the sandbox off", link, dir, who),
			Fix:     "set WISP_HOME to the real path, which has no link on the way: export WISP_HOME=" + real}
	}
	target, err := os.Readlink(link)
	if err != nil {
		return "", fmt.Errorf("resolve wisp's home %s: %w", home, err)
	}
	if !filepath.IsAbs(target) {
		target = dir + "/" + target
	}
	return walkLinks(target, uid, followed+1)
}

// swappableBy says who besides root could replace an entry of dir: "you",
// "its group", "others", "uid N", or "" when only root can.
func swappableBy(dir string, uid int) string {
	info, err := os.Lstat(dir)
	if err != nil {
		return "someone"
	}
	owner, _ := ownerOf(info)
	switch perm := info.Mode().Perm(); {
	case owner != 0:
		if owner == uid {
			return "you"
		}
		return fmt.Sprintf("uid %d", owner)
	case perm&0o022 != 0:
		return whoWrites(perm)
	case uid == 0 && dir != "/":
		return "you (root)"
	}
	return ""
}

func whoWrites(perm fs.FileMode) string {
	if perm&0o002 != 0 {
		return "others"
	}
	return "its group"
}

func ownerOf(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return -1, false
	}
	return int(st.Uid), true
}

func kindOf(info fs.FileInfo) string {
	switch m := info.Mode(); {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a file"
}

// realpathMissingOK resolves every link in p; a path that does not exist
// yet resolves through its nearest existing ancestor.
func realpathMissingOK(p string) string {
	var rest []string
	for dir := filepath.Clean(p); ; dir = filepath.Dir(dir) {
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return filepath.Clean(p)
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}
