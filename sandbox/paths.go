package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// realpath resolves every symbolic link in the absolute path p. It reports
// fs.ErrNotExist when p does not exist.
func realpath(p string) (string, error) {
	return filepath.EvalSymlinks(filepath.Clean(p))
}

// realpathMissingOK resolves p like realpath, but a path that does not exist
// yet resolves through its nearest existing ancestor: /tmp/x/y with /tmp a
// link to /private/tmp gives /private/tmp/x/y.
func realpathMissingOK(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; dir = filepath.Dir(dir) {
		real, err := realpath(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return p
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// resolver resolves many paths that share their folders, as the secrets'
// list does (~/.config/gh, ~/.config/gcloud, … under one home): each folder
// is resolved once, and each path costs one lstat more, where realpath
// walks and lstats every folder of every path again. It gives what
// realpath and realpathMissingOK give, for paths resolved together, at one
// moment; it keeps no answer past the spec it serves.
type resolver struct {
	memo map[string]resolved
}

type resolved struct {
	real string
	err  error
}

// realpath is realpath(p), with the folders of p resolved once for all.
func (r *resolver) realpath(p string) (string, error) {
	p = filepath.Clean(p)
	if p == "/" || !filepath.IsAbs(p) {
		return realpath(p)
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

func (r *resolver) resolve(p string) resolved {
	dir, err := r.realpath(filepath.Dir(p))
	if err != nil {
		return resolved{err: err}
	}
	joined := filepath.Join(dir, filepath.Base(p))
	info, err := os.Lstat(joined)
	switch {
	case err != nil:
		return resolved{err: err}
	case info.Mode()&fs.ModeSymlink != 0:
		real, err := realpath(joined) // a link: followed the whole way, as realpath does
		return resolved{real: real, err: err}
	}
	return resolved{real: joined}
}

// missingOK is realpathMissingOK(p).
func (r *resolver) missingOK(p string) string {
	p = filepath.Clean(p)
	var rest []string
	for dir := p; ; dir = filepath.Dir(dir) {
		real, err := r.realpath(dir)
		if err == nil {
			return filepath.Join(append([]string{real}, rest...)...)
		}
		if !errors.Is(err, fs.ErrNotExist) || dir == filepath.Dir(dir) {
			return p
		}
		rest = append([]string{filepath.Base(dir)}, rest...)
	}
}

// within reports whether p is dir or lies beneath it. Both are clean and
// absolute; /a/bc is not within /a/b.
func within(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, dir+string(filepath.Separator))
}

// outermostRoot returns the outermost root that p lies within, or "".
func outermostRoot(p string, roots []string) string {
	best := ""
	for _, r := range roots {
		if within(p, r) && (best == "" || len(r) < len(best)) {
			best = r
		}
	}
	return best
}

// expandHome turns ~ and ~/x into paths under home.
func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") {
		return filepath.Join(home, p[2:])
	}
	return p
}

// appendNew appends the items of add that list does not hold yet.
func appendNew(list []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(list, a) {
			list = append(list, a)
		}
	}
	return list
}

// exists reports whether p names something (a link counts as itself).
func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
