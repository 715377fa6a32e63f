package audit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/fsnotify/fsnotify"
	"github.com/wisp-sh/wisp/internal/config"
)

// Follow passes fn each record that f matches as it is written, until ctx
// is done (then it returns nil) or fn returns an error. With f.Since set it
// first passes on the records already written since then; without it, only
// new ones. It waits on fsnotify events for the logs folder, never polls,
// and carries on across rotations: the old file is read to its end before
// the new one. It creates the logs folder when it is missing, as a Logger
// would, so that it can wait for the first event.
func Follow(ctx context.Context, h config.Home, f Filter, fn func(Record) error) error {
	return follow(ctx, h, f, fn, func() {})
}

// follow is Follow with ready, called once the watch is set and the
// backlog read: a line written after it is certain to be passed on.
func follow(ctx context.Context, h config.Home, f Filter, fn func(Record) error, ready func()) error {
	dir, err := h.Ensure("logs")
	if err != nil {
		return err
	}
	watcher, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch the audit log: %w", err)
	}
	defer watcher.Close()
	if err := watcher.Add(dir); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	t := &tail{path: h.AuditFile(), filter: f, fn: fn}
	defer t.close()
	if err := t.start(h); err != nil {
		return err
	}
	ready()
	return t.follow(ctx, watcher)
}

// tail is Follow's place in the log: the file audit.jsonl named when it was
// last looked at, read up to some point.
type tail struct {
	path   string
	filter Filter
	fn     func(Record) error
	cur    *logFile // nil until audit.jsonl exists
}

// start reads the backlog since filter.Since, or skips to the end of the
// current file when there is no Since.
func (t *tail) start(h config.Home) error {
	if t.filter.Since.IsZero() {
		return t.openCurrent(io.SeekEnd)
	}
	files, err := openLog(h)
	if errors.Is(err, ErrNoLog) {
		return nil
	}
	if err != nil {
		return err
	}
	if last := files[len(files)-1]; last.name == auditName {
		t.cur, files = last, files[:len(files)-1]
	}
	defer closeAll(files)
	for _, lf := range files {
		if err := lf.readAll(t.filter, t.fn, true); err != nil {
			return err
		}
	}
	return nil
}

func (t *tail) follow(ctx context.Context, w *fsnotify.Watcher) error {
	for {
		if err := t.catchUp(); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return nil
		case _, ok := <-w.Events:
			if !ok {
				return errors.New("watch the audit log: the watcher stopped")
			}
		case _, ok := <-w.Errors:
			// An overflow or other watcher error loses events, not lines:
			// catching up reads the files themselves.
			if !ok {
				return errors.New("watch the audit log: the watcher stopped")
			}
		}
	}
}

// catchUp reads what has been written since the last look, following the
// path to a new file when audit.jsonl has been rotated.
func (t *tail) catchUp() error {
	for {
		if err := t.readCurrent(); err != nil {
			return err
		}
		moved, err := t.moved()
		if err != nil || !moved {
			return err
		}
		if err := t.readCurrent(); err != nil { // what a late writer added
			return err
		}
		if err := t.finish(); err != nil {
			return err
		}
		if err := t.openCurrent(io.SeekStart); err != nil {
			return err
		}
	}
}

func (t *tail) readCurrent() error {
	if t.cur == nil {
		return nil
	}
	return t.cur.readAll(t.filter, t.fn, false)
}

// moved reports whether audit.jsonl now names a file other than the one
// being read (a rotation, or the first file appearing).
func (t *tail) moved() (bool, error) {
	onDisk, err := os.Stat(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if t.cur == nil {
		return true, nil
	}
	open, err := t.cur.file.Stat()
	return err != nil || !os.SameFile(open, onDisk), nil
}

// finish ends the old file: an unfinished last line there will never be
// completed, so it is read as it stands.
func (t *tail) finish() error {
	if t.cur == nil {
		return nil
	}
	defer t.close()
	if line, err := t.cur.scan.rest(); !errors.Is(err, io.EOF) {
		return t.cur.deliver(line, err, t.filter, t.fn)
	}
	return nil
}

func (t *tail) openCurrent(whence int) error {
	f, err := os.Open(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the audit log: %w", err)
	}
	if _, err := f.Seek(0, whence); err != nil {
		f.Close()
		return err
	}
	t.cur = &logFile{name: auditName, file: f, scan: newLineScanner(f)}
	return nil
}

func (t *tail) close() {
	if t.cur != nil {
		t.cur.file.Close()
		t.cur = nil
	}
}
