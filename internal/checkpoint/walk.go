package checkpoint

import (
	"cmp"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
)

// dirNode is a folder as a walk found it: the entries it records, the
// folders among them, and how many entries it left out (a folder that
// holds any is never removed by a restore).
type dirNode struct {
	entries    []entry
	kids       map[string]*dirNode
	unrecorded int
	pending    []pendingHash // files whose hash a worker finds
}

type pendingHash struct {
	i   int // in entries
	res *hashResult
}

type hashResult struct {
	hash hash
	size int64
}

// walkSpec says which entries a walk records and what it does with them.
type walkSpec struct {
	// disk: the .gitignore files on disk decide, as for a checkpoint.
	disk bool
	// target: so does a checkpoint, whose entries are always looked at
	// and whose recorded .gitignore files decide about the others, as
	// for a restore to it. An entry is recorded when either says so.
	target *Checkpoint
	// store: file contents are stored, not only hashed.
	store bool
}

// walker walks one root: folders side by side (as many at once as there
// are processors), files read by workers as the walk finds them.
type walker struct {
	s    *Store
	spec walkSpec
	root string
	skip map[string]bool // paths relative to root never walked

	bytes   atomic.Int64
	files   atomic.Int64
	entries atomic.Int64 // files, links and folders recorded
	mu      sync.Mutex
	special []string
	linked  []string           // folders holding a file with more than one name
	inodes  map[[2]uint64]bool // and those files
	err     error

	inc      *since // what may be taken from the last walk; nil: walk all
	watching bool   // folders walked are watched for the next walk

	dirs    sync.WaitGroup // folders being walked
	slots   chan struct{}  // walks that may run beside this one
	jobs    chan hashJob
	workers sync.WaitGroup
}

// hashJob is one file to read: opened by the walk, read by a worker.
type hashJob struct {
	f    *os.File
	rel  string
	path string
	stat fileStat
	res  *hashResult
}

// frame is what the walk knows inside one folder.
type frame struct {
	rel   string   // path from the root, "" for the root
	parts []string // the same, split
	disk  rules
	// tgt are the target's entries here (nil where it has no such
	// folder), tgtRules its rules.
	tgt      []entry
	tgtRules rules
	// prev are the entries the last walk recorded here, when prevKnown:
	// a walk that watched since may take unchanged folders from them.
	prev      []entry
	prevKnown bool
}

// walkRoot walks root and returns its folders as found, every file's
// hash filled in.
func (s *Store) walkRoot(root string, spec walkSpec, tgtTree *hash) (*walker, *dirNode, error) {
	return s.walkRootSince(root, spec, tgtTree, nil)
}

// walkRootSince is walkRoot taking from the last walk what in says is
// unchanged, and watching what it walks when spec is a checkpoint's.
func (s *Store) walkRootSince(root string, spec walkSpec, tgtTree *hash, in *since) (*walker, *dirNode, error) {
	procs := max(2, runtime.GOMAXPROCS(0))
	// Half the processors walk: on two busy cores, walks side by side
	// measured slower than one (BenchmarkCheckpoint20kFiles10Changed).
	walks := cmp.Or(s.walks, max(1, procs/2))
	w := &walker{s: s, spec: spec, root: root, skip: s.skipsUnder(root), inc: in, inodes: map[[2]uint64]bool{},
		watching: s.watch != nil && spec.target == nil && spec.store,
		slots:    make(chan struct{}, walks-1), jobs: make(chan hashJob, 64)}
	for range procs {
		w.workers.Add(1)
		go w.work()
	}
	node, err := w.walkTop(tgtTree)
	w.dirs.Wait()
	close(w.jobs)
	w.workers.Wait()
	if err == nil {
		err = w.firstErr()
	}
	if err == nil && w.overCap() {
		err = &CapError{Root: root, Size: w.bytes.Load(), Cap: s.opts.MaxRootBytes}
	}
	return w, node, err
}

func (w *walker) overCap() bool {
	return w.s.opts.MaxRootBytes >= 0 && w.bytes.Load() > w.s.opts.MaxRootBytes
}

func (w *walker) walkTop(tgtTree *hash) (*dirNode, error) {
	f, err := os.Open(w.root)
	if err != nil {
		return nil, w.readErr("", err)
	}
	var fr frame
	if w.spec.target != nil && tgtTree != nil {
		if fr.tgt, err = w.s.readTree(*tgtTree); err != nil {
			f.Close()
			return nil, err
		}
	}
	if w.inc != nil && !w.inc.full[""] {
		if fr.prev, err = w.s.readTree(w.inc.prev); err != nil {
			f.Close()
			return nil, err
		}
		fr.prevKnown = true
	}
	w.watch(f, "")
	node := &dirNode{}
	w.dirs.Add(1)
	w.walkDir(f, fr, node)
	return node, nil
}

// watch has the folder open as f, at rel, watched for the next walk.
func (w *walker) watch(f *os.File, rel string) {
	if w.watching {
		w.s.watch.add(int(f.Fd()), filepath.Join(w.root, rel))
	}
}

// reuse takes the folder at rel, which fr's folder holds as e, from the
// last walk when nothing in it changed since: its tree as recorded, and
// what it holds counted toward the caps. False: walk it.
func (w *walker) reuse(rel string, fr *frame, e *entry) (bool, error) {
	if !w.inc.reusable(rel, fr) {
		return false, nil
	}
	pe := lookup(fr.prev, e.name)
	if pe == nil || pe.kind != kindDir {
		return false, nil
	}
	t, err := w.s.treeTotals(pe.hash)
	if err != nil {
		return false, err
	}
	e.hash = pe.hash
	w.files.Add(t.files)
	w.bytes.Add(t.bytes)
	if max := w.s.opts.MaxRootEntries; max >= 0 && w.entries.Add(t.entries) > int64(max) {
		return true, &CapError{Root: w.root, Size: w.bytes.Load(), Cap: w.s.opts.MaxRootBytes, Entries: max}
	}
	return true, nil
}

// walkDir walks the open folder f into node (and closes it); a failure
// is the walk's.
func (w *walker) walkDir(f *os.File, fr frame, node *dirNode) {
	defer w.dirs.Done()
	defer f.Close()
	if err := w.readDir(f, fr, node); err != nil {
		w.fail(err)
	}
}

func (w *walker) readDir(f *os.File, fr frame, node *dirNode) error {
	w.s.dirsRead.Add(1)
	names, err := f.Readdirnames(-1)
	if err != nil {
		return w.readErr(fr.rel, err)
	}
	slices.Sort(names)
	fd := int(f.Fd())
	if err := w.loadRules(fd, names, &fr); err != nil {
		return err
	}
	for _, name := range names {
		if w.failed() {
			return nil
		}
		if err := w.visit(fd, name, &fr, node); err != nil {
			return err
		}
	}
	return nil
}

// loadRules adds the folder's own .gitignore to the rules of fr: the one
// on disk for the disk's rules, the one recorded for the target's.
func (w *walker) loadRules(fd int, names []string, fr *frame) error {
	if w.spec.disk {
		var content []byte
		if _, ok := slices.BinarySearch(names, gitignoreName); ok {
			var err error
			if content, err = readSmallAt(fd, gitignoreName); err != nil {
				return w.readErr(join(fr.rel, gitignoreName), err)
			}
		}
		fr.disk = fr.disk.enter(fr.parts, content)
	}
	if w.spec.target != nil {
		var content []byte
		if e := lookup(fr.tgt, gitignoreName); e != nil && e.kind == kindFile {
			var err error
			if content, err = w.s.readObject(e.hash); err != nil {
				return err
			}
		}
		fr.tgtRules = fr.tgtRules.enter(fr.parts, content)
	}
	return nil
}

func (w *walker) visit(fd int, name string, fr *frame, node *dirNode) error {
	rel := join(fr.rel, name)
	if isGitDir(name) || w.skip[rel] {
		node.unrecorded++
		return nil
	}
	st, err := lstatAt(fd, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // gone since the folder was read: nothing to record
	} else if err != nil {
		return w.readErr(rel, err)
	}
	k := st.kind()
	if k == kindOther {
		node.unrecorded++
		w.mu.Lock()
		w.special = append(w.special, rel)
		w.mu.Unlock()
		return nil
	}
	parts := append(fr.parts[:len(fr.parts):len(fr.parts)], name)
	if !w.records(name, parts, k, fr) {
		node.unrecorded++
		return nil
	}
	if max := w.s.opts.MaxRootEntries; max >= 0 && w.entries.Add(1) > int64(max) {
		return &CapError{Root: w.root, Size: w.bytes.Load(), Cap: w.s.opts.MaxRootBytes, Entries: max}
	}
	node.entries = append(node.entries, entry{name: name, kind: k, perm: st.perm()})
	e := &node.entries[len(node.entries)-1]
	switch k {
	case kindFile:
		if st.links > 1 {
			w.mu.Lock()
			w.linked = append(w.linked, fr.rel)
			w.inodes[[2]uint64{st.dev, st.ino}] = true
			w.mu.Unlock()
		}
		return w.file(fd, rel, st, node)
	case kindSymlink:
		e.link, err = readlinkAt(fd, name)
		e.size = int64(len(e.link))
		if err != nil {
			return w.readErr(rel, err)
		}
		return nil
	}
	if reused, err := w.reuse(rel, fr, e); reused || err != nil {
		return err
	}
	return w.dir(fd, name, parts, fr, node)
}

// records reports whether the walk records the entry at parts.
func (w *walker) records(name string, parts []string, k kind, fr *frame) bool {
	isDir := k == kindDir
	switch {
	case name == gitignoreName && k == kindFile:
		return true
	case w.spec.disk && !fr.disk.ignores(parts, isDir):
		return true
	case w.spec.target == nil:
		return false
	case lookup(fr.tgt, name) != nil:
		return true
	}
	return !fr.tgtRules.ignores(parts, isDir)
}

func (w *walker) file(fd int, rel string, st fileStat, node *dirNode) error {
	i := len(node.entries) - 1
	node.entries[i].size = st.size
	w.bytes.Add(st.size)
	w.files.Add(1)
	if w.overCap() {
		return nil // walk on (up to MaxRootEntries), to say how large the root is
	}
	path := join(w.root, rel)
	if h, ok := w.s.idx.lookup(path, st, w.spec.store); ok {
		node.entries[i].hash = h
		return nil
	}
	f, err := openFileAt(fd, node.entries[i].name)
	if err != nil {
		return w.readErr(rel, err)
	}
	res := &hashResult{}
	node.pending = append(node.pending, pendingHash{i: i, res: res})
	w.jobs <- hashJob{f: f, rel: rel, path: path, stat: st, res: res}
	return nil
}

// dir walks the folder name, which fr's folder (open as fd) holds: beside
// this walk when a slot is free, else within it.
func (w *walker) dir(fd int, name string, parts []string, fr *frame, node *dirNode) error {
	rel := join(fr.rel, name)
	f, err := openDirAt(fd, name)
	if err != nil {
		return w.readErr(rel, err)
	}
	sub := frame{rel: rel, parts: parts, disk: fr.disk, tgtRules: fr.tgtRules}
	if e := lookup(fr.tgt, name); e != nil && e.kind == kindDir {
		if sub.tgt, err = w.s.readTree(e.hash); err != nil {
			f.Close()
			return err
		}
	}
	if e := lookup(fr.prev, name); fr.prevKnown && !w.inc.full[rel] && e != nil && e.kind == kindDir {
		if sub.prev, err = w.s.readTree(e.hash); err != nil {
			f.Close()
			return err
		}
		sub.prevKnown = true
	}
	w.watch(f, rel)
	kid := &dirNode{}
	if node.kids == nil {
		node.kids = map[string]*dirNode{}
	}
	node.kids[name] = kid
	w.dirs.Add(1)
	select {
	case w.slots <- struct{}{}:
		go func() {
			defer func() { <-w.slots }()
			w.walkDir(f, sub, kid)
		}()
	default:
		w.walkDir(f, sub, kid)
	}
	return nil
}

func (w *walker) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

func (w *walker) failed() bool { return w.firstErr() != nil }

func (w *walker) firstErr() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// readErr says which file or folder of the project could not be read,
// and what to do.
func (w *walker) readErr(rel string, err error) error {
	path := w.root
	if rel != "" {
		path = join(w.root, rel)
	}
	return &ReadError{Path: path, Err: err}
}

// readSmallAt reads the file name in dirfd (a .gitignore), not through a
// link: git does not follow a .gitignore that is a link either.
func readSmallAt(dirfd int, name string) ([]byte, error) {
	f, err := openFileAt(dirfd, name)
	if errors.Is(err, syscall.ELOOP) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<20))
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
