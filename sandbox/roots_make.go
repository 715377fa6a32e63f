package sandbox

import (
	"errors"
	"github.com/wisp-sh/wisp/sandbox/internal/paths"
	"io/fs"
	"os"
	"path/filepath"
)

// A fresh account has none of the caches yet: no ~/.cache, no ~/go, no
// ~/.npm. A cache that is missing is not a root (Landlock grants only
// what exists), and the tool's own mkdir of it, outside every root, is
// refused, so the first `go build` in a new container, CI image or laptop
// would fail. So wisp makes the standard ones before it confines the
// command, as the person: with the person's owner (wisp runs as the
// person) and the mode the tool would give them (0777 or 0666, less the
// umask, as the kernel applies it). Only the places cacheRoots marks:
// ~/.cache, and a tool's default cache when the tool is on the PATH (or
// its home is there, for Cargo's and rustup's), never a place the
// environment or a setting names, and never in a home that is not the
// person's (wisp run by root for another account, as sudo without -H
// does, would leave root's folders in it).

// makeMissing makes the missing roots of roots that wisp makes. It says
// nothing of a failure: a root that could not be made is skipped, as a
// missing one always was, and the tool says what it could not write.
func (e env) makeMissing(roots []cacheRoot) {
	if !ownedByMe(e.home) {
		return
	}
	for _, r := range roots {
		if r.make == found || !filepath.IsAbs(r.path) || !paths.Within(filepath.Clean(r.path), e.home) {
			continue
		}
		if _, err := os.Lstat(r.path); !errors.Is(err, fs.ErrNotExist) {
			continue // there already, or not to be looked at: left as it is
		}
		switch r.make {
		case makeDir:
			_ = os.MkdirAll(r.path, 0o777)
		case makeFile:
			makeLockFile(r.path)
		}
	}
}

// makeLockFile makes an empty file where none is, in a folder that is
// there, following no link.
func makeLockFile(p string) {
	if !isDir(filepath.Dir(p)) {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o666)
	if err == nil {
		f.Close()
	}
}

// isDir reports whether p names a folder (following links).
func isDir(p string) bool {
	info, err := os.Stat(p)
	return p != "" && err == nil && info.IsDir()
}
