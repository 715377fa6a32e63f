package sandbox

import (
	"path/filepath"
	"slices"
	"strings"
)

// mountOp is one mount the helper makes in its private namespace: a path
// bound onto itself, read-only or not.
type mountOp struct {
	path     string
	readOnly bool
}

// planMounts says what to mount so that every protected path inside a root
// stays unwritable: the path bound read-only onto itself, and each folder
// between its outermost root and it bound onto itself ("pinned"). A mount
// point cannot be renamed or removed, so a command cannot move .git aside
// and put a folder of its own, with hooks of its own, in its place. Paths
// outside every root need nothing: Landlock grants no write there. The
// result is ordered outermost first, as the mounts must be made.
func planMounts(roots, protect []string) []mountOp {
	var readOnly, pins []string
	for _, p := range protect {
		root := outermostRoot(p, roots)
		if root == "" || p == root {
			continue
		}
		readOnly = appendNew(readOnly, p)
		for dir := filepath.Dir(p); dir != root && within(dir, root); dir = filepath.Dir(dir) {
			pins = appendNew(pins, dir)
		}
	}
	var ops []mountOp
	for _, p := range pins {
		if !slices.Contains(readOnly, p) {
			ops = append(ops, mountOp{path: p})
		}
	}
	for _, p := range readOnly {
		ops = append(ops, mountOp{path: p, readOnly: true})
	}
	slices.SortStableFunc(ops, func(a, b mountOp) int {
		return strings.Count(a.path, "/") - strings.Count(b.path, "/")
	})
	return ops
}
