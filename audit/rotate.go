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
	size, err := l.currentSize()
	if err != nil {
		return nil, err
	}
	if !l.full(size, n) {
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

// currentSize makes sure the descriptor points at the file the path names
// (stat of the path against the descriptor's fstat, taken when it was
// opened), reopening when another process moved the file, and returns
// that file's size. One stat per event.
func (l *Logger) currentSize() (int64, error) {
	if l.file != nil {
		onDisk, err := os.Stat(l.home.AuditFile())
		if err == nil && os.SameFile(l.opened, onDisk) {
			return onDisk.Size(), nil
		}
	}
	if err := l.reopen(); err != nil {
		return 0, err
	}
	return l.opened.Size(), nil
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
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("open the audit log: %w", err)
	}
	l.file, l.opened = f, info
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
