package checkpoint

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"sync"
	"time"
)

// racyWindow is how recent a file's mtime or ctime may be, at the time its
// content was read, for the index to trust its stat later. A file changed
// again within the same timestamp tick (a second on HFS+, two on FAT, a
// scheduler tick for the kernel's coarse clock) after it was read could
// keep the same stat; such a file is read again next time, as git does
// with the entries its index calls racily clean.
const racyWindow = 2 * time.Second

// index maps a file's path and stat to its content's hash, so that a file
// whose stat has not changed since it was read costs a stat and not a
// read. It is a cache: a missing or damaged index file only costs reads.
type index struct {
	path    string
	mu      sync.Mutex
	entries map[string]*indexEntry
	gen     uint64
	dirty   bool
	// loaded identifies the index file as last read or written, to tell
	// when another process has written it since.
	loaded fileStat
	saved  time.Time // when this process last wrote it
}

type indexEntry struct {
	stat fileStat
	hash hash
	gen  uint64 // the walk that last saw it
	// stored: the store holds the content (a restore's look at the
	// present only hashes it).
	stored bool
}

func newIndex(path string) *index { return &index{path: path, entries: map[string]*indexEntry{}} }

// lookup returns the hash recorded for path when its stat is unchanged
// (and, with stored set, when the store holds the content).
func (x *index) lookup(path string, st fileStat, stored bool) (hash, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	e, ok := x.entries[path]
	st.links = 0
	if !ok || e.stat != st || stored && !e.stored {
		return hash{}, false
	}
	e.gen = x.gen
	return e.hash, true
}

// record notes that path, with stat st, held content h when it was read
// after readStart; a racily clean stat is not kept.
func (x *index) record(path string, st fileStat, h hash, readStart time.Time, stored bool) {
	limit := readStart.Add(-racyWindow).UnixNano()
	st.links = 0
	x.mu.Lock()
	defer x.mu.Unlock()
	if st.mtime >= limit || st.ctime >= limit {
		delete(x.entries, path)
	} else {
		x.entries[path] = &indexEntry{stat: st, hash: h, gen: x.gen, stored: stored}
	}
	x.dirty = true
}

// startWalk begins a walk; endWalk then forgets the files under roots that
// the walk did not see (removed, or now left out).
func (x *index) startWalk() { x.gen++ }

func (x *index) endWalk(roots []string) {
	for path, e := range x.entries {
		if e.gen != x.gen && underAny(path, roots) {
			delete(x.entries, path)
			x.dirty = true
		}
	}
}

func underAny(path string, roots []string) bool {
	for _, r := range roots {
		if strings.HasPrefix(path, r) && len(path) > len(r) && path[len(r)] == '/' {
			return true
		}
	}
	return false
}

// forget drops the entries whose content the store no longer has.
func (x *index) forget(gone func(hash) bool) {
	for path, e := range x.entries {
		if gone(e.hash) {
			delete(x.entries, path)
			x.dirty = true
		}
	}
}

const indexMagic = "wisp index 1\n"

// refresh reads the index file when another process wrote it since this
// one last did (or on first use).
func (x *index) refresh() {
	st, err := statPath(x.path)
	if err != nil || st == x.loaded {
		if err != nil {
			x.loaded = fileStat{}
		}
		return
	}
	data, err := os.ReadFile(x.path)
	entries, derr := decodeIndex(data)
	if err != nil || derr != nil {
		entries = map[string]*indexEntry{} // a cache: start again
	}
	x.entries, x.loaded, x.dirty = entries, st, false
}

// saveEvery is how often a store in use writes its index: each write is
// the whole index (2 MB for 20,000 files), and losing the changes since
// the last one (a crash) only costs reading those files again.
const saveEvery = 30 * time.Second

// saveSoon saves the index when it changed and was last saved a while ago.
func (x *index) saveSoon(tmp string, now time.Time) error {
	if now.Sub(x.saved) < saveEvery {
		return nil
	}
	return x.save(tmp)
}

// save writes the index when it changed, as a temporary file renamed over
// the old one (not fsync'd: a damaged index only costs reads). When
// another process wrote it since this one read it, this one's changes
// are dropped instead: that process may have pruned what they name.
func (x *index) save(tmp string) error {
	if !x.dirty {
		return nil
	}
	if st, err := statPath(x.path); err == nil && st != x.loaded {
		x.loaded = fileStat{} // read it again at the next refresh
		x.dirty = false
		return nil
	}
	if err := os.WriteFile(tmp, x.encode(), 0o600); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, x.path); err != nil {
		os.Remove(tmp)
		return err
	}
	x.dirty = false
	x.loaded, _ = statPath(x.path)
	x.saved = time.Now()
	return nil
}

func (x *index) encode() []byte {
	size := len(indexMagic) + sha256.Size
	for path := range x.entries {
		size += len(path) + 8*binary.MaxVarintLen64 + len(hash{}) + 1
	}
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(indexMagic)
	var num [binary.MaxVarintLen64]byte
	put := func(v uint64) { b.Write(num[:binary.PutUvarint(num[:], v)]) }
	for path, e := range x.entries {
		put(uint64(len(path)))
		b.WriteString(path)
		put(uint64(e.stat.size))
		put(uint64(e.stat.mtime))
		put(uint64(e.stat.ctime))
		put(e.stat.ino)
		put(e.stat.dev)
		put(uint64(e.stat.mode))
		b.Write(e.hash[:])
		b.WriteByte(boolByte(e.stored))
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

var errBadIndex = errors.New("damaged index")

func decodeIndex(data []byte) (map[string]*indexEntry, error) {
	if len(data) < len(indexMagic)+sha256.Size {
		return nil, errBadIndex
	}
	body, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if sha256.Sum256(body) != [32]byte(sum) || !bytes.HasPrefix(body, []byte(indexMagic)) {
		return nil, errBadIndex
	}
	r := treeReader{rest: body[len(indexMagic):]}
	entries := map[string]*indexEntry{}
	for len(r.rest) > 0 && r.err == nil {
		path := r.str()
		e := &indexEntry{}
		e.stat.size = int64(r.uvarint())
		e.stat.mtime = int64(r.uvarint())
		e.stat.ctime = int64(r.uvarint())
		e.stat.ino = r.uvarint()
		e.stat.dev = r.uvarint()
		e.stat.mode = uint32(r.uvarint())
		copy(e.hash[:], r.bytes(len(e.hash)))
		e.stored = r.byte() == 1
		entries[path] = e
	}
	if r.err != nil {
		return nil, errBadIndex
	}
	return entries, nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}
