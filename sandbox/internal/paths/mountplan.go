package paths

import (
	"path/filepath"
	"slices"
	"strings"
)

// MountOp is one mount the helper makes in its private namespace: a path
// bound onto itself, read-only or not.
type MountOp struct {
	Path     string
	ReadOnly bool
}

// PlanMounts says what to mount so that every protected path inside a root
// stays unwritable: the path bound read-only onto itself, and each folder
// between its outermost root and it bound onto itself ("pinned"). A mount
// point cannot be renamed or removed, so a command cannot move .git aside
// and put a folder of its own, with hooks of its own, in its place. Paths
// outside every root need nothing: Landlock grants no write there. The
// result is ordered outermost first, as the mounts must be made.
func PlanMounts(roots, protect []string) []MountOp {
	var readOnly, pins []string
	for _, p := range protect {
		root := OutermostRoot(p, roots)
		if root == "" || p == root {
			continue
		}
		readOnly = AppendNew(readOnly, p)
		for dir := filepath.Dir(p); dir != root && Within(dir, root); dir = filepath.Dir(dir) {
			pins = AppendNew(pins, dir)
		}
	}
	var ops []MountOp
	for _, p := range pins {
		if !slices.Contains(readOnly, p) {
			ops = append(ops, MountOp{Path: p})
		}
	}
	for _, p := range readOnly {
		ops = append(ops, MountOp{Path: p, ReadOnly: true})
	}
	slices.SortStableFunc(ops, func(a, b MountOp) int {
		return strings.Count(a.Path, "/") - strings.Count(b.Path, "/")
	})
	return ops
}
