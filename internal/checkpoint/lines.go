package checkpoint

import (
	"bytes"
	"hash/maphash"
	"io"
	"os"
	"syscall"
)

// maxLinesFile is the largest file whose lines a diff counts.
const maxLinesFile = 1 << 20

// maxEditDistance bounds the work of an exact count; past it the count is
// approximate.
const maxEditDistance = 4000

// countLines fills in Lines and Binary of the changes to files.
func (s *Store) countLines(changes []Change) {
	for i := range changes {
		c := &changes[i]
		if !fileOrNone(c.was) || !fileOrNone(c.now) || c.was == nil && c.now == nil {
			continue
		}
		old, okOld := s.oldContent(c.was)
		cur, okCur := presentContent(c)
		if !okOld || !okCur || c.ModeOnly {
			continue
		}
		if isBinary(old) || isBinary(cur) {
			c.Binary = true
			continue
		}
		c.Lines = countChangedLines(splitLines(old), splitLines(cur))
	}
}

func fileOrNone(e *entry) bool { return e == nil || e.kind == kindFile }

// oldContent is what the checkpoint recorded in a file (nil, true when it
// had none there); false when it cannot be had cheaply.
func (s *Store) oldContent(e *entry) ([]byte, bool) {
	if e == nil {
		return nil, true
	}
	if e.size > maxLinesFile {
		return nil, false
	}
	data, err := s.readObject(e.hash)
	return data, err == nil
}

// presentContent is what the file holds now, read without following a
// link out of the root.
func presentContent(c *Change) ([]byte, bool) {
	e := c.now
	if e == nil {
		return nil, true
	}
	if e.size > maxLinesFile {
		return nil, false
	}
	root, err := os.OpenRoot(c.Root)
	if err != nil {
		return nil, false
	}
	defer root.Close()
	f, err := root.OpenFile(c.Path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxLinesFile+1))
	return data, err == nil && len(data) <= maxLinesFile
}

// isBinary is git's test: a NUL byte in the first 8000.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}

var lineSeed = maphash.MakeSeed()

// splitLines hashes each line, for comparing them cheaply.
func splitLines(data []byte) []uint64 {
	var lines []uint64
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line = data[:i+1]
		}
		data = data[len(line):]
		lines = append(lines, maphash.Bytes(lineSeed, line))
	}
	return lines
}

// countChangedLines counts the lines added and removed between a and b:
// exactly (the shortest edit, Myers's algorithm) up to maxEditDistance,
// approximately past it.
func countChangedLines(a, b []uint64) *LineCount {
	for len(a) > 0 && len(b) > 0 && a[0] == b[0] {
		a, b = a[1:], b[1:]
	}
	for len(a) > 0 && len(b) > 0 && a[len(a)-1] == b[len(b)-1] {
		a, b = a[:len(a)-1], b[:len(b)-1]
	}
	d, ok := editDistance(a, b, maxEditDistance)
	if !ok {
		return bagDifference(a, b)
	}
	// d = added + removed, and added - removed = len(b) - len(a).
	added := (d + len(b) - len(a)) / 2
	return &LineCount{Added: added, Removed: d - added}
}

// editDistance is the length of the shortest script of line insertions
// and deletions that turns a into b, when it is at most limit.
func editDistance(a, b []uint64, limit int) (int, bool) {
	n, m := len(a), len(b)
	limit = min(limit, n+m)
	v := make([]int, 2*limit+2)
	off := limit + 1
	for d := 0; d <= limit; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return d, true
			}
		}
	}
	return 0, false
}

// bagDifference counts lines as a multiset: a line moved counts as none.
func bagDifference(a, b []uint64) *LineCount {
	count := map[uint64]int{}
	for _, l := range a {
		count[l]++
	}
	for _, l := range b {
		count[l]--
	}
	c := &LineCount{Approximate: true}
	for _, n := range count {
		if n > 0 {
			c.Removed += n
		} else {
			c.Added -= n
		}
	}
	return c
}
