package tools

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Folders decides which folders may be granted with add_directory. The
// grant nudge reads the same rules, so the two always agree (docs/decisions.md,
// D13).
type Folders struct {
	Project  string // the launch directory
	UserHome string // ~
	WispHome string
}

// systemFolders are never granted: a command writing there changes the
// system, not the work.
var systemFolders = []string{
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc",
	"/run", "/sbin", "/sys", "/usr", "/var", "/opt/homebrew", "/usr/local",
	"/System", "/Library", "/Applications", "/private/etc", "/private/var", "/cores",
}

// Resolve makes path absolute (from the project; ~ from the home), real,
// and widened to the repository root above it: the nearest folder holding
// a .git, stopping short of the home.
func (f Folders) Resolve(path string) (string, error) {
	switch {
	case path == "~":
		path = f.UserHome
	case strings.HasPrefix(path, "~/"):
		path = filepath.Join(f.UserHome, path[2:])
	case !filepath.IsAbs(path):
		path = filepath.Join(f.Project, path)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(path))
	if err != nil {
		return "", fmt.Errorf("%s cannot be granted: %w", path, err)
	}
	info, err := os.Stat(real)
	if err != nil || !info.IsDir() {
		return "", fmt.Errorf("%s is not a folder; grant the folder the work is in", path)
	}
	return f.repositoryRoot(real), nil
}

// repositoryRoot walks up from dir to the nearest folder holding .git,
// stopping short of the home; with none, dir itself.
func (f Folders) repositoryRoot(dir string) string {
	home := realOr(f.UserHome)
	inHome := within(dir, home) && dir != home
	for d := dir; d != "/" && !(inHome && d == home); d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
	}
	return dir
}

// ErrRefusedFolder is wrapped by Refuse's reasons.
var ErrRefusedFolder = errors.New("add_directory refuses this folder")

// Refuse says why folder (real, absolute) may not be granted, or nil.
func (f Folders) Refuse(folder string) error {
	home, wisp := realOr(f.UserHome), realOr(f.WispHome)
	switch {
	case folder == "/":
		return fmt.Errorf("%w: / would let every command write anywhere", ErrRefusedFolder)
	case folder == home:
		return fmt.Errorf("%w: %s is your home folder; grant the folder the work is in", ErrRefusedFolder, folder)
	case within(folder, wisp) || within(wisp, folder):
		return fmt.Errorf("%w: %s holds wisp's home, which no command may write", ErrRefusedFolder, folder)
	}
	for _, s := range systemFolders {
		if within(folder, s) || within(s, folder) {
			return fmt.Errorf("%w: %s is a system folder", ErrRefusedFolder, folder)
		}
	}
	return nil
}

func realOr(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// within reports whether p is dir or beneath it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+string(filepath.Separator))
}
