package audit

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/internal/config"
)

// ErrNoLog says there is no audit log to read yet.
var ErrNoLog = errors.New("no audit log yet")

// Read passes fn every record that f matches, across the rotated files,
// oldest first, and stops at the first error fn returns. A malformed line
// is skipped and reported to f.OnMalformed. With no log at all it returns
// an error wrapping ErrNoLog.
func Read(h config.Home, f Filter, fn func(Record) error) error {
	files, err := openLog(h)
	if err != nil {
		return err
	}
	defer closeAll(files)
	for _, lf := range files {
		if err := lf.readAll(f, fn, true); err != nil {
			return err
		}
	}
	return nil
}

// logFile is one open file of the log and where its reading stands.
type logFile struct {
	name string // base name, for Malformed
	file *os.File
	scan *lineScanner
}

func closeAll(files []*logFile) {
	for _, lf := range files {
		lf.file.Close()
	}
}

// openLog opens the log's files, oldest first, the current audit.jsonl
// last. It holds the rotation lock (shared) while it lists and opens them,
// so the set is one the writers left whole: no file is seen twice or
// missed because a rotation ran in between.
func openLog(h config.Home) ([]*logFile, error) {
	dir := h.LogsDir()
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoLog, h.AuditFile())
	}
	if unlock, err := lockFile(filepath.Join(dir, lockName), false); err == nil {
		defer unlock()
	} // else read unlocked: a reader that may not lock may still read
	names, err := logNames(dir)
	if err != nil {
		return nil, err
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoLog, h.AuditFile())
	}
	return openAll(dir, names)
}

func openAll(dir string, names []string) ([]*logFile, error) {
	var files []*logFile
	for _, name := range names {
		f, err := os.Open(filepath.Join(dir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			closeAll(files)
			return nil, fmt.Errorf("read the audit log: %w", err)
		}
		files = append(files, &logFile{name: name, file: f, scan: newLineScanner(f)})
	}
	return files, nil
}

// logNames lists audit.jsonl.N (highest N, the oldest, first) then
// audit.jsonl, as present in dir.
func logNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	base := filepath.Base(auditName)
	var numbers []int
	current := false
	for _, e := range entries {
		if e.Name() == base {
			current = true
		} else if n, ok := rotationNumber(base, e.Name()); ok {
			numbers = append(numbers, n)
		}
	}
	slices.Sort(numbers)
	slices.Reverse(numbers)
	names := make([]string, 0, len(numbers)+1)
	for _, n := range numbers {
		names = append(names, rotated(base, n))
	}
	if current {
		names = append(names, base)
	}
	return names, nil
}

const auditName = "audit.jsonl"

func rotationNumber(base, name string) (int, bool) {
	suffix, ok := strings.CutPrefix(name, base+".")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(suffix)
	return n, err == nil && n > 0 && strconv.Itoa(n) == suffix
}

// readAll passes on the file's complete lines. With final, the data is
// taken to end here and an unfinished last line is read as a line too;
// without it (a file still being written) the fragment waits.
func (lf *logFile) readAll(f Filter, fn func(Record) error, final bool) error {
	for {
		line, err := lf.scan.next()
		if errors.Is(err, io.EOF) && final {
			line, err = lf.scan.rest()
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err := lf.deliver(line, err, f, fn); err != nil {
			return err
		}
	}
}

// deliver parses one line and passes it on when f matches it.
func (lf *logFile) deliver(line []byte, readErr error, f Filter, fn func(Record) error) error {
	if readErr != nil && !errors.Is(readErr, errTooLong) {
		return fmt.Errorf("read %s: %w", lf.file.Name(), readErr)
	}
	if readErr != nil {
		f.malformed(lf.name, lf.scan.lineNo, readErr.Error())
		return nil
	}
	if len(line) == 0 {
		return nil // a blank line says nothing, and is no damage
	}
	if t, event, ok := peekHeader(line); ok && !f.match(Record{Time: t, Event: event}) {
		return nil // passed over unread; its damage, if any, goes unreported
	}
	r, err := parseRecord(line)
	if err != nil {
		f.malformed(lf.name, lf.scan.lineNo, err.Error())
		return nil
	}
	if !f.match(r) {
		return nil
	}
	return fn(r)
}
