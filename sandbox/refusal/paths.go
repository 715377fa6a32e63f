package refusal

import (
	"os"
	"path/filepath"
	"strings"
)

// RealPath resolves p as the sandbox's roots are resolved: the symlinks of
// its longest existing prefix are evaluated and the rest is joined on, so a
// file that was never created (the usual case for a refused write) still
// resolves (on macOS /tmp/x is /private/tmp/x). p must be absolute.
func RealPath(p string) string {
	rest := ""
	for cur := p; ; {
		if _, err := os.Lstat(cur); err == nil { // one lstat per missing level, not a walk from /
			if real, err := filepath.EvalSymlinks(cur); err == nil {
				return filepath.Join(real, rest)
			}
		}
		dir, base := splitLast(cur)
		if dir == cur {
			return filepath.Clean(p)
		}
		rest = filepath.Join(base, rest)
		cur = dir
	}
}

// splitLast splits off the last element without cleaning the rest, so a
// ".." after a symlink is still evaluated physically, as the kernel does.
func splitLast(p string) (dir, base string) {
	p = strings.TrimRight(p, "/")
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return p, ""
	}
	if i == 0 {
		return "/", p[1:]
	}
	return p[:i], p[i+1:]
}

// absolute makes a named path absolute: ~ and ~/… from home, a relative
// path from dir. It is false for what cannot be placed (~user, no dir).
func absolute(raw, dir, home string) (string, bool) {
	switch {
	case raw == "~" || strings.HasPrefix(raw, "~/"):
		if home == "" {
			return "", false
		}
		return home + raw[1:], true
	case strings.HasPrefix(raw, "~"):
		return "", false
	case strings.HasPrefix(raw, "/"):
		return raw, true
	case dir == "":
		return "", false
	}
	return strings.TrimRight(dir, "/") + "/" + raw, true
}

// placer knows the resolved roots and protected paths.
type placer struct{ roots, protected []string }

func newPlacer(in Input, resolve func(string) string) placer {
	return placer{roots: resolveAll(in.Roots, resolve), protected: resolveAll(in.Protected, resolve)}
}

func resolveAll(paths []string, resolve func(string) string) []string {
	out := make([]string, 0, len(paths))
	for _, p := range paths {
		if p != "" {
			out = append(out, resolve(p))
		}
	}
	return out
}

// where says whether p is inside some root, and which protected path (if
// any) it lies on or under.
func (pl placer) where(p string) (inside bool, protected string) {
	for _, root := range pl.roots {
		inside = inside || within(p, root)
	}
	for _, prot := range pl.protected {
		if within(p, prot) {
			return inside, prot
		}
	}
	return inside, ""
}

func (pl placer) isProtected(p string) bool {
	_, prot := pl.where(p)
	return prot != ""
}

// within reports whether p is dir or below it, by whole elements, so that
// /work/project2 is not within /work/proj.
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	dir = strings.TrimRight(dir, "/")
	return p == dir || strings.HasPrefix(p, dir+"/")
}
