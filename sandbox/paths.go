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
