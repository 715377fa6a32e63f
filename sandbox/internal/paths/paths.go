// Package paths resolves and compares the absolute paths the sandbox's
// packages share: real paths (through links, or through the nearest
// existing folder for a path not made yet), which paths lie within which,
// the forms a protected path takes, and which folders must stay put for a
// protected path inside a root to stay unwritable (PlanMounts).
package paths

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Realpath resolves every symbolic link in the absolute path p. It reports
// fs.ErrNotExist when p does not exist.
func Realpath(p string) (string, error) {
	return filepath.EvalSymlinks(filepath.Clean(p))
}

// RealpathMissingOK resolves p like Realpath, but a path that does not exist
// yet resolves through its nearest existing ancestor: /tmp/x/y with /tmp a
// link to /private/tmp gives /private/tmp/x/y.
func RealpathMissingOK(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; dir = filepath.Dir(dir) {
		real, err := Realpath(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return p
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// Resolver resolves many paths that share their folders, as the secrets'
// list does (~/.config/gh, ~/.config/gcloud, … under one home): each folder
// is resolved once, and each path costs one lstat more, where Realpath
// walks and lstats every folder of every path again. It gives what
// Realpath and RealpathMissingOK give, for paths resolved together, at one
// moment; it keeps no answer past the spec it serves.
type Resolver struct {
	memo map[string]resolved
}

type resolved struct {
	real string
	err  error
}

// Realpath is Realpath(p), with the folders of p resolved once for all.
func (r *Resolver) Realpath(p string) (string, error) {
	p = filepath.Clean(p)
	if p == "/" || !filepath.IsAbs(p) {
		return Realpath(p)
	}
	if v, ok := r.memo[p]; ok {
		return v.real, v.err
	}
	if r.memo == nil {
		r.memo = map[string]resolved{}
	}
	v := r.resolve(p)
	r.memo[p] = v
	return v.real, v.err
}

func (r *Resolver) resolve(p string) resolved {
	dir, err := r.Realpath(filepath.Dir(p))
	if err != nil {
		return resolved{err: err}
	}
	joined := filepath.Join(dir, filepath.Base(p))
	info, err := os.Lstat(joined)
	switch {
	case err != nil:
		return resolved{err: err}
	case info.Mode()&fs.ModeSymlink != 0:
		real, err := Realpath(joined) // a link: followed the whole way, as Realpath does
		return resolved{real: real, err: err}
	}
	return resolved{real: joined}
}

// missingOK is RealpathMissingOK(p).
func (r *Resolver) MissingOK(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; dir = filepath.Dir(dir) {
		real, err := r.Realpath(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return p
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// Within reports whether p is dir or lies beneath it. Both are clean and
// absolute; /a/bc is not within /a/b.
func Within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// OutermostRoot returns the outermost root that p lies within, or "".
func OutermostRoot(p string, roots []string) string {
	best := ""
	for _, r := range roots {
		if Within(p, r) && (best == "" || len(r) < len(best)) {
			best = r
		}
	}
	return best
}

// ExpandHome turns ~ and ~/x into paths under home.
func ExpandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// AppendNew appends the items of add that list does not hold yet.
func AppendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

// Exists reports whether p names something (a link counts as itself).
func Exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// WithinAny reports whether p lies within one of dirs.
func WithinAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if Within(p, d) {
			return true
		}
	}
	return false
}

// ProtectedForms gives the paths that must stay unwritable for p to stay
// unchanged: p as written, and its real path when a link leads elsewhere.
// Both matter: the real path is what the kernel checks, and a link on the
// way could be swapped for a folder of a command's own.
func ProtectedForms(p string) []string {
	return formsOf(p, RealpathMissingOK)
}

// ProtectedForms is ProtectedForms(p), resolved through r.
func (r *Resolver) ProtectedForms(p string) []string { return formsOf(p, r.MissingOK) }

func formsOf(p string, resolve func(string) string) []string {
	clean := filepath.Clean(p)
	real := resolve(clean)
	if real == clean {
		return []string{clean}
	}
	return []string{real, clean}
}
