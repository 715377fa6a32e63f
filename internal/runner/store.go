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
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Store keeps each command's whole output under the home's outputs/, one
// file a command, capped per file, in total bytes and in number of files,
// the oldest pruned first.
//
// The totals are kept in a small ledger (outputs/.usage) that each command
// adds its output to under an flock, so that a command costs a few system
// calls however many outputs are kept, where listing and measuring every
// file cost one stat per output on every command. The files are the truth:
// the ledger is rebuilt from them when it is missing or unreadable, every
// RescanEvery outputs (so an output whose wisp died before adding it
// counts soon), and whenever it says a cap is passed. A cap passed prunes
// to a tenth below it (belowCap), so that a store kept full, as every
// person's is after a thousand commands, rescans once in a hundred
// commands rather than at every one.
//
// An output being written holds an flock on its file until it is in the
// ledger: a rescan meanwhile leaves it out (and never removes it), and its
// writer adds it, so that it is counted once.
type Store struct {
	Dir       string
	FileBytes int64
	MaxBytes  int64
	MaxFiles  int // 0 means DefaultMaxFiles
	Now       func() time.Time
}

// DefaultMaxFiles is how many outputs the store keeps at most when MaxFiles
// is not set: many commands print nothing, and bytes alone would let their
// files pile up without end.
const DefaultMaxFiles = 1000

// RescanEvery is how many outputs the ledger adds before it is rebuilt from
// the files.
const RescanEvery = 200

// usageFile is the ledger's name in the store's folder; it does not end in
// .log, so it is never taken for an output.
const usageFile = ".usage"

// ValidID reports whether id is of the form NewID makes, 20060102T150405-
// followed by eight lowercase hex digits: what `^[0-9]{8}T[0-9]{6}-[0-9a-f]{8}$`
// matches, without a regexp compiled at every wisp's start.
func ValidID(id string) bool {
	if len(id) != len("20060102T150405-0123abcd") || id[8] != 'T' || id[15] != '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case i == 8 || i == 15:
		case i < 15 && '0' <= c && c <= '9':
		case i > 15 && ('0' <= c && c <= '9' || 'a' <= c && c <= 'f'):
		default:
			return false
		}
	}
	return true
}

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
	store   *Store
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
	// The new file is made and locked under the ledger's lock, which every
	// rescan holds: a rescan between the two would take the file for a
	// finished empty output and count it twice, or hold it while its
	// writer's lock failed.
	ledger, err := s.lockLedger()
	if err != nil {
		return "", nil, err
	}
	defer ledger.Close()
	id := NewID(s.Now())
	f, err := os.OpenFile(s.path(id), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", nil, fmt.Errorf("create output %s: %w", id, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return "", nil, fmt.Errorf("lock output %s while it is written: %w", id, err)
	}
	return id, &storeWriter{store: s, f: f, limit: s.FileBytes}, nil
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

// Close notes a truncation at the end of the file, closes it, and adds it
// to the store's ledger, pruning the oldest outputs when a cap is passed.
func (w *storeWriter) Close() error {
	if w.dropped > 0 {
		fmt.Fprintf(w.f, "\n[wisp: output store cap reached; %d more bytes were not kept]\n", w.dropped)
	}
	size := w.written
	if info, err := w.f.Stat(); err == nil {
		size = info.Size()
	}
	err := w.store.add(size, w.f)
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	return err
}

func (s *Store) path(id string) string { return filepath.Join(s.Dir, id+".log") }

// Open returns a stored output by id.
func (s *Store) Open(id string) (*os.File, error) {
	if !ValidID(id) {
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

// usage is what the ledger holds: the outputs kept, their bytes, and how
// many outputs were added since the ledger was last rebuilt from the files.
type usage struct {
	files, bytes, added int64
}

func (s *Store) maxFiles() int64 {
	if s.MaxFiles > 0 {
		return int64(s.MaxFiles)
	}
	return DefaultMaxFiles
}

// add counts one new output of size bytes, in f, in the ledger. f's lock
// is let go under the ledger's: a rescan before it left f out, one after
// it counts f, and the ledger agrees with either.
func (s *Store) add(size int64, f *os.File) error {
	return s.withLedger(func(u usage, ok bool) usage {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		u.files, u.bytes, u.added = u.files+1, u.bytes+size, u.added+1
		if !ok || u.added >= RescanEvery || u.bytes > s.MaxBytes || u.files > s.maxFiles() {
			return s.prune()
		}
		return u
	})
}

// Prune rebuilds the ledger from the files, removing the oldest outputs
// until the store is within its caps. Adding an output does this when it
// is due; Prune does it now.
func (s *Store) Prune() error {
	return s.withLedger(func(usage, bool) usage { return s.prune() })
}

// withLedger runs update on the ledger under an exclusive flock and writes
// back what it returns. ok is false when there was no readable ledger.
func (s *Store) withLedger(update func(u usage, ok bool) usage) error {
	f, err := s.lockLedger()
	if err != nil {
		return err
	}
	defer f.Close()
	u, ok := readUsage(f)
	line := formatUsage(update(u, ok))
	if _, err := f.WriteAt(line, 0); err != nil {
		return fmt.Errorf("write the output store's ledger: %w", err)
	}
	return f.Truncate(int64(len(line)))
}

// lockLedger opens the ledger and takes its exclusive flock, which closing
// the file lets go.
func (s *Store) lockLedger() (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(s.Dir, usageFile), os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the output store's ledger: %w", err)
	}
	if err := flock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock the output store's ledger: %w", err)
	}
	return f, nil
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if err != syscall.EINTR {
			return err
		}
	}
}

// readUsage reads "FILES BYTES ADDED\n"; anything else is no ledger.
func readUsage(f *os.File) (usage, bool) {
	var buf [96]byte
	n, _ := f.ReadAt(buf[:], 0)
	fields := strings.Fields(string(buf[:n]))
	if n == 0 || n == len(buf) || buf[n-1] != '\n' || len(fields) != 3 {
		return usage{}, false
	}
	var vals [3]int64
	for i, field := range fields {
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil || v < 0 {
			return usage{}, false
		}
		vals[i] = v
	}
	return usage{files: vals[0], bytes: vals[1], added: vals[2]}, true
}

func formatUsage(u usage) []byte {
	return fmt.Appendf(nil, "%d %d %d\n", u.files, u.bytes, u.added)
}

// belowCap is where a store over a cap is pruned to: a tenth below it, so
// that the next outputs fit without a rescan.
func belowCap(limit int64) int64 { return limit - limit/10 }

// prune lists and measures every output but those still being written,
// removes the oldest until the store is within its caps (a tenth below
// them when it was over one; the newest is always kept), and returns what
// is left.
func (s *Store) prune() usage {
	outs, total := s.finished()
	kept := int64(len(outs))
	maxBytes, maxFiles := s.MaxBytes, s.maxFiles()
	if total > maxBytes || kept > maxFiles {
		maxBytes, maxFiles = belowCap(maxBytes), belowCap(maxFiles)
	}
	for i := 0; (total > maxBytes || kept > maxFiles) && i < len(outs)-1; i++ {
		if err := os.Remove(filepath.Join(s.Dir, outs[i].name)); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= outs[i].size
			kept--
		}
	}
	return usage{files: kept, bytes: total}
}

// storedOutput is one finished output a rescan found.
type storedOutput struct {
	name string
	size int64
}

// finished lists the outputs whose writers are done, oldest first, and
// their total size: a file whose writer still holds its lock is neither
// counted nor removed (its writer adds it to the ledger).
func (s *Store) finished() ([]storedOutput, int64) {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return nil, 0
	}
	var outs []storedOutput
	var total int64
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".log") {
			continue
		}
		size, ok := s.finishedSize(e.Name())
		if !ok {
			continue
		}
		outs = append(outs, storedOutput{e.Name(), size})
		total += size
	}
	sort.Slice(outs, func(i, j int) bool { return outs[i].name < outs[j].name })
	return outs, total
}

// finishedSize is the size of the output name when no writer holds it.
func (s *Store) finishedSize(name string) (int64, bool) {
	f, err := os.OpenFile(filepath.Join(s.Dir, name), os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return 0, false // being written: its writer counts it
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return 0, false
	}
	return info.Size(), true
}
