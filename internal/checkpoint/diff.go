package checkpoint

import (
	"strings"
)

// What a change did since the checkpoint.
type What string

const (
	Added    What = "added"    // not in the checkpoint: a restore removes it
	Removed  What = "removed"  // only in the checkpoint: a restore puts it back
	Modified What = "modified" // in both, different: a restore puts the old one back
)

// Change is one path whose state differs between a checkpoint and the
// present (or a later checkpoint).
type Change struct {
	Root string `json:"root"`
	Path string `json:"path"` // from Root, with '/'
	What What   `json:"what"`
	// Type is what the path is now ("file", "symlink", "folder"), or
	// was, when it was removed; WasType is set when a modification
	// changed it.
	Type    string `json:"type"`
	WasType string `json:"wasType,omitempty"`
	// ModeOnly: only the permission bits changed.
	ModeOnly bool `json:"modeOnly,omitempty"`
	// Lines counts the lines added and removed in a text file (nil for a
	// binary file, a large one, a link or a folder; Diff counts them only
	// when asked).
	Lines  *LineCount `json:"lines,omitempty"`
	Binary bool       `json:"binary,omitempty"`

	was, now *entry   // the checkpoint's and the present's; nil when absent
	node     *dirNode // the present folder, for a folder that is there now
}

// LineCount is a short summary of a text file's change, as git's --stat.
type LineCount struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// Approximate: the files differ too much to count exactly; the
	// counts then treat the lines as a bag, ignoring their order.
	Approximate bool `json:"approximate,omitempty"`
}

// compare lists what differs between the folder the checkpoint recorded
// (was, from the store; nil where it had none) and the one found now
// (node; nil where there is none), below rel in root.
func (s *Store) compare(root, rel string, was []entry, node *dirNode, out *[]Change) error {
	var now []entry
	if node != nil {
		now = node.entries
	}
	i, j := 0, 0
	for i < len(was) || j < len(now) {
		var w, n *entry
		switch {
		case j == len(now) || i < len(was) && was[i].name < now[j].name:
			w, i = &was[i], i+1
		case i == len(was) || now[j].name < was[i].name:
			n, j = &now[j], j+1
		default:
			w, n, i, j = &was[i], &now[j], i+1, j+1
		}
		if err := s.compareEntry(root, rel, w, n, node, out); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) compareEntry(root, rel string, w, n *entry, parent *dirNode, out *[]Change) error {
	if w != nil && n != nil && w.sameState(n) {
		return nil
	}
	named := w
	if named == nil {
		named = n
	}
	c := Change{Root: root, Path: join(rel, named.name), was: w, now: n}
	if n != nil && n.kind == kindDir {
		c.node = parent.kids[n.name]
	}
	switch {
	case w == nil:
		c.What, c.Type = Added, n.kind.String()
	case n == nil:
		c.What, c.Type = Removed, w.kind.String()
	default:
		c.What, c.Type = Modified, n.kind.String()
		if w.kind != n.kind {
			c.WasType = w.kind.String()
		}
		c.ModeOnly = w.kind == n.kind && w.perm != n.perm && (w.kind == kindDir || w.hash == n.hash && w.link == n.link)
	}
	if c.What != Modified || w.kind != kindDir || n.kind != kindDir || c.ModeOnly {
		*out = append(*out, c) // a folder in both is listed only for its mode
	}
	var wasKids []entry
	if w != nil && w.kind == kindDir && (c.node == nil || w.hash != n.hash) {
		var err error
		if wasKids, err = s.readTree(w.hash); err != nil {
			return err
		}
	}
	if c.node == nil && wasKids == nil || w != nil && n != nil && w.kind == kindDir && n.kind == kindDir && w.hash == n.hash {
		return nil
	}
	return s.compare(root, c.Path, wasKids, c.node, out)
}

// lookupPath finds the entry at rel in the tree h, or nil.
func (s *Store) lookupPath(h hash, rel string) (*entry, error) {
	var e *entry
	for _, name := range strings.Split(rel, "/") {
		if e != nil {
			if e.kind != kindDir {
				return nil, nil
			}
			h = e.hash
		}
		entries, err := s.readTree(h)
		if err != nil {
			return nil, err
		}
		if e = lookup(entries, name); e == nil {
			return nil, nil
		}
	}
	return e, nil
}
