package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"syscall"
)

// RestoreOptions say how a restore treats what changed since the turn.
type RestoreOptions struct {
	// After is the checkpoint taken after the turn being undone. When it
	// is set, files whose present state matches neither it nor the target
	// (changed since, by hand or by another program) stop the restore
	// with a *ConflictError, unless Overwrite is set or they are kept.
	After     *Checkpoint
	Overwrite bool
	// Keep are paths (root and path, as a Change's) left as they are,
	// with everything inside them.
	Keep []string
}

// Restored is what a restore did.
type Restored struct {
	// Redo is the checkpoint of the roots just before the restore:
	// restoring it undoes the restore. Nil when nothing had changed.
	Redo *Checkpoint
	// Changes are what the restore undid (as Diff said them).
	Changes []Change
	// Kept are paths left as they were: asked for, or folders that hold
	// what checkpoints leave out (ignored files, a .git, sockets), which
	// a restore never removes.
	Kept []string
}

// Restore brings target's roots back to target. It refuses with a
// *ConflictError when opts.After says files were changed by hand since
// (see RestoreOptions). It then takes a checkpoint of the present (the
// redo), and writes every file it will put back as a temporary file
// beside it: a full disk, an unwritable folder or a damaged store fails
// there, with nothing changed. Only then does it rename the files into
// place, under a journal that lets the next Open finish the restore if it
// is cut short.
func (s *Store) Restore(target *Checkpoint, opts RestoreOptions) (*Restored, error) {
	var res *Restored
	err := s.locked(func() error {
		var err error
		res, err = s.restore(target, opts)
		return err
	})
	return res, err
}

func (s *Store) restore(target *Checkpoint, opts RestoreOptions) (*Restored, error) {
	changes, err := s.changesSince(target)
	if err != nil {
		return nil, err
	}
	keep := newKeepSet(opts.Keep)
	if opts.After != nil && !opts.Overwrite {
		conflicts, err := s.conflicts(opts.After, keep.without(changes))
		if err != nil {
			return nil, err
		}
		if len(conflicts) > 0 {
			return nil, &ConflictError{Conflicts: conflicts}
		}
	}
	res := &Restored{Changes: keep.without(changes)}
	if len(changes) == 0 {
		return res, nil
	}
	p := s.plan(changes, keep)
	defer p.close()
	if err := s.preflight(p); err != nil {
		return nil, err
	}
	redo, err := s.take(target.rootPaths(), walkSpec{disk: true, target: target, store: true},
		&Checkpoint{Label: fmt.Sprintf("before restoring checkpoint %d", target.ID), Before: target.ID})
	if err != nil {
		return nil, fmt.Errorf("nothing was restored: %w", err)
	}
	res.Redo = redo
	j := newJournal(target.ID, redo.ID, opts.Keep)
	if err := s.run(j, p); err != nil {
		return nil, err
	}
	res.Kept = p.kept
	return res, nil
}

// finishRestore takes a restore cut short after it began renaming to its
// end: the plan made again from the roots as they are, the journal
// committed from the start, since the roots are half way.
func (s *Store) finishRestore(target *Checkpoint, old *journal) error {
	if err := old.removeTempFiles(); err != nil {
		return err
	}
	changes, err := s.changesSince(target)
	if err != nil {
		return err
	}
	j := newJournal(old.target, old.redo, old.keep)
	j.committed = true
	p := s.plan(changes, newKeepSet(old.keep))
	defer p.close()
	return s.run(j, p)
}

// run carries out a plan under the journal j.
func (s *Store) run(j *journal, p *plan) error {
	if err := p.chooseTemps(j); err != nil {
		return err
	}
	if err := s.writeJournal(j); err != nil {
		return fmt.Errorf("nothing was restored: %w", err)
	}
	if err := s.prepare(p); err != nil {
		if j.committed {
			return err
		}
		if rerr := j.removeTempFiles(); rerr != nil {
			return fmt.Errorf("%w (and removing its temporary files: %v; the next start tries again)", err, rerr)
		}
		return errors.Join(err, s.removeJournal())
	}
	if !j.committed {
		j.committed = true
		if err := s.writeJournal(j); err != nil {
			j.removeTempFiles()
			s.removeJournal()
			return fmt.Errorf("nothing was restored: %w", err)
		}
	}
	if err := s.apply(p); err != nil {
		return fmt.Errorf("the restore to checkpoint %d was cut short (each file is either as before or as in the checkpoint, and the next start finishes it): %w", j.target, err)
	}
	return s.removeJournal()
}

// chooseTemps names each file's temporary file, in the nearest folder
// above it that is a folder now: the file's own folder, unless the
// restore makes it. Renaming from there into place stays on one file
// system, for a folder that does not exist yet cannot be a mount point.
func (p *plan) chooseTemps(j *journal) error {
	for i := range p.puts {
		o := &p.puts[i]
		root, err := p.root(o.root)
		if err != nil {
			return err
		}
		dir := parent(o.rel)
		for dir != "" {
			if fi, err := root.Lstat(dir); err == nil && fi.IsDir() {
				break
			}
			dir = parent(dir)
		}
		o.temp = join(dir, ".wisp-restore-"+j.id+"-"+strconv.Itoa(i))
		j.temps = append(j.temps, tempFile{root: o.root, rel: o.temp})
	}
	return nil
}

// prepare writes every temporary file, checked against the store and
// fsync'd, and checks that what is to be removed can be.
func (s *Store) prepare(p *plan) error {
	for i, o := range p.puts {
		err := p.on(o, s.writeTemp)
		s.step("temp", i+1)
		if err != nil {
			if isNoSpace(err) {
				return fmt.Errorf("nothing was restored: the disk that holds %s is full (the restore writes %s): %w", o.root, formatBytes(p.putBytes()), err)
			}
			return fmt.Errorf("nothing was restored: write %s: %w", join(o.root, o.rel), err)
		}
	}
	for _, o := range p.removes {
		if err := writableDir(join(o.root, parent(o.rel))); err != nil {
			return fmt.Errorf("nothing was restored: %s cannot be removed: %w", join(o.root, o.rel), err)
		}
	}
	return nil
}

func (s *Store) writeTemp(root *os.Root, o op) error {
	uid, gid, asRoot := owner(root, o.rel)
	if o.e.kind == kindSymlink {
		err := root.Symlink(o.e.link, o.temp)
		if err == nil && asRoot {
			err = root.Lchown(o.temp, uid, gid)
		}
		return err
	}
	f, err := root.OpenFile(o.temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	err = s.copyObject(o.e.hash, f)
	if err == nil && asRoot {
		err = f.Chown(uid, gid)
	}
	if err == nil {
		// Never set-user or set-group-id: a restore must not make a
		// program that runs as someone else, whatever was recorded.
		err = fchmod(f, o.e.perm&^0o6000)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// apply changes the roots: removals (deepest first), new folders, the
// renames, the folders' modes; then it fsyncs the folders it changed.
// It goes on past a failure, so that as much as can be is done, and each
// step can be done again: a restore cut short is finished by doing it all
// again.
func (s *Store) apply(p *plan) error {
	var errs []error
	note := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	for _, o := range p.removes {
		note(p.on(o, p.remove))
	}
	for _, o := range p.mkdirs {
		note(p.on(o, mkdirIn))
	}
	for i, o := range p.puts {
		note(p.on(o, renameIn))
		s.step("rename", i+1)
	}
	for _, o := range p.chmods {
		note(p.on(o, chmodIn))
	}
	note(p.syncDirs())
	return errors.Join(errs...)
}

// on does the step o in its root.
func (p *plan) on(o op, step func(*os.Root, op) error) error {
	root, err := p.root(o.root)
	if err != nil {
		return err
	}
	return step(root, o)
}

func (p *plan) remove(root *os.Root, o op) error {
	err := root.Remove(o.rel)
	switch {
	case err == nil || errors.Is(err, fs.ErrNotExist):
		return nil
	case o.dir && isNotEmpty(err):
		// Something appeared in it since the plan: it stays.
		p.kept = append(p.kept, join(o.root, o.rel))
		return nil
	}
	return err
}

func mkdirIn(root *os.Root, o op) error {
	// Writable by its owner until the end, when it gets its own mode: a
	// read-only folder must still take what the restore puts in it.
	uid, gid, asRoot := owner(root, o.rel)
	err := root.Mkdir(o.rel, fileMode(o.e.perm|0o700)&fs.ModePerm)
	if errors.Is(err, fs.ErrExist) {
		if fi, serr := root.Lstat(o.rel); serr == nil && fi.IsDir() {
			return nil
		}
	}
	if err == nil && asRoot {
		err = root.Lchown(o.rel, uid, gid)
	}
	return err
}

// owner is whom an entry a restore puts at rel belongs to, when the
// restore runs as root (ok): the owner of what it replaces, else of the
// folder it goes in, so that root's undo in a person's project leaves
// the person's files. Run by the person, the files are the person's.
func owner(root *os.Root, rel string) (uid, gid int, ok bool) {
	if os.Geteuid() != 0 {
		return 0, 0, false
	}
	for {
		if fi, err := root.Lstat(orDot(rel)); err == nil {
			if st, ok := fi.Sys().(*syscall.Stat_t); ok {
				return int(st.Uid), int(st.Gid), true
			}
		}
		if rel == "" {
			return 0, 0, false
		}
		rel = parent(rel)
	}
}

func renameIn(root *os.Root, o op) error {
	err := root.Rename(o.temp, o.rel)
	if errors.Is(err, fs.ErrNotExist) {
		// Renamed already, by the run this one finishes.
		if _, serr := root.Lstat(o.rel); serr == nil {
			return nil
		}
	}
	return err
}

func chmodIn(root *os.Root, o op) error {
	fi, err := root.Lstat(o.rel)
	if err != nil || !fi.IsDir() {
		return err // never through a link put there meanwhile
	}
	return root.Chmod(o.rel, fileMode(o.e.perm))
}

func (p *plan) syncDirs() error {
	var errs []error
	for dir := range p.touched {
		errs = append(errs, p.on(dir, syncDirIn))
	}
	return errors.Join(errs...)
}

func syncDirIn(root *os.Root, dir op) error {
	d, err := root.Open(orDot(dir.rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil // removed since
	} else if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

func orDot(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

// fileMode turns permission bits as stat gives them into Go's.
func fileMode(perm uint32) fs.FileMode {
	m := fs.FileMode(perm & 0o777)
	if perm&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if perm&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if perm&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}

func (s *Store) step(name string, n int) {
	if s.hook != nil {
		s.hook(name, n)
	}
}
