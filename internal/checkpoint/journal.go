package checkpoint

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// journal is a restore in progress, written to the store before the
// restore makes its first temporary file in a root. Prepared, the roots
// are as they were but for the temporary files it lists: a crash then
// rolls back. Committed, files are being renamed into place: a crash then
// goes forward, to the target. Paths are Go-quoted, so that any name a
// file system allows is written exactly.
type journal struct {
	id        string // in the temporary files' names
	target    int
	redo      int
	committed bool
	keep      []string
	temps     []tempFile
}

type tempFile struct{ root, rel string }

const journalMagic = "wisp restore journal 1"

func (s *Store) journalPath() string { return filepath.Join(s.dir, "restore.journal") }

func newJournal(target, redo int, keep []string) *journal {
	var b [4]byte
	rand.Read(b[:])
	return &journal{id: hex.EncodeToString(b[:]), target: target, redo: redo, keep: keep}
}

func (j *journal) encode() []byte {
	var b bytes.Buffer
	state := "prepared"
	if j.committed {
		state = "committed"
	}
	fmt.Fprintf(&b, "%s\nid %s\ntarget %d\nredo %d\nstate %s\n", journalMagic, j.id, j.target, j.redo, state)
	for _, k := range j.keep {
		fmt.Fprintf(&b, "keep %s\n", strconv.Quote(k))
	}
	for _, t := range j.temps {
		fmt.Fprintf(&b, "temp %s %s\n", strconv.Quote(t.root), strconv.Quote(t.rel))
	}
	return b.Bytes()
}

func parseJournal(data []byte) (*journal, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	if !sc.Scan() || sc.Text() != journalMagic {
		return nil, errors.New("not a restore journal")
	}
	j := &journal{}
	for sc.Scan() {
		key, val, _ := strings.Cut(sc.Text(), " ")
		if err := j.set(key, val); err != nil {
			return nil, fmt.Errorf("line %q: %w", sc.Text(), err)
		}
	}
	if j.id == "" || j.target == 0 {
		return nil, errors.New("the journal is cut short")
	}
	return j, sc.Err()
}

func (j *journal) set(key, val string) error {
	var err error
	switch key {
	case "id":
		j.id = val
	case "target":
		j.target, err = strconv.Atoi(val)
	case "redo":
		j.redo, err = strconv.Atoi(val)
	case "state":
		j.committed = val == "committed"
	case "keep":
		var k string
		k, err = strconv.Unquote(val)
		j.keep = append(j.keep, k)
	case "temp":
		var t tempFile
		var rest string
		if t.root, rest, err = cutQuoted(val); err == nil {
			t.rel, err = strconv.Unquote(strings.TrimPrefix(rest, " "))
		}
		j.temps = append(j.temps, t)
	default:
		err = errors.New("unknown line")
	}
	return err
}

// cutQuoted unquotes the Go string at the start of s and returns the rest.
func cutQuoted(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	u, err := strconv.Unquote(q)
	return u, s[len(q):], err
}

func (s *Store) writeJournal(j *journal) error {
	if err := writeFileSynced(s.journalPath(), j.encode()); err != nil {
		return s.storeErr(err)
	}
	return nil
}

// readJournal returns the journal of a restore cut short, or nil.
func (s *Store) readJournal() (*journal, error) {
	data, err := os.ReadFile(s.journalPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read the journal of a restore cut short: %w", err)
	}
	j, err := parseJournal(data)
	if err != nil {
		return nil, fmt.Errorf("the journal of a restore cut short, %s, is damaged (%w): the files it restored are each either as before or as in the checkpoint; remove it to go on", s.journalPath(), err)
	}
	return j, nil
}

func (s *Store) removeJournal() error {
	if err := os.Remove(s.journalPath()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(s.dir)
}

// removeTempFiles removes the journal's temporary files that are left.
func (j *journal) removeTempFiles() error {
	var errs []error
	for _, t := range j.temps {
		root, err := os.OpenRoot(t.root)
		if err == nil {
			err = root.Remove(t.rel)
			root.Close()
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Recovery is what a store did, on opening, with a restore cut short.
type Recovery struct {
	Target int // the checkpoint the restore was bringing the roots to
	Redo   int // the checkpoint it took of the roots before
	// Finished: the roots are now at Target. Otherwise the restore had
	// not changed them yet, and was rolled back.
	Finished bool
}

func (r *Recovery) String() string {
	if r.Finished {
		return fmt.Sprintf("a restore to checkpoint %d was cut short; it is now finished (checkpoint %d undoes it)", r.Target, r.Redo)
	}
	return fmt.Sprintf("a restore to checkpoint %d was cut short before it changed anything; it was rolled back", r.Target)
}

// recover finishes or rolls back a restore cut short.
func (s *Store) recover() (*Recovery, error) {
	j, err := s.readJournal()
	if err != nil || j == nil {
		return nil, err
	}
	rec := &Recovery{Target: j.target, Redo: j.redo, Finished: j.committed}
	if !j.committed {
		if err := j.removeTempFiles(); err != nil {
			return nil, fmt.Errorf("roll back a restore cut short: %w", err)
		}
		return rec, s.removeJournal()
	}
	target, err := s.record(j.target)
	if err == nil {
		err = s.finishRestore(target, j)
	}
	if err != nil {
		return nil, fmt.Errorf("finish a restore to checkpoint %d that was cut short (each file is either as before or as in the checkpoint; the journal %s stays for the next try): %w", j.target, s.journalPath(), err)
	}
	return rec, nil
}
