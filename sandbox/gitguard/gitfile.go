package gitguard

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
)

// fileState is what Lstat says of a path and, for a regular file, what was
// read of its bytes. A file's state is never taken from its metadata
// alone: inode, size and times say nothing a command cannot keep as they
// were while it rewrites the bytes in place (utime sets the times back).
type fileState struct {
	exists bool
	mode   fs.FileMode
	target string // a link's
	size   int64  // a regular file's
	body   body   // a regular file's bytes, as far as they were read
	id     fileID // a regular file's version, when the system gives a change time
}

// body is what wisp knows of a regular file's bytes.
type body struct {
	how  readHow
	data []byte   // kept: every byte
	sum  [32]byte // digested: their SHA-256
}

type readHow uint8

const (
	// notRead: an entry git never runs (a sample hook), whose bytes are
	// not needed, or a file wisp could not read. It is never taken for
	// the same as anything, and never restored.
	notRead readHow = iota
	// kept: a file of at most maxControlFile, kept whole, so that it can
	// be restored.
	kept
	// digested: a larger one, read through once for its SHA-256. A change
	// is seen, but no copy is kept to put it back: it is removed.
	digested
)

// fileID tells a regular file's version apart without reading it: the
// change time moves at every write, so equal IDs mean equal bytes.
type fileID struct {
	dev, ino    uint64
	size, ctime int64
	ok          bool
}

// lstatState is p's state without its bytes.
func lstatState(p string) fileState {
	info, err := os.Lstat(p)
	if err != nil {
		return fileState{}
	}
	st := fileState{exists: true, mode: info.Mode()}
	switch {
	case info.Mode().IsRegular():
		st.size, st.id = info.Size(), idOf(info)
	case info.Mode()&fs.ModeSymlink != 0:
		st.target, _ = os.Readlink(p)
	}
	return st
}

// snapshotState is p's state for the snapshot, with its bytes kept or
// digested whatever its size. The bytes of a version read before may come
// from the cache: the snapshot is taken when no confined command runs.
func snapshotState(p string) fileState {
	st := lstatState(p)
	if st.exists && st.mode.IsRegular() {
		st.body = readBody(p, &st, true, true)
	}
	return st
}

// statFile is p's state as it is now, for the put-back: the bytes of a
// file small enough to keep, and no digest (see stateLike).
func statFile(p string) fileState { return stateLike(p, fileState{}) }

// stateLike is p's state as it is now, read as far as it takes to compare
// it with before: a file over maxControlFile is digested only when before
// was one of the same size, so that a command cannot make the put-back
// read a file of any size it likes. It never takes bytes from the cache:
// a write within the clock's tick after the last read could leave the
// change time as it was.
func stateLike(p string, before fileState) fileState {
	st := lstatState(p)
	if st.exists && st.mode.IsRegular() {
		digest := before.body.how == digested && before.size == st.size
		st.body = readBody(p, &st, digest, false)
	}
	return st
}

// readBody reads a regular file's bytes, or their digest when it is over
// maxControlFile and digest is set, through no link and blocking on no
// FIFO. What it opens must be what Lstat saw: st is updated from the open
// file, and anything else is left unread.
func readBody(p string, st *fileState, digest, cached bool) body {
	if cached {
		if b, ok := cachedBody(p, st.id); ok && (b.how == kept || digest) {
			return b
		}
	}
	f, err := openNoFollow(p)
	if err != nil {
		return body{}
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return body{}
	}
	st.mode, st.size, st.id = info.Mode(), info.Size(), idOf(info)
	var b body
	switch {
	case info.Size() <= maxControlFile:
		data, err := io.ReadAll(io.LimitReader(f, maxControlFile+1))
		if err != nil || len(data) > maxControlFile {
			return body{}
		}
		b = body{how: kept, data: data}
	case digest:
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return body{}
		}
		b = body{how: digested}
		h.Sum(b.sum[:0])
	default:
		return body{}
	}
	rememberBody(p, st.id, b)
	return b
}

func idOf(info fs.FileInfo) fileID {
	ctime, ok := changeTime(info)
	dev, ino := devIno(info)
	return fileID{dev: dev, ino: ino, size: info.Size(), ctime: ctime, ok: ok && ino != 0}
}

// same reports whether a and b are the same state: a file of the same
// mode and bytes (or, over maxControlFile, the same digest), a link to the
// same target, a folder. What was not read is never the same.
func (a fileState) same(b fileState) bool {
	switch {
	case !a.exists || !b.exists:
		return a.exists == b.exists
	case a.mode != b.mode:
		return false
	case a.mode.IsDir():
		return true
	case a.mode&fs.ModeSymlink != 0:
		return a.target == b.target
	case !a.mode.IsRegular():
		return true // a FIFO or socket: git reads none of these
	case a.body.how == notRead || a.body.how != b.body.how || a.size != b.size:
		return false
	case a.body.how == digested:
		return a.body.sum == b.body.sum
	}
	return bytes.Equal(a.body.data, b.body.data)
}

// unrestorable says why before cannot be written back as it was, or "".
func (st fileState) unrestorable() string {
	switch {
	case !st.exists || !st.mode.IsRegular() || st.body.how == kept:
		return ""
	case st.body.how == digested:
		return fmt.Sprintf("it is %s, more than the %s wisp keeps a copy of, so it could not be put back as it was", sizeText(st.size), sizeText(maxControlFile))
	}
	return "wisp had not read it, so it could not be put back as it was"
}

func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// bodyCache keeps the bytes (or digests) of the control files by version,
// so that the snapshot before each command reads only what changed since
// the last.
var bodyCache = struct {
	sync.Mutex
	m map[string]cacheEntry
}{m: map[string]cacheEntry{}}

type cacheEntry struct {
	id fileID
	b  body
}

func cachedBody(p string, id fileID) (body, bool) {
	if !id.ok {
		return body{}, false
	}
	bodyCache.Lock()
	defer bodyCache.Unlock()
	c, ok := bodyCache.m[p]
	return c.b, ok && c.id == id
}

// rememberBody keeps b unless the cache already holds many files: a tree
// with thousands of hooks is read each time instead.
func rememberBody(p string, id fileID, b body) {
	if !id.ok {
		return
	}
	bodyCache.Lock()
	defer bodyCache.Unlock()
	if _, ok := bodyCache.m[p]; ok || len(bodyCache.m) < 4096 {
		bodyCache.m[p] = cacheEntry{id: id, b: b}
	}
}
