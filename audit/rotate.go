package audit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// lockName is the file in logs/ that writers lock, only while rotating.
const lockName = "audit.lock"

// fileFor returns the open audit file that a line of n bytes should go to:
// reopened when another process has rotated the file under this one's
// descriptor, and rotated first when the line would take it past rotateAt.
func (l *Logger) fileFor(n int64) (*os.File, error) {
	if err := l.reopenIfMoved(); err != nil {
		return nil, err
	}
	info, err := l.file.Stat()
	if err != nil {
		return nil, err
	}
	if !l.full(info.Size(), n) {
		return l.file, nil
	}
	if err := l.rotate(n); err != nil {
		return nil, err
	}
	if err := l.reopen(); err != nil {
		return nil, err
	}
	return l.file, nil
}

// reopenIfMoved opens the file when none is open, or when the path no
// longer names the file the descriptor points at (fstat against stat).
func (l *Logger) reopenIfMoved() error {
	if l.file == nil {
		return l.reopen()
	}
	onDisk, err := os.Stat(l.home.AuditFile())
	if err == nil {
		open, ferr := l.file.Stat()
		if ferr == nil && os.SameFile(open, onDisk) {
			return nil
		}
	}
	return l.reopen()
}

func (l *Logger) reopen() error {
	l.closeFile()
	if _, err := l.home.Ensure("logs"); err != nil {
		return err
	}
	f, err := os.OpenFile(l.home.AuditFile(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("open the audit log: %w", err)
	}
	l.file = f
	return nil
}

// full reports whether a line of n bytes would take a file of size bytes
// past the threshold. A line bigger than the threshold still goes into a
// file of its own rather than being refused.
func (l *Logger) full(size, n int64) bool {
	return size > 0 && size+n > l.rotateAt
}

// rotate shifts audit.jsonl to audit.jsonl.1 (and .1 to .2, …), under an
// exclusive lock so that only one process rotates, and only when the file
// is still full once the lock is held (another process may have rotated it
// while this one waited).
func (l *Logger) rotate(n int64) error {
	unlock, err := lockFile(filepath.Join(l.home.LogsDir(), lockName), true)
	if err != nil {
		return fmt.Errorf("rotate the audit log: %w", err)
	}
	defer unlock()
	path := l.home.AuditFile()
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !l.full(info.Size(), n)) {
		return nil
	}
	if err != nil {
		return err
	}
	return shift(path, l.keep)
}

// shift drops path.keep, renames path.i to path.i+1 from the oldest down,
// then path to path.1.
func shift(path string, keep int) error {
	if err := os.Remove(rotated(path, keep)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rotate the audit log: %w", err)
	}
	for i := keep - 1; i >= 1; i-- {
		if err := os.Rename(rotated(path, i), rotated(path, i+1)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("rotate the audit log: %w", err)
		}
	}
	if err := os.Rename(path, rotated(path, 1)); err != nil {
		return fmt.Errorf("rotate the audit log: %w", err)
	}
	return nil
}

func rotated(path string, i int) string { return fmt.Sprintf("%s.%d", path, i) }
