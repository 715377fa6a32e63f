package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// helperBeside returns the helper to run for wisp's executable exe (its
// real path): wisp-sandbox in the same folder when there is one and it may
// be trusted, or exe itself when there is none. A file there that may not
// be trusted (a link, writable by others, another owner's) is refused
// rather than passed over: something has tampered with the installation,
// and the person should know.
func helperBeside(exe string) (string, error) {
	p := filepath.Join(filepath.Dir(exe), HelperExecutable)
	info, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return exe, nil
	case err != nil:
		return "", fmt.Errorf("look for the sandbox helper %s: %w", p, err)
	}
	owner, err := ownerOf(exe)
	if err != nil {
		return "", err
	}
	if why := untrustedHelper(info, owner); why != "" {
		return "", &UnavailableError{Why: fmt.Sprintf("the sandbox helper %s %s, so it cannot be trusted to confine commands", p, why),
			Fix: "install wisp again (make install puts both executables in place), or remove " + p}
	}
	if why := untrustedFolder(filepath.Dir(p)); why != "" {
		return "", &UnavailableError{Why: fmt.Sprintf("the folder %s of the sandbox helper %s, so the helper could be replaced", filepath.Dir(p), why),
			Fix: "install wisp in a folder only its owner may write"}
	}
	return p, nil
}

// untrustedHelper says why the file info describes cannot be the helper,
// or "": it must be a regular executable file (not a link, which could be
// turned elsewhere), of root or of wisp's own executable's owner, that no
// one else may write.
func untrustedHelper(info fs.FileInfo, owner uint32) string {
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
		return fmt.Sprintf("may be written by others (mode %04o)", info.Mode().Perm())
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
