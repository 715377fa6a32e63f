package checkpoint

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
)

// Reading the files a walk found: the workers, and the trees they end in.

// work reads files the walk opened: it stores or hashes each, and notes
// in the index what a stat can tell next time.
func (w *walker) work() {
	defer w.workers.Done()
	for job := range w.jobs {
		if w.failed() {
			job.f.Close()
			continue
		}
		err := w.read(job)
		job.f.Close()
		if err != nil {
			w.fail(err)
		}
	}
}

func (w *walker) read(job hashJob) error {
	st, err := fstat(int(job.f.Fd()))
	if err != nil {
		return w.readErr(job.rel, err)
	}
	if st.kind() != kindFile || st.ino != job.stat.ino || st.dev != job.stat.dev {
		return fmt.Errorf("%s changed while the checkpoint was being taken (a command still running?); try again", join(w.root, job.rel))
	}
	readStart := w.s.opts.Now()
	w.s.filesRead.Add(1)
	var h hash
	var n int64
	if w.spec.store {
		h, n, err = w.s.storeContent(job.f)
	} else {
		h, n, err = hashOnly(job.f)
	}
	var src errReadSource
	if errors.As(err, &src) {
		return w.readErr(job.rel, src.err)
	} else if err != nil {
		return err
	}
	job.res.hash, job.res.size = h, n
	after, err := fstat(int(job.f.Fd()))
	if err == nil && after == job.stat {
		w.s.idx.record(job.path, job.stat, h, readStart, w.spec.store)
	}
	// A file written to while it was read is recorded as read, and read
	// again next time: the index keeps no stat for it.
	return nil
}

// finish fills in the hashes the workers found, and each folder's tree
// hash, from the bottom up; with write set it also stores the trees.
func (s *Store) finish(node *dirNode, write bool) (hash, error) {
	for _, p := range node.pending {
		node.entries[p.i].hash = p.res.hash
		node.entries[p.i].size = p.res.size
	}
	node.pending = nil
	for i := range node.entries {
		e := &node.entries[i]
		kid := node.kids[e.name]
		if e.kind != kindDir || kid == nil { // a folder taken from the last walk has its tree
			continue
		}
		h, err := s.finish(kid, write)
		if err != nil {
			return h, err
		}
		e.hash = h
	}
	if write {
		return s.writeTree(node.entries)
	}
	return hash(sha256.Sum256(encodeTree(node.entries))), nil
}

func hashOnly(f *os.File) (hash, int64, error) {
	sum := sha256.New()
	n, err := copyBuffered(sum, readerOnly{f})
	var h hash
	sum.Sum(h[:0])
	return h, n, err
}
