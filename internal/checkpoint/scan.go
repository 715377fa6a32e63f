package checkpoint

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// changesSince walks target's roots as they are now, seen as target saw
// them (its recorded entries, and what its .gitignore files record), and
// lists what differs: what a restore to target would undo.
func (s *Store) changesSince(target *Checkpoint) ([]Change, error) {
	s.idx.refresh()
	var changes []Change
	for _, root := range target.Roots {
		h, err := target.rootTree(root.Path)
		if err != nil {
			return nil, err
		}
		_, node, err := s.walkRoot(root.Path, walkSpec{target: target}, h)
		if err != nil {
			return nil, fmt.Errorf("look at %s as it is now: %w", root.Path, err)
		}
		if _, err := s.finish(node, false); err != nil {
			return nil, err
		}
		was, err := s.readTree(*h)
		if err != nil {
			return nil, err
		}
		if err := s.compare(root.Path, "", was, node, &changes); err != nil {
			return nil, err
		}
	}
	s.idx.saveSoon(s.tmpPath("index"), time.Now()) // a cache: a failed save only costs reads
	return changes, nil
}

// Diff lists what changed in cp's roots since cp was taken: what a restore
// to cp would undo, each text file with the lines added and removed. It
// changes nothing.
func (s *Store) Diff(cp *Checkpoint) ([]Change, error) {
	var changes []Change
	err := s.locked(func() error {
		var err error
		if changes, err = s.changesSince(cp); err == nil {
			s.countLines(changes)
		}
		return err
	})
	return changes, err
}

// Conflicts lists the files a restore to target would change whose
// present state matches neither target nor after, the checkpoint taken
// after the turn being undone: changed since by hand, or by another
// program. A face shows them and asks before it restores.
func (s *Store) Conflicts(after, target *Checkpoint) ([]Change, error) {
	var conflicts []Change
	err := s.locked(func() error {
		changes, err := s.changesSince(target)
		if err == nil {
			conflicts, err = s.conflicts(after, changes)
		}
		return err
	})
	return conflicts, err
}

func (s *Store) conflicts(after *Checkpoint, changes []Change) ([]Change, error) {
	var conflicts []Change
	for _, c := range changes {
		was, err := s.entryIn(after, c.Root, c.Path)
		if err != nil {
			return nil, err
		}
		if !sameAt(was, c.now) {
			conflicts = append(conflicts, c)
		}
	}
	return conflicts, nil
}

// entryIn is what cp recorded at rel in root, or nil.
func (s *Store) entryIn(cp *Checkpoint, root, rel string) (*entry, error) {
	h, err := cp.rootTree(root)
	if err != nil || h == nil {
		return nil, err
	}
	return s.lookupPath(*h, rel)
}

// sameAt reports whether two states of one path are the same, a folder's
// by its kind and mode alone (its entries are compared one by one).
func sameAt(a, b *entry) bool {
	switch {
	case a == nil || b == nil:
		return a == b
	case a.kind == kindDir && b.kind == kindDir:
		return a.perm == b.perm
	}
	return a.sameState(b)
}

// keepSet holds the paths a restore leaves as they are: each path, what
// is inside it, and the folders above it (which must stay to hold it).
type keepSet struct {
	paths map[string]bool // root/rel
}

func newKeepSet(paths []string) keepSet {
	k := keepSet{paths: map[string]bool{}}
	for _, p := range paths {
		k.paths[strings.TrimSuffix(p, "/")] = true
	}
	return k
}

// keeps reports whether path is kept, or inside a kept path.
func (k keepSet) keeps(path string) bool {
	for p := path; ; {
		if k.paths[p] {
			return true
		}
		i := strings.LastIndexByte(p, '/')
		if i <= 0 {
			return false
		}
		p = p[:i]
	}
}

// without drops from changes the ones whose path is kept.
func (k keepSet) without(changes []Change) []Change {
	return slices.DeleteFunc(slices.Clone(changes), func(c Change) bool { return k.keeps(join(c.Root, c.Path)) })
}
