package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Pruned is what Prune removed.
type Pruned struct {
	Checkpoints []int // ids
	Objects     int
	Bytes       int64 // of the objects removed
}

// Prune removes the checkpoints past the store's retention (Options.Keep,
// Options.MaxAge; the newest is always kept), then every object no
// checkpoint left uses, and what an operation cut short left in tmp/. It
// reads every tree the kept checkpoints use: run it beside a turn, not
// before one.
func (s *Store) Prune() (*Pruned, error) {
	var res *Pruned
	err := s.locked(func() error {
		var err error
		res, err = s.prune()
		return err
	})
	return res, err
}

func (s *Store) prune() (*Pruned, error) {
	ids, err := s.ids()
	if err != nil {
		return nil, err
	}
	res := &Pruned{}
	var kept []*Checkpoint
	oldest := s.opts.Now().Add(-s.opts.MaxAge)
	for i, id := range ids {
		cp, err := s.record(id)
		if err != nil {
			return nil, err
		}
		newer := len(ids) - 1 - i
		tooMany := s.opts.Keep >= 0 && newer >= s.opts.Keep
		tooOld := s.opts.MaxAge >= 0 && cp.Time.Before(oldest)
		if newer > 0 && (tooMany || tooOld) {
			if err := os.Remove(filepath.Join(s.dir, "records", recordName(id))); err != nil {
				return nil, fmt.Errorf("remove checkpoint %d: %w", id, err)
			}
			res.Checkpoints = append(res.Checkpoints, id)
			continue
		}
		kept = append(kept, cp)
	}
	s.removeTemps()
	live, err := s.mark(kept)
	if err != nil {
		return nil, err
	}
	if err := s.sweep(live, res); err != nil {
		return nil, err
	}
	s.idx.refresh()
	s.idx.forget(func(h hash) bool { return !live[h] })
	return res, s.idx.save(s.tmpPath("index"))
}

// mark finds every object the checkpoints use.
func (s *Store) mark(cps []*Checkpoint) (map[hash]bool, error) {
	live := map[hash]bool{}
	var visit func(h hash) error
	visit = func(h hash) error {
		if live[h] {
			return nil
		}
		live[h] = true
		entries, err := s.readTree(h)
		if err != nil {
			return err
		}
		for _, e := range entries {
			switch e.kind {
			case kindFile:
				live[e.hash] = true
			case kindDir:
				if err := visit(e.hash); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for _, cp := range cps {
		for _, r := range cp.Roots {
			h, err := parseHash(r.Tree)
			if err == nil {
				err = visit(h)
			}
			if err != nil {
				// Removing objects on a partial mark could lose a
				// checkpoint's files: stop instead.
				return nil, fmt.Errorf("checkpoint %d: %w", cp.ID, err)
			}
		}
	}
	return live, nil
}

// sweep removes the objects not in live.
func (s *Store) sweep(live map[hash]bool, res *Pruned) error {
	objects := filepath.Join(s.dir, "objects")
	dirs, err := os.ReadDir(objects)
	if err != nil {
		return err
	}
	var errs []error
	for _, d := range dirs {
		names, err := os.ReadDir(filepath.Join(objects, d.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, n := range names {
			h, err := parseHash(d.Name() + n.Name())
			if err != nil || live[h] {
				continue
			}
			if fi, err := n.Info(); err == nil {
				res.Bytes += fi.Size()
			}
			if err := os.Remove(filepath.Join(objects, d.Name(), n.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			s.treesMu.Lock()
			delete(s.trees, h)
			s.treesMu.Unlock()
			res.Objects++
		}
	}
	return errors.Join(errs...)
}
