//go:build unix

package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// UntrustedExecutableError refuses one of wisp's executables found beside
// wisp's own (the sandbox helper, the agent's faces) that someone else
// could have put or changed there.
type UntrustedExecutableError struct {
	Path string
	Why  string // what is wrong with it, or with its folder
}

func (e *UntrustedExecutableError) Error() string { return e.Path + " " + e.Why }

// Hint says how to put it right.
func (e *UntrustedExecutableError) Hint() string {
	return "install wisp again (make install puts its executables in place, in a folder only their owner may write), or remove " + e.Path
}

// TrustedBeside returns the executable name in the folder of exe (wisp's
// own, by its real path), or "" when there is none. One that is there but
// may not be trusted is an *UntrustedExecutableError: it must be a regular
// executable file (not a link, which could be turned elsewhere), of root or
// of exe's owner, that no one else may write, in a folder no one else may
// write (or a sticky one).
func TrustedBeside(exe, name string) (string, error) {
	p := filepath.Join(filepath.Dir(exe), name)
	info, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("look for %s beside wisp: %w", p, err)
	}
	owner, err := ownerOf(exe)
	if err != nil {
		return "", err
	}
	if why := untrustedFile(info, owner); why != "" {
		return "", &UntrustedExecutableError{Path: p, Why: why}
	}
	if why := untrustedFolder(filepath.Dir(p)); why != "" {
		return "", &UntrustedExecutableError{Path: p, Why: "lies in a folder " + why}
	}
	return p, nil
}

// untrustedFile says why the file info describes cannot be one of wisp's
// executables, or "".
func untrustedFile(info fs.FileInfo, owner uint32) string {
	st, ok := info.Sys().(*syscall.Stat_t)
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return "is a symbolic link"
	case !info.Mode().IsRegular():
		return "is not a regular file"
	case info.Mode().Perm()&0o111 == 0:
		return "is not executable"
	case info.Mode().Perm()&0o022 != 0:
		return fmt.Sprintf("may be written by others (mode %04o)", info.Mode().Perm())
	case !ok:
		return "has no owner to check"
	case st.Uid != 0 && st.Uid != owner:
		return fmt.Sprintf("belongs to uid %d, neither root nor the owner of wisp's executable (uid %d)", st.Uid, owner)
	}
	return ""
}

// untrustedFolder says why others could replace a file in dir, or "": a
// folder others may write lets them rename over it, unless it is sticky.
func untrustedFolder(dir string) string {
	info, err := os.Stat(dir)
	if err != nil {
		return "cannot be read (" + err.Error() + ")"
	}
	if info.Mode().Perm()&0o022 != 0 && info.Mode()&fs.ModeSticky == 0 {
		return fmt.Sprintf("others may write (mode %04o)", info.Mode().Perm())
	}
	return ""
}

func ownerOf(p string) (uint32, error) {
	info, err := os.Stat(p)
	if err != nil {
		return 0, fmt.Errorf("find the owner of wisp's executable: %w", err)
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, fmt.Errorf("find the owner of wisp's executable %s: no owner", p)
	}
	return st.Uid, nil
}
