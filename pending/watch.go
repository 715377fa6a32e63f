package pending

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch calls fn with the full list of waiting requests (as List gives it)
// at the start and whenever it changes, until ctx is done; then it returns
// nil. It watches the folder with fsnotify, never single files, and never
// polls: a change of a pending file is acted on at once after a quiet
// spell, and further changes within Settle are gathered into one rescan at
// the end of it. A watcher error (an event queue overflow) brings a full
// rescan; so does the next expiry among the listed requests. Files skipped
// go to OnRefused once each, not at every rescan.
//
// A requester killed without a chance to withdraw (SIGKILL) is noticed at
// the next rescan, which any change in the folder brings, or at its
// request's expiry, whichever is first.
func (c *Channel) Watch(ctx context.Context, fn func([]Pending)) error {
	if err := ensureFolder(c.Dir); err != nil {
		return err
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch the pending folder: %w", err)
	}
	defer w.Close()
	if err := w.Add(c.Dir); err != nil { // before the first scan, so nothing falls between
		return fmt.Errorf("watch the pending folder %s: %w", c.Dir, err)
	}
	s := &watchState{c: c, fn: fn, settle: newStoppedTimer(), expiry: newStoppedTimer()}
	defer s.settle.Stop()
	defer s.expiry.Stop()
	s.rescan()
	return s.loop(ctx, w)
}

type watchState struct {
	c        *Channel
	fn       func([]Pending)
	shown    []Pending
	started  bool
	reported map[string]bool // file and reason of each skipped file
	lastScan time.Time
	settle   *time.Timer // armed: a rescan is due at its end
	armed    bool
	expiry   *time.Timer // the next listed request's expiry
}

func (s *watchState) loop(ctx context.Context, w *fsnotify.Watcher) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return errors.New("watch the pending folder: the watcher closed")
			}
			if _, _, mine := splitName(filepath.Base(ev.Name)); mine {
				s.changed()
			}
		case _, ok := <-w.Errors: // an overflow may have hidden events
			if !ok {
				return errors.New("watch the pending folder: the watcher closed")
			}
			s.rescan()
		case <-s.settle.C:
			s.armed = false
			s.rescan()
		case <-s.expiry.C:
			s.rescan()
		}
	}
}

// changed rescans at once after a quiet spell; within Settle of the last
// rescan it arms one rescan at the spell's end, which gathers the burst.
func (s *watchState) changed() {
	if s.armed {
		return
	}
	wait := s.c.Settle - time.Since(s.lastScan)
	if wait <= 0 {
		s.rescan()
		return
	}
	s.settle.Reset(wait)
	s.armed = true
}

func (s *watchState) rescan() {
	s.lastScan = time.Now()
	l, err := s.c.Scan()
	if err != nil {
		s.c.refused(s.c.Dir, err)
		return
	}
	s.report(l.Skipped)
	s.armExpiry(l.Pending)
	if !s.started || !sameList(s.shown, l.Pending) {
		s.started, s.shown = true, l.Pending
		s.fn(l.Pending)
	}
}

// report tells OnRefused of files skipped now that were not skipped, for
// the same reason, at the rescan before.
func (s *watchState) report(skipped []Skipped) {
	now := make(map[string]bool, len(skipped))
	for _, sk := range skipped {
		key := sk.File + "\x00" + sk.Reason.Error()
		now[key] = true
		if !s.reported[key] {
			s.c.refused(sk.File, sk.Reason)
		}
	}
	s.reported = now
}

func (s *watchState) armExpiry(list []Pending) {
	s.expiry.Stop()
	if len(list) == 0 {
		return
	}
	next := slices.MinFunc(list, func(a, b Pending) int { return a.Request.ExpiresAt.Compare(b.Request.ExpiresAt) })
	s.expiry.Reset(next.Request.ExpiresAt.Sub(s.c.Now()) + time.Millisecond)
}

func sameList(a, b []Pending) bool {
	return slices.EqualFunc(a, b, func(x, y Pending) bool {
		return x.Binding == y.Binding && x.Answered == y.Answered
	})
}

func newStoppedTimer() *time.Timer {
	t := time.NewTimer(time.Hour)
	t.Stop()
	return t
}
