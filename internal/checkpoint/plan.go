package checkpoint

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
)

// plan is what a restore does to the roots, in the order it does it.
type plan struct {
	removes []op // files, links and folders not in the target: deepest first
	mkdirs  []op // the target's folders that are missing: shallowest first
	puts    []op // the target's files and links, each renamed into place
	chmods  []op // the target's folders' modes: deepest first
	kept    []string
	touched map[op]bool // folders whose entries change, to fsync
	roots   map[string]*os.Root
}

// op is one step of a plan, on one path of one root.
type op struct {
	root, rel string
	e         *entry // the target's: what to put, make, or the mode to set
	dir       bool   // a removal of a folder
	temp      string // a put's temporary file
}

// plan turns changes into steps. Kept paths are left alone, and so is a
// folder that holds anything a checkpoint does not record (ignored files,
// a .git, a socket): a restore removes only what it could bring back.
func (s *Store) plan(changes []Change, keep keepSet) *plan {
	p := &plan{touched: map[op]bool{}, roots: map[string]*os.Root{}}
	stays := map[string]bool{} // folders (root/rel) that stay
	markStays := func(path string) {
		for ; path != "" && !stays[path]; path = parent(path) {
			stays[path] = true
		}
	}
	for _, c := range changes {
		path := join(c.Root, c.Path)
		if keep.keeps(path) {
			markStays(parent(path))
			if c.now != nil && c.now.kind == kindDir {
				markStays(path)
			}
		} else if c.node != nil && c.node.unrecorded > 0 {
			markStays(path)
		}
	}
	for _, c := range changes {
		p.add(c, keep, stays)
	}
	byDepth := func(a, b op) int {
		return cmp.Or(cmp.Compare(strings.Count(a.rel, "/"), strings.Count(b.rel, "/")), cmp.Compare(a.root, b.root), cmp.Compare(a.rel, b.rel))
	}
	slices.SortFunc(p.removes, func(a, b op) int { return byDepth(b, a) })
	slices.SortFunc(p.mkdirs, byDepth)
	slices.SortFunc(p.chmods, func(a, b op) int { return byDepth(b, a) })
	return p
}

// add plans one change: what is there now goes when the target has
// something else (or nothing) there; what the target has comes back.
func (p *plan) add(c Change, keep keepSet, stays map[string]bool) {
	path := join(c.Root, c.Path)
	if keep.keeps(path) {
		p.kept = append(p.kept, path)
		return
	}
	o := op{root: c.Root, rel: c.Path, e: c.was}
	if c.now != nil && (c.was == nil || c.was.kind != c.now.kind) {
		if c.now.kind == kindDir && stays[path] {
			p.kept = append(p.kept, path)
			return // and what the target has there cannot come back
		}
		p.removes = append(p.removes, op{root: c.Root, rel: c.Path, dir: c.now.kind == kindDir})
		p.touch(c.Root, parent(c.Path))
	}
	switch {
	case c.was == nil:
	case c.was.kind == kindDir:
		if c.now == nil || c.now.kind != kindDir {
			p.mkdirs = append(p.mkdirs, o)
			p.touch(c.Root, parent(c.Path))
		}
		p.chmods = append(p.chmods, o)
	default:
		p.puts = append(p.puts, o)
		p.touch(c.Root, parent(c.Path))
	}
}

func (p *plan) touch(root, dir string) { p.touched[op{root: root, rel: dir}] = true }

// root opens a root for the plan's steps: every path is resolved inside
// it, so that a link put in a root meanwhile cannot lead a restore, which
// runs as the person and outside the sandbox, to write elsewhere.
func (p *plan) root(path string) (*os.Root, error) {
	if r, ok := p.roots[path]; ok {
		return r, nil
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	p.roots[path] = r
	return r, nil
}

func (p *plan) close() {
	for _, r := range p.roots {
		r.Close()
	}
}

func (p *plan) putBytes() int64 {
	var n int64
	for _, o := range p.puts {
		n += o.e.size
	}
	return n
}

// preflight checks, before anything is written, that the store holds
// everything the plan puts back and that the roots can be opened.
func (s *Store) preflight(p *plan) error {
	for _, o := range p.puts {
		if _, err := p.root(o.root); err != nil {
			return fmt.Errorf("nothing was restored: %w", err)
		}
		if o.e.kind == kindFile && !s.hasObject(o.e.hash) {
			return fmt.Errorf("nothing was restored: %w", s.objectErr(o.e.hash, errors.New("missing")))
		}
	}
	return nil
}

// parent is the folder above rel ("" for the root itself).
func parent(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}
