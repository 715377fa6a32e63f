package pending

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Pending is a request waiting for an answer, as a face read it. A face
// shows what is in Request, which was parsed from Bytes, and an answer is
// bound to Binding, the hash of those same Bytes.
type Pending struct {
	Request  Request
	Bytes    []byte // the request file as read
	Binding  string // Binding(Bytes)
	File     string // the request file's path
	Answered bool   // an answer bound to Bytes is there; its requester has not taken it yet
}

// Skipped is a file of the folder that is not listed, and why.
type Skipped struct {
	File   string
	Reason error
}

// Listing is one full scan of the folder.
type Listing struct {
	Pending []Pending // newest first
	Skipped []Skipped // refused, stale (removed) or expired
}

// List returns every valid waiting request, newest first. See Scan.
func (c *Channel) List() ([]Pending, error) {
	l, err := c.Scan()
	return l.Pending, err
}

// Scan reads the whole folder. A request whose requester is gone is stale:
// it is removed with its answer. An expired request is skipped (its
// requester removes it). A file that breaks a reading rule, or that does
// not parse as a valid request, is skipped, never listed as approvable. An
// answer with no request beside it is removed. A folder not yet created
// holds nothing.
func (c *Channel) Scan() (Listing, error) {
	entries, err := os.ReadDir(c.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Listing{}, nil
	}
	if err != nil {
		return Listing{}, fmt.Errorf("list the pending folder: %w", err)
	}
	var l Listing
	sc := newScan(entries)
	for _, e := range entries {
		c.scanEntry(&l, sc, e.Name())
	}
	sort.SliceStable(l.Pending, func(i, j int) bool { return newer(l.Pending[i], l.Pending[j]) })
	return l, nil
}

// scan is what one Scan learns once and uses for every file: which answer
// files the listing holds (so a request with none is not probed), and
// whether each requester is alive (so a process with many requests is
// looked up once). With a thousand requests waiting, this is most of the
// cost of a rescan.
type scan struct {
	answers map[string]bool
	alive   map[Requester]bool
}

func newScan(entries []fs.DirEntry) *scan {
	sc := &scan{answers: map[string]bool{}, alive: map[Requester]bool{}}
	for _, e := range entries {
		if id, isRequest, ok := splitName(e.Name()); ok && !isRequest {
			sc.answers[id] = true
		}
	}
	return sc
}

func (c *Channel) scanEntry(l *Listing, sc *scan, name string) {
	id, isRequest, ok := splitName(name)
	switch {
	case !ok && name[0] != '.':
		l.Skipped = append(l.Skipped, Skipped{filepath.Join(c.Dir, name), errors.New("the name is not one of a pending file")})
	case !ok:
	case !isRequest:
		c.removeOrphanAnswer(id)
	default:
		p, err := c.loadIn(id, sc)
		if err == nil {
			l.Pending = append(l.Pending, p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			l.Skipped = append(l.Skipped, Skipped{c.requestPath(id), err})
		}
	}
}

func newer(a, b Pending) bool {
	if !a.Request.RequestedAt.Equal(b.Request.RequestedAt) {
		return a.Request.RequestedAt.After(b.Request.RequestedAt)
	}
	return a.Request.ID < b.Request.ID
}

// Get returns the request id if it is waiting, or an error wrapping
// ErrGone when it is not (never filed, answered, withdrawn, expired or
// stale), or the reason it cannot be shown.
func (c *Channel) Get(id string) (Pending, error) {
	if !validID(id) {
		return Pending{}, fmt.Errorf("%q is not a request id: an id is 16 lowercase hex characters (see wisp approvals pending)", id)
	}
	p, err := c.load(id)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrStale) || errors.Is(err, ErrExpired) {
		return Pending{}, fmt.Errorf("request %s: %w", id, ErrGone)
	}
	if err != nil {
		return Pending{}, fmt.Errorf("read request %s: %w", id, err)
	}
	return p, nil
}

// load reads and checks the request id the way every face must.
func (c *Channel) load(id string) (Pending, error) { return c.loadIn(id, nil) }

// loadIn is load within a scan, whose knowledge it uses when sc is not nil.
func (c *Channel) loadIn(id string, sc *scan) (Pending, error) {
	path := c.requestPath(id)
	data, err := readFile(path)
	if err != nil {
		return Pending{}, err
	}
	req, err := ParseRequest(data)
	if err != nil {
		return Pending{}, err
	}
	if req.ID != id {
		return Pending{}, fmt.Errorf("%w: the file of request %s holds request %s", ErrMalformed, id, req.ID)
	}
	if err := c.checkWaiting(req, sc); err != nil {
		return Pending{}, err
	}
	p := Pending{Request: req, Bytes: data, Binding: Binding(data), File: path}
	p.Answered = (sc == nil || sc.answers[id]) && c.answered(p)
	return p, nil
}

// checkWaiting refuses a request that can no longer be answered; a stale
// one is removed on the way.
func (c *Channel) checkWaiting(req Request, sc *scan) error {
	if c.requesterGone(req.Requester, sc) {
		c.discard(req.ID)
		return fmt.Errorf("%w: process %d, which filed it, has ended; it was removed", ErrStale, req.Requester.PID)
	}
	if !c.now().Before(req.ExpiresAt) {
		return fmt.Errorf("%w (at %s)", ErrExpired, req.ExpiresAt.Format("15:04:05"))
	}
	return nil
}

func (c *Channel) requesterGone(r Requester, sc *scan) bool {
	if sc == nil {
		return c.gone(r)
	}
	alive, known := sc.alive[r]
	if !known {
		alive = !c.gone(r)
		sc.alive[r] = alive
	}
	return !alive
}

// answered reports whether an answer bound to p's bytes lies beside it.
func (c *Channel) answered(p Pending) bool {
	data, err := readFile(c.answerPath(p.Request.ID))
	if err != nil {
		return false
	}
	a, err := ParseAnswer(data)
	return err == nil && a.ID == p.Request.ID && a.Binding == p.Binding
}

// discard removes the files of a request that no one waits for, in the
// requester's order: the answer, then the request.
func (c *Channel) discard(id string) {
	removeFile(c.answerPath(id))
	removeFile(c.requestPath(id))
}

// removeOrphanAnswer removes an answer whose request is not there. The
// request is looked for after the answer was seen: a request is always
// filed before its answer, so a request missing now has ended (or never
// was), and no answer a requester may still take is removed.
func (c *Channel) removeOrphanAnswer(id string) {
	if _, err := os.Lstat(c.requestPath(id)); errors.Is(err, fs.ErrNotExist) {
		removeTaken(c.take(c.answerPath(id)))
	}
}
