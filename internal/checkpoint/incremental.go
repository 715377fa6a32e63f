package checkpoint

import (
	"os"
	"path/filepath"
	"strings"
)

// lastTake is the checkpoint a store's own last walk of a root recorded,
// which the next one may take unchanged folders from.
type lastTake struct {
	id   int
	tree hash
	// linked are the folders that hold a file with more than one name:
	// written through its other name, it changes without an event
	// here, so they are walked every time.
	linked []string
	inodes map[[2]uint64]bool // those files
}

// since says what a walk of root may take from the last checkpoint: nil
// when it must walk all (no watcher, no last walk, events lost, or the
// last checkpoint pruned since).
type since struct {
	prev    hash
	touched map[string]bool // changed folders, and the folders above them
	full    map[string]bool // folders walked whole
}

// sinceLast is what the walk of root about to start may reuse; the
// watcher's events must have been drained.
func (s *Store) sinceLast(root string) *since {
	last, ok := s.last[root]
	if s.watch == nil || !ok || !localFS(root) {
		return nil
	}
	dirty, full, ok := s.watch.changes(root)
	if !ok {
		return nil
	}
	if _, err := os.Stat(filepath.Join(s.dir, "records", recordName(last.id))); err != nil {
		return nil // pruned since, or unreadable: walk all
	}
	in := &since{prev: last.tree, touched: map[string]bool{"": true}, full: full}
	for _, set := range []map[string]bool{dirty, full, setOf(last.linked)} {
		for rel := range set {
			for p := rel; p != ""; p = parentRel(p) {
				in.touched[p] = true
			}
		}
	}
	return in
}

// newLinks reports whether the walk found a file with more than one name
// that the last walk did not: its other names may be in folders this walk
// took from the last one unread, so the next walk must walk all to find
// them.
func (in *since) newLinks(last lastTake, found map[[2]uint64]bool) bool {
	for ino := range found {
		if !last.inodes[ino] {
			return true
		}
	}
	return false
}

// reusable reports whether the folder at rel, unchanged since the last
// walk, may be taken from it as it was.
func (in *since) reusable(rel string, fr *frame) bool {
	return in != nil && fr.prevKnown && !in.touched[rel]
}

func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, s := range list {
		set[s] = true
	}
	return set
}

func parentRel(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[:i]
	}
	return ""
}

// relUnder is the paths of set under root, relative to it ("" for root).
func relUnder(set map[string]bool, root string) map[string]bool {
	rel := map[string]bool{}
	for p := range set {
		switch {
		case p == root:
			rel[""] = true
		case strings.HasPrefix(p, root+"/"):
			rel[p[len(root)+1:]] = true
		case root == "/" && strings.HasPrefix(p, "/"):
			rel[p[1:]] = true
		}
	}
	return rel
}

// totals are what a tree records, all the way down.
type totals struct {
	files, entries int64
	bytes          int64
}

// treeTotals counts what the tree h records, from the trees cached or
// read.
func (s *Store) treeTotals(h hash) (totals, error) {
	s.treesMu.Lock()
	t, ok := s.totals[h]
	s.treesMu.Unlock()
	if ok {
		return t, nil
	}
	entries, err := s.readTree(h)
	if err != nil {
		return t, err
	}
	for i := range entries {
		e := &entries[i]
		t.entries++
		switch e.kind {
		case kindFile:
			t.files++
			t.bytes += e.size
		case kindDir:
			sub, err := s.treeTotals(e.hash)
			if err != nil {
				return t, err
			}
			t.files, t.entries, t.bytes = t.files+sub.files, t.entries+sub.entries, t.bytes+sub.bytes
		}
	}
	s.treesMu.Lock()
	s.totals[h] = t
	s.treesMu.Unlock()
	return t, nil
}
