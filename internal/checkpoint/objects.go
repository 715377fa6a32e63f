package checkpoint

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	gohash "hash"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Objects live in objects/<first two hex digits>/<the rest>, written to
// tmp/ first and renamed into place, so that a name is only ever seen
// with its whole content. They are not fsync'd: every read checks the
// content against its name, so a damaged object is found before it is
// used, and a restore fails before it changes anything.

func (s *Store) objectPath(h hash) string {
	x := h.String()
	return filepath.Join(s.dir, "objects", x[:2], x[2:])
}

func (s *Store) hasObject(h hash) bool {
	_, err := os.Stat(s.objectPath(h))
	return err == nil
}

// newTemp makes a file in tmp/ with a name no one else uses.
func (s *Store) newTemp() (*os.File, error) {
	var b [8]byte
	rand.Read(b[:])
	return os.OpenFile(s.tmpPath(hex.EncodeToString(b[:])), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// place renames the finished temporary file tmp to the object h (or drops
// it when the store has h already).
func (s *Store) place(tmp string, h hash) error {
	dst := s.objectPath(h)
	if _, err := os.Stat(dst); err == nil {
		return os.Remove(tmp)
	}
	err := os.Rename(tmp, dst)
	if errors.Is(err, fs.ErrNotExist) {
		if err = os.Mkdir(filepath.Dir(dst), 0o700); err == nil || errors.Is(err, fs.ErrExist) {
			err = os.Rename(tmp, dst)
		}
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// writeTree stores a folder's entries and returns the tree's hash.
func (s *Store) writeTree(entries []entry) (hash, error) {
	data := encodeTree(entries)
	h := hash(sha256.Sum256(data))
	if s.hasObject(h) {
		return h, nil
	}
	f, err := s.newTemp()
	if err != nil {
		return h, s.storeErr(err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.place(f.Name(), h)
	}
	if err != nil {
		os.Remove(f.Name())
		return h, s.storeErr(err)
	}
	s.cacheTree(h, entries)
	return h, nil
}

// storeContent stores what src holds from its start and returns its hash
// and length: by a copy-on-write clone where the file systems can (then
// read back to hash it), else by one read that hashes and copies.
func (s *Store) storeContent(src *os.File) (hash, int64, error) {
	var h hash
	tmp, err := s.newTemp()
	if err != nil {
		return h, 0, s.storeErr(err)
	}
	name := tmp.Name()
	tmp.Close()
	os.Remove(name)
	var n int64
	sum := sha256.New()
	if cloneFile(src, name) {
		n, err = hashFile(name, sum)
	} else {
		n, err = copyHashing(src, name, sum)
	}
	if err != nil {
		os.Remove(name)
		if _, ok := err.(errReadSource); !ok {
			err = s.storeErr(err)
		}
		return h, 0, err
	}
	sum.Sum(h[:0])
	if err := s.place(name, h); err != nil {
		return h, 0, s.storeErr(err)
	}
	return h, n, nil
}

// errReadSource marks a failure to read the file being recorded, as
// opposed to one to write the store.
type errReadSource struct{ err error }

func (e errReadSource) Error() string { return e.err.Error() }
func (e errReadSource) Unwrap() error { return e.err }

func copyHashing(src *os.File, dst string, sum gohash.Hash) (int64, error) {
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := copyBuffered(io.MultiWriter(f, sum), readerOnly{src})
	if err != nil {
		return n, err
	}
	return n, f.Close()
}

// copyBuffers are io.Copy's buffers, larger than its own: a large file
// costs fewer system calls.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

func hashFile(name string, sum gohash.Hash) (int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return copyBuffered(sum, f)
}

func copyBuffered(w io.Writer, r io.Reader) (int64, error) {
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	return io.CopyBuffer(w, r, *buf)
}

// readerOnly hides src's WriteTo/ReadFrom so that a read error is told
// apart from a write error.
type readerOnly struct{ f *os.File }

func (r readerOnly) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	if err != nil && err != io.EOF {
		err = errReadSource{err}
	}
	return n, err
}

// storeErr says that the store, not the project, failed.
func (s *Store) storeErr(err error) error {
	if isNoSpace(err) {
		return fmt.Errorf("the disk that holds the checkpoint store %s is full: %w", s.dir, err)
	}
	return fmt.Errorf("write to the checkpoint store %s: %w", s.dir, err)
}

// readObject reads a whole object and checks it against its name.
func (s *Store) readObject(h hash) ([]byte, error) {
	data, err := os.ReadFile(s.objectPath(h))
	if err == nil && hash(sha256.Sum256(data)) != h {
		err = errDamaged
	}
	if err != nil {
		return nil, s.objectErr(h, err)
	}
	return data, nil
}

var errDamaged = errors.New("its content does not match its name")

func (s *Store) objectErr(h hash, err error) error {
	return fmt.Errorf("the checkpoint store %s lacks object %s, or cannot read it (%w); the checkpoints that use it cannot be restored", s.dir, h, err)
}

func (s *Store) readTree(h hash) ([]entry, error) {
	s.treesMu.Lock()
	entries, ok := s.trees[h]
	s.treesMu.Unlock()
	if ok {
		return entries, nil
	}
	data, err := s.readObject(h)
	if err != nil {
		return nil, err
	}
	entries, err = decodeTree(data)
	if err != nil {
		return nil, s.objectErr(h, err)
	}
	s.cacheTree(h, entries)
	return entries, nil
}

func (s *Store) cacheTree(h hash, entries []entry) {
	s.treesMu.Lock()
	s.trees[h] = entries
	s.treesMu.Unlock()
}

// copyObject writes the object h to w, checking it against its name as it
// goes; it returns errDamaged (after writing) when it does not match.
func (s *Store) copyObject(h hash, w io.Writer) error {
	f, err := os.Open(s.objectPath(h))
	if err != nil {
		return s.objectErr(h, err)
	}
	defer f.Close()
	sum := sha256.New()
	if _, err := copyBuffered(io.MultiWriter(w, sum), f); err != nil {
		return err
	}
	if hash(sum.Sum(nil)) != h {
		return s.objectErr(h, errDamaged)
	}
	return nil
}
