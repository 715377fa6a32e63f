package checkpoint

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of [Options].
const (
	DefaultMaxRootBytes = 2 << 30 // 2 GiB of recorded files in one root
	// DefaultMaxRootEntries bounds the entries a walk of one root looks
	// at: a project's tree, even a large one, is well under it; a home
	// folder or a disk is not, and is refused at once rather than walked
	// for minutes before each turn.
	DefaultMaxRootEntries = 300_000
	DefaultKeep           = 100 // checkpoints kept by Prune
	DefaultMaxAge         = 30 * 24 * time.Hour
)

// Options are a store's settings; the zero value takes the defaults.
type Options struct {
	// MaxRootBytes caps the bytes of the files a checkpoint records in one
	// root (what .gitignore leaves out does not count): a root over it is
	// refused, with its size. Negative means no cap.
	MaxRootBytes int64
	// MaxRootEntries caps the files, links and folders a checkpoint
	// records in one root: the walk stops as soon as it passes it, so a
	// root far too large costs a bounded walk, and is refused with a
	// CapError. Negative means no cap.
	MaxRootEntries int
	// Keep and MaxAge are what Prune keeps: the newest Keep checkpoints,
	// and of those only the ones younger than MaxAge (the newest is always
	// kept). Negative means no limit.
	Keep   int
	MaxAge time.Duration
	// Skip are folders never recorded nor touched, wherever they sit in a
	// root: wisp's home. The store's own folder is always skipped.
	Skip []string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Watch has the store watch the folders it walks (inotify on Linux),
	// so that the next checkpoint walks again only the folders that
	// changed: for a store that takes checkpoints turn after turn.
	Watch bool
}

func (o Options) withDefaults() Options {
	if o.MaxRootBytes == 0 {
		o.MaxRootBytes = DefaultMaxRootBytes
	}
	if o.MaxRootEntries == 0 {
		o.MaxRootEntries = DefaultMaxRootEntries
	}
	if o.Keep == 0 {
		o.Keep = DefaultKeep
	}
	if o.MaxAge == 0 {
		o.MaxAge = DefaultMaxAge
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Store is one project's checkpoints in wisp's home. Its methods may be
// called from several goroutines, and several processes may open the same
// store: each operation holds the store's lock file.
type Store struct {
	dir  string
	opts Options
	mu   sync.Mutex
	lock *os.File
	idx  *index
	// trees caches decoded tree objects, which never change; walks of
	// folders side by side share it.
	treesMu sync.Mutex
	trees   map[hash][]entry
	// recovered says what Open did with a restore cut short.
	recovered *Recovery
	// hook, set by tests, runs after each step of a restore: "temp" (a
	// temporary file written) and "rename", with how many so far.
	hook func(step string, n int)
	// walks is how many folders a walk reads at once (half the
	// processors when 0); benchmarks compare.
	walks int
	// filesRead counts the files read (not found in the index), and
	// dirsRead the folders listed, for tests.
	filesRead, dirsRead atomic.Int64
	// watch, when Options.Watch, says which folders changed since the
	// last checkpoint this store took of each root (last).
	watch *watcher
	last  map[string]lastTake
	// totals caches what each tree holds all the way down, for the caps
	// of a walk that takes a folder from the last one.
	totals map[hash]totals
}

// Dir is the store of the project launched in launchDir, in wisp's home.
func Dir(home, launchDir string) string {
	return filepath.Join(home, "checkpoints", ProjectKey(launchDir))
}

// ProjectKey names a project's store: the launch folder's base name, for
// a person looking in the folder, and a digest of its whole path.
func ProjectKey(launchDir string) string {
	sum := sha256.Sum256([]byte(filepath.Clean(launchDir)))
	base := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' || r == 0x7f {
			return '_'
		}
		return r
	}, filepath.Base(filepath.Clean(launchDir)))
	if len(base) > 32 {
		base = base[:32]
	}
	return base + "-" + hex.EncodeToString(sum[:8])
}

// Open opens the store in dir, making it if it is missing. When an earlier
// restore was cut short (a crash, a kill), Open finishes it, or rolls it
// back if it had not yet changed the roots, and says so in Recovered; when
// it can do neither it returns an error that says what is left to do, and
// the journal stays for the next try.
func Open(dir string, opts Options) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("checkpoint store %s: %w", dir, err)
	}
	s := &Store{dir: abs, opts: opts.withDefaults(), trees: map[hash][]entry{},
		last: map[string]lastTake{}, totals: map[hash]totals{}}
	if opts.Watch {
		s.watch, _ = newWatcher() // none: every checkpoint walks all
	}
	for _, sub := range []string{"", "objects", "tmp", "records"} {
		if err := os.MkdirAll(filepath.Join(abs, sub), 0o700); err != nil {
			return nil, fmt.Errorf("make the checkpoint store: %w", err)
		}
	}
	s.lock, err = os.OpenFile(filepath.Join(abs, "lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the checkpoint store's lock: %w", err)
	}
	s.idx = newIndex(filepath.Join(abs, "index"))
	if err := s.locked(func() error { return nil }); err != nil {
		s.lock.Close()
		return nil, err
	}
	return s, nil
}

// Recovered says what Open did with a restore that was cut short, or nil.
func (s *Store) Recovered() *Recovery { return s.recovered }

// Close writes what the index learnt since it last did, and releases the
// store.
func (s *Store) Close() error {
	s.locked(func() error { return s.idx.save(s.tmpPath("index")) })
	if s.watch != nil {
		s.watch.close()
	}
	return s.lock.Close()
}

// locked runs f holding the store: the mutex for this process, the lock
// file for the others. A restore that another process left cut short is
// first finished (or rolled back), so that nothing starts on roots half
// way between two checkpoints.
func (s *Store) locked(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := lockFile(s.lock); err != nil {
		return fmt.Errorf("lock the checkpoint store: %w", err)
	}
	defer unlockFile(s.lock)
	if len(s.trees) > 100_000 {
		s.trees = map[hash][]entry{}
		s.totals = map[hash]totals{}
	}
	rec, err := s.recover()
	if err != nil {
		return err
	}
	if rec != nil {
		s.recovered = rec
	}
	return f()
}

func (s *Store) tmpPath(name string) string { return filepath.Join(s.dir, "tmp", name) }

// removeTemps removes what an operation cut short left in tmp/: nothing
// there is referenced, and the lock says no other operation is running.
func (s *Store) removeTemps() {
	names, _ := os.ReadDir(filepath.Join(s.dir, "tmp"))
	for _, n := range names {
		os.Remove(s.tmpPath(n.Name()))
	}
}

// ErrNoCheckpoint is returned for a checkpoint id the store does not have.
var ErrNoCheckpoint = errors.New("no such checkpoint")
