package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Checkpoint is one recorded state of the roots.
type Checkpoint struct {
	ID    int       `json:"id"`
	Time  time.Time `json:"time"`
	Label string    `json:"label,omitempty"`
	Roots []Root    `json:"roots"`
	// Special are sockets, pipes and devices found in the roots: they
	// have no content to record, and a restore leaves them be.
	Special []string `json:"special,omitempty"`
	// Before is set on the checkpoint a restore takes of the present
	// before it changes anything: the id it restored to. Restoring this
	// checkpoint is a redo.
	Before int `json:"before,omitempty"`
}

// Root is one root's part of a checkpoint.
type Root struct {
	Path  string `json:"path"`
	Tree  string `json:"tree"` // the root folder's tree object
	Mode  uint32 `json:"mode"` // the root folder's permission bits
	Files int    `json:"files"`
	Bytes int64  `json:"bytes"` // of the files recorded
}

// maxSpecial bounds the special files a checkpoint lists by name.
const maxSpecial = 100

// Take records the present state of roots (the launch folder and the
// granted folders; a root inside another is part of it) as a new
// checkpoint, labelled for a person ("before turn 3"). It fails, having
// recorded nothing, when a root is over the size cap ([CapError]) or a
// file cannot be read ([ReadError]), or when the store cannot be written
// (a full disk): the caller says so before the turn runs.
func (s *Store) Take(roots []string, label string) (*Checkpoint, error) {
	roots, err := canonRoots(roots)
	if err != nil {
		return nil, err
	}
	var cp *Checkpoint
	err = s.locked(func() error {
		cp, err = s.take(roots, walkSpec{disk: true, store: true}, &Checkpoint{Label: label})
		return err
	})
	return cp, err
}

// take records roots as spec says in cp, and writes its record.
//
// With a watcher, a checkpoint's walk takes the folders that did not
// change since this store's last checkpoint of the root from it, and
// walks the rest; one taken toward a restore's target (spec.target)
// records what the target's rules say too, so the next walk walks all.
func (s *Store) take(roots []string, spec walkSpec, cp *Checkpoint) (*Checkpoint, error) {
	s.idx.refresh()
	s.idx.startWalk()
	cp.Time = s.opts.Now().UTC()
	since := map[string]*since{}
	if s.watch != nil {
		s.watch.drain()
		if spec.target == nil {
			for _, root := range roots {
				since[root] = s.sinceLast(root)
			}
		}
		s.watch.reset() // what changes from here on, the next walk sees
	}
	linked := map[string]*lastTake{} // what the next walk of each root needs of this one
	cp, err := s.takeRoots(roots, spec, cp, since, linked)
	clear(s.last)
	if err != nil || s.watch == nil || spec.target != nil {
		return cp, err
	}
	for _, r := range cp.Roots {
		if h, err := parseHash(r.Tree); err == nil && linked[r.Path] != nil {
			linked[r.Path].id, linked[r.Path].tree = cp.ID, h
			s.last[r.Path] = *linked[r.Path]
		}
	}
	return cp, nil
}

func (s *Store) takeRoots(roots []string, spec walkSpec, cp *Checkpoint, since map[string]*since, linked map[string]*lastTake) (*Checkpoint, error) {
	walkedAll := true
	for _, root := range roots {
		r, special, err := s.takeRoot(root, spec, since[root], linked)
		if err != nil {
			return nil, fmt.Errorf("take a checkpoint of %s: %w", root, err)
		}
		walkedAll = walkedAll && since[root] == nil
		cp.Roots = append(cp.Roots, r)
		cp.Special = append(cp.Special, special...)
	}
	slices.Sort(cp.Special)
	if len(cp.Special) > maxSpecial {
		cp.Special = cp.Special[:maxSpecial]
	}
	if walkedAll { // a walk that took folders from the last one did not see their files
		s.idx.endWalk(roots)
	}
	if err := s.idx.saveSoon(s.tmpPath("index"), time.Now()); err != nil {
		return nil, s.storeErr(err)
	}
	if err := s.writeRecord(cp); err != nil {
		return nil, err
	}
	return cp, nil
}

func (s *Store) takeRoot(root string, spec walkSpec, in *since, linked map[string]*lastTake) (Root, []string, error) {
	r := Root{Path: root}
	st, err := statPath(root)
	if err != nil {
		return r, nil, &ReadError{Path: root, Err: err}
	}
	r.Mode = st.perm()
	var tgt *hash
	if spec.target != nil {
		tgt, err = spec.target.rootTree(root)
		if err != nil {
			return r, nil, err
		}
	}
	w, node, err := s.walkRootSince(root, spec, tgt, in)
	if err != nil {
		return r, nil, err
	}
	h, err := s.finish(node, true)
	if err != nil {
		return r, nil, err
	}
	r.Tree, r.Files, r.Bytes = h.String(), int(w.files.Load()), w.bytes.Load()
	// Folders with linked files are walked every time, so never among
	// those taken from the last walk; a file newly linked may have its
	// other name in one of those, so the next walk walks all.
	if in == nil || !in.newLinks(s.last[root], w.inodes) {
		linked[root] = &lastTake{linked: w.linked, inodes: w.inodes}
	}
	special := make([]string, len(w.special))
	for i, rel := range w.special {
		special[i] = join(root, rel)
	}
	return r, special, nil
}

// rootTree is the tree cp recorded for root, nil when it has none.
func (cp *Checkpoint) rootTree(root string) (*hash, error) {
	for _, r := range cp.Roots {
		if r.Path == root {
			h, err := parseHash(r.Tree)
			if err != nil {
				return nil, fmt.Errorf("checkpoint %d is damaged: %w", cp.ID, err)
			}
			return &h, nil
		}
	}
	return nil, nil
}

// rootPaths are the roots cp recorded.
func (cp *Checkpoint) rootPaths() []string {
	paths := make([]string, len(cp.Roots))
	for i, r := range cp.Roots {
		paths[i] = r.Path
	}
	return paths
}

// canonRoots resolves links in roots, checks each is a folder, and drops
// a root inside another: it is recorded as part of that one.
func canonRoots(roots []string) ([]string, error) {
	if len(roots) == 0 {
		return nil, errors.New("no folder to take a checkpoint of")
	}
	var canon []string
	for _, root := range roots {
		abs, err := filepath.Abs(root)
		if err == nil {
			abs, err = filepath.EvalSymlinks(abs)
		}
		if err != nil {
			return nil, fmt.Errorf("the folder %s cannot be checkpointed: %w", root, err)
		}
		if st, err := os.Stat(abs); err != nil || !st.IsDir() {
			return nil, fmt.Errorf("the folder %s cannot be checkpointed: it is not a folder", root)
		}
		if !utf8.ValidString(abs) {
			return nil, fmt.Errorf("the folder %q cannot be checkpointed: its path is not valid UTF-8", abs)
		}
		canon = append(canon, abs)
	}
	slices.Sort(canon)
	canon = slices.Compact(canon)
	kept := canon[:0]
	for _, r := range canon {
		if len(kept) == 0 || !within(r, kept[len(kept)-1]) {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	return path == dir || dir == "/" || strings.HasPrefix(path, dir+"/")
}

// skipsUnder are the skipped folders (the store's, Options.Skip) inside
// root, relative to it.
func (s *Store) skipsUnder(root string) map[string]bool {
	skips := map[string]bool{}
	for _, p := range append([]string{s.dir}, s.opts.Skip...) {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		if p != root && within(p, root) {
			skips[strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")] = true
		}
	}
	return skips
}

func recordName(id int) string { return fmt.Sprintf("%010d.json", id) }

// writeRecord gives cp the next id and writes its record.
func (s *Store) writeRecord(cp *Checkpoint) error {
	ids, err := s.ids()
	if err != nil {
		return err
	}
	cp.ID = 1
	if len(ids) > 0 {
		cp.ID = ids[len(ids)-1] + 1
	}
	data, err := json.MarshalIndent(cp, "", "\t")
	if err != nil {
		return err
	}
	if err := writeFileSynced(filepath.Join(s.dir, "records", recordName(cp.ID)), data); err != nil {
		return s.storeErr(err)
	}
	return nil
}

// ids are the checkpoints' ids, oldest first.
func (s *Store) ids() ([]int, error) {
	names, err := os.ReadDir(filepath.Join(s.dir, "records"))
	if err != nil {
		return nil, fmt.Errorf("list the checkpoints: %w", err)
	}
	var ids []int
	for _, n := range names {
		id, err := strconv.Atoi(strings.TrimSuffix(n.Name(), ".json"))
		if err == nil && strings.HasSuffix(n.Name(), ".json") {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// List returns the checkpoints, oldest first.
func (s *Store) List() ([]*Checkpoint, error) {
	var list []*Checkpoint
	err := s.locked(func() error {
		ids, err := s.ids()
		for _, id := range ids {
			cp, err := s.record(id)
			if err != nil {
				return err
			}
			list = append(list, cp)
		}
		return err
	})
	return list, err
}

// Get returns the checkpoint id, or an error wrapping ErrNoCheckpoint.
func (s *Store) Get(id int) (*Checkpoint, error) {
	var cp *Checkpoint
	err := s.locked(func() error {
		var err error
		cp, err = s.record(id)
		return err
	})
	return cp, err
}

func (s *Store) record(id int) (*Checkpoint, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, "records", recordName(id)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("checkpoint %d: %w", id, ErrNoCheckpoint)
	} else if err != nil {
		return nil, fmt.Errorf("read checkpoint %d: %w", id, err)
	}
	var cp Checkpoint
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("checkpoint %d is damaged: %w", id, err)
	}
	return &cp, nil
}

// writeFileSynced writes path whole or not at all: a temporary file
// beside it, fsync'd, renamed over it, and the folder fsync'd.
func writeFileSynced(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
