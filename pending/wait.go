package pending

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Decision is an accepted answer, as the gate acts on it.
type Decision struct {
	Approved bool
	// Scope is what the approval covers. For an outside-sandbox request it
	// is always "once"; a wider scope asked is in DowngradedFrom.
	Scope          string
	DowngradedFrom string
	Answer         Answer // as the face wrote it
}

// Wait waits for the request's answer and returns the decision. It watches
// the folder with fsnotify (never the single file, never by polling) and
// checks once at the start in case the answer is there already.
//
// An answer is accepted only when it is read by the rules (see readFile),
// parses fully as a version 1 answer, names this request's id and binding,
// and carries a scope the request offered; for an outside-sandbox request
// session, project and always are taken as once, with DowngradedFrom set.
// Any other answer is removed, reported to OnRefused, and Wait keeps
// waiting.
//
// Wait returns ErrExpired when expiresAt passes in silence (a denial), and
// ErrWithdrawn when ctx is cancelled or Withdraw is called. However it
// returns, both files are gone from the folder. The process ending is a
// withdrawal only if the caller cancels ctx from its signal handler (see
// signal.NotifyContext); a killed requester's files are left for the faces,
// which find them stale.
func (f *Filed) Wait(ctx context.Context) (Decision, error) {
	w, err := f.watchFolder()
	if err != nil {
		return Decision{}, errors.Join(err, f.cleanup())
	}
	defer w.Close()
	expiry := time.NewTimer(f.Request.ExpiresAt.Sub(f.c.Now()))
	defer expiry.Stop()
	for {
		if !f.c.Now().Before(f.Request.ExpiresAt) {
			return Decision{}, errors.Join(ErrExpired, f.cleanup())
		}
		if d, ok := f.check(); ok {
			return d, f.cleanup()
		}
		if err := f.next(ctx, w, expiry.C); err != nil {
			return Decision{}, errors.Join(err, f.cleanup())
		}
	}
}

func (f *Filed) watchFolder() (*fsnotify.Watcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch the pending folder for an answer: %w", err)
	}
	if err := w.Add(f.c.Dir); err != nil {
		w.Close()
		return nil, fmt.Errorf("watch the pending folder %s for an answer: %w", f.c.Dir, err)
	}
	f.watchOnce.Do(func() { close(f.watching) })
	return w, nil
}

// next blocks until something may have changed the answer file, or until
// the wait is over (the returned error).
func (f *Filed) next(ctx context.Context, w *fsnotify.Watcher, expired <-chan time.Time) error {
	answer := answerName(f.Request.ID)
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w: %w", ErrWithdrawn, context.Cause(ctx))
		case <-f.stop:
			return ErrWithdrawn
		case <-expired:
			return ErrExpired
		case ev, ok := <-w.Events:
			if !ok {
				return fmt.Errorf("watch the pending folder for an answer: the watcher closed")
			}
			if filepath.Base(ev.Name) == answer && !ev.Has(fsnotify.Remove) {
				return nil
			}
		case _, ok := <-w.Errors: // an overflow or error may have hidden an event: check again
			if !ok {
				return fmt.Errorf("watch the pending folder for an answer: the watcher closed")
			}
			return nil
		}
	}
}

// check looks at the answer file. An acceptable answer is acted on where
// it lies; anything else there is first taken away from the name, then
// judged again, so that the file removed is the file judged, and an answer
// a face put there meanwhile is never lost.
func (f *Filed) check() (Decision, bool) {
	path := f.c.answerPath(f.Request.ID)
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Decision{}, false
	}
	if err == nil {
		if d, err := f.verify(data); err == nil {
			return d, true
		}
	}
	taken := f.c.take(path)
	if taken == "" {
		return Decision{}, false
	}
	d, err := f.judgeTaken(taken)
	removeTaken(taken)
	if err != nil {
		f.c.refused(path, err)
		return Decision{}, false
	}
	return d, true
}

func (f *Filed) judgeTaken(taken string) (Decision, error) {
	data, err := readFile(taken)
	if err != nil {
		return Decision{}, err
	}
	return f.verify(data)
}

func (f *Filed) verify(data []byte) (Decision, error) {
	a, err := ParseAnswer(data)
	switch {
	case err != nil:
		return Decision{}, err
	case a.ID != f.Request.ID:
		return Decision{}, fmt.Errorf("%w: it names request %s, not %s", ErrWrongID, a.ID, f.Request.ID)
	case a.Binding != f.Binding:
		return Decision{}, fmt.Errorf("%w: binding %s, not %s (was the request file edited?)", ErrWrongBinding, Digest(a.Binding), Digest(f.Binding))
	}
	d := Decision{Approved: a.Decision == DecisionApprove, Scope: a.Scope, Answer: a}
	switch {
	case contains(f.Request.Scopes, a.Scope):
	case f.Request.OutsideSandbox:
		d.Scope, d.DowngradedFrom = ScopeOnce, a.Scope
	default:
		return Decision{}, fmt.Errorf("%w: %q, and it offered %q", ErrScopeNotOffered, a.Scope, f.Request.Scopes)
	}
	return d, nil
}

// take moves path to a new dot-name in the folder, so that whatever is
// judged there can be removed without touching what replaces it. It
// returns "" when nothing was there.
func (c *Channel) take(path string) string {
	var b [6]byte
	rand.Read(b[:])
	taken := filepath.Join(c.Dir, ".refused-"+filepath.Base(path)+"-"+hex.EncodeToString(b[:]))
	if err := os.Rename(path, taken); err != nil {
		return ""
	}
	return taken
}

// removeTaken removes a file taken from its name (a directory planted under
// an answer's name included).
func removeTaken(taken string) {
	if taken != "" {
		os.RemoveAll(taken)
	}
}
