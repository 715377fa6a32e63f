package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// kind is what an entry of a folder is.
type kind uint8

const (
	kindOther   kind = iota // a socket, pipe or device: never recorded
	kindFile                // a regular file
	kindSymlink             // a symbolic link
	kindDir                 // a folder
)

func (k kind) String() string {
	switch k {
	case kindFile:
		return "file"
	case kindSymlink:
		return "symlink"
	case kindDir:
		return "folder"
	}
	return "special file"
}

// hash names an object: the SHA-256 of its bytes.
type hash [32]byte

func (h hash) String() string { return hex.EncodeToString(h[:]) }

func parseHash(s string) (hash, error) {
	var h hash
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(h) {
		return h, fmt.Errorf("%q is not a SHA-256 in hex", s)
	}
	copy(h[:], b)
	return h, nil
}

// entry is one name in a folder, as a tree object records it.
type entry struct {
	name string
	kind kind
	perm uint32 // permission bits, set-id and sticky bits included
	size int64  // a file's length; a link's target length; 0 for a folder
	hash hash   // a file's content, a folder's tree; zero for a link
	link string // a link's target
}

// sameState reports whether e and o record the same thing: for folders,
// the same tree and mode.
func (e *entry) sameState(o *entry) bool {
	return e.kind == o.kind && e.perm == o.perm && e.hash == o.hash && e.link == o.link && e.size == o.size
}

const treeMagic = "wisp tree 1\n"

// encodeTree is a tree object's bytes: the entries sorted by name, each a
// length-prefixed name (any bytes but '/' and NUL), its kind, mode and
// size as varints, then the content hash or the link target.
func encodeTree(entries []entry) []byte {
	var b bytes.Buffer
	b.Grow(len(treeMagic) + len(entries)*64)
	b.WriteString(treeMagic)
	var num [binary.MaxVarintLen64]byte
	putUvarint := func(v uint64) { b.Write(num[:binary.PutUvarint(num[:], v)]) }
	for i := range entries {
		e := &entries[i]
		putUvarint(uint64(len(e.name)))
		b.WriteString(e.name)
		b.WriteByte(byte(e.kind))
		putUvarint(uint64(e.perm))
		putUvarint(uint64(e.size))
		if e.kind == kindSymlink {
			putUvarint(uint64(len(e.link)))
			b.WriteString(e.link)
		} else {
			b.Write(e.hash[:])
		}
	}
	return b.Bytes()
}

var errBadTree = errors.New("not a well-formed tree object")

func decodeTree(data []byte) ([]entry, error) {
	rest, ok := bytes.CutPrefix(data, []byte(treeMagic))
	if !ok {
		return nil, errBadTree
	}
	r := treeReader{rest: rest}
	var entries []entry
	for len(r.rest) > 0 && r.err == nil {
		e := entry{name: r.str()}
		e.kind = kind(r.byte())
		e.perm = uint32(r.uvarint())
		e.size = int64(r.uvarint())
		if e.kind == kindSymlink {
			e.link = r.str()
		} else {
			copy(e.hash[:], r.bytes(len(e.hash)))
		}
		if r.err == nil && !validEntry(&e, entries) {
			r.err = errBadTree
		}
		entries = append(entries, e)
	}
	if r.err != nil {
		return nil, r.err
	}
	return entries, nil
}

// validEntry keeps a damaged store from naming a path outside a root
// (a name with a slash, "..") or the same name twice.
func validEntry(e *entry, before []entry) bool {
	switch {
	case e.name == "" || e.name == "." || e.name == ".." || strings.ContainsAny(e.name, "/\x00"):
		return false
	case e.kind < kindFile || e.kind > kindDir || e.perm > 0o7777 || e.size < 0:
		return false
	case len(before) > 0 && before[len(before)-1].name >= e.name:
		return false
	}
	return true
}

type treeReader struct {
	rest []byte
	err  error
}

func (r *treeReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.rest)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.rest = r.rest[n:]
	return v
}

func (r *treeReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.rest) {
		r.fail()
		return nil
	}
	b := r.rest[:n]
	r.rest = r.rest[n:]
	return b
}

func (r *treeReader) byte() byte {
	b := r.bytes(1)
	if b == nil {
		return 0
	}
	return b[0]
}

func (r *treeReader) str() string {
	n := r.uvarint()
	if n > uint64(len(r.rest)) {
		r.fail()
		return ""
	}
	return string(r.bytes(int(n)))
}

func (r *treeReader) fail() {
	if r.err == nil {
		r.err = errBadTree
	}
	r.rest = nil
}

// lookup finds name in entries, sorted by name.
func lookup(entries []entry, name string) *entry {
	i, ok := slices.BinarySearchFunc(entries, name, func(e entry, name string) int { return strings.Compare(e.name, name) })
	if !ok {
		return nil
	}
	return &entries[i]
}
