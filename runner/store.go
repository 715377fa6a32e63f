package runner

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Store keeps each command's whole output under the home's outputs/, one
// file a command, capped per file and in total, the oldest pruned first.
type Store struct {
	Dir       string
	FileBytes int64
	MaxBytes  int64
	Now       func() time.Time
}

// IDPattern matches the ids NewID makes.
var IDPattern = regexp.MustCompile(`^[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$`)

// NewID makes an id that sorts by time (so pruning the oldest output is a
// sort by name) and is unique enough for one person's files: outputs here,
// conversation threads in chat.
func NewID(now time.Time) string {
	var r [4]byte
	_, _ = rand.Read(r[:])
	return now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(r[:])
}

// storeWriter writes one output file up to the per-file cap, then only
// counts, so the disk stays bounded too.
type storeWriter struct {
	f       *os.File
	limit   int64
	written int64
	dropped int64
}

// Create opens a new output file and returns its id.
func (s *Store) Create() (string, *storeWriter, error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", nil, fmt.Errorf("create the output store %s: %w", s.Dir, err)
	}
	id := NewID(s.Now())
	f, err := os.OpenFile(s.path(id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("create output %s: %w", id, err)
	}
	return id, &storeWriter{f: f, limit: s.FileBytes}, nil
}

func (w *storeWriter) Write(p []byte) (int, error) {
	room := w.limit - w.written
	if room <= 0 {
		w.dropped += int64(len(p))
		return len(p), nil
	}
	k := int64(len(p))
	if k > room {
		w.dropped += k - room
		k = room
	}
	n, err := w.f.Write(p[:k])
	w.written += int64(n)
	if err != nil {
		return n, err
	}
	return len(p), nil
}

// Close notes a truncation at the end of the file and closes it.
func (w *storeWriter) Close() error {
	if w.dropped > 0 {
		fmt.Fprintf(w.f, "\n[wisp: output store cap reached; %d more bytes were not kept]\n", w.dropped)
	}
	return w.f.Close()
}

func (s *Store) path(id string) string { return filepath.Join(s.Dir, id+".log") }

// Open returns a stored output by id.
func (s *Store) Open(id string) (*os.File, error) {
	if !IDPattern.MatchString(id) {
		return nil, fmt.Errorf("%q is not an output id (they look like 20261129T213000-1a2b3c4d)", id)
	}
	f, err := os.Open(s.path(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("output %s is not in the store: it may have been pruned", id)
	}
	return f, err
}

// Read returns up to n bytes of output id from offset off.
func (s *Store) Read(id string, off int64, n int) ([]byte, error) {
	f, err := s.Open(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := f.ReadAt(buf, off)
	if err != nil && err != io.EOF {
		return nil, err
	}
	return buf[:k], nil
}

// Prune removes the oldest outputs until the store is within MaxBytes.
func (s *Store) Prune() error {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return err
	}
	type out struct {
		name string
		size int64
	}
	var outs []out
	var total int64
	for _, e := range entries {
		info, err := e.Info()
		if err != nil || !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".log") {
			continue
		}
		outs = append(outs, out{e.Name(), info.Size()})
		total += info.Size()
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i].name < outs[j].name })
	for i := 0; total > s.MaxBytes && i < len(outs)-1; i++ {
		if err := os.Remove(filepath.Join(s.Dir, outs[i].name)); err == nil {
			total -= outs[i].size
		}
	}
	return nil
}
