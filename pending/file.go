package pending

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"
)

// Filed is a request on disk, as its requester holds it: the bytes it
// wrote, which it never reads back, and their binding.
type Filed struct {
	Request Request
	Bytes   []byte // the request file exactly as written
	Binding string // Binding(Bytes)
	File    string // the request file's path

	c         *Channel
	stop      chan struct{} // closed by Withdraw
	stopOnce  sync.Once
	watching  chan struct{} // closed once Wait watches the folder
	watchOnce sync.Once
	cleanOnce sync.Once
	cleanErr  error
}

// File writes req as a new request and returns it filed. It fills in the
// version, a fresh id (unless req names one: the gate passes the id its
// audit events carry, so the log and `wisp approvals` share one id), the requester (this process), requestedAt, and
// expiresAt (the channel's Timeout later), and holds an outside-sandbox
// request to the rules of decisions D16 and D17: kind and flag both set, scopes ["once"],
// OutsideReason first among the reasons, moderate at least. A command
// request that names no scopes offers AllScopes.
//
// The caller must end every Filed with Wait or Withdraw, or its files stay
// behind until a face finds them stale.
func (c *Channel) File(ctx context.Context, req Request) (*Filed, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := ensureFolder(c.Dir); err != nil {
		return nil, err
	}
	req, err := c.complete(req)
	if err != nil {
		return nil, err
	}
	if req.ID != "" {
		return c.fileNamed(req)
	}
	const attempts = 3 // a taken id is astronomically rare; a stuck source is not
	for range attempts {
		f, err := c.fileAs(req)
		if !errors.Is(err, fs.ErrExist) {
			return f, err
		}
	}
	return nil, fmt.Errorf("file an approval request: every new id was taken; check the id source")
}

func (c *Channel) complete(req Request) (Request, error) {
	who, err := c.self()
	if err != nil {
		return Request{}, fmt.Errorf("file an approval request: %w", err)
	}
	req.Version, req.Requester = Version, who
	req.RequestedAt = c.now()
	req.ExpiresAt = req.RequestedAt.Add(c.Timeout)
	if req.Reasons == nil {
		req.Reasons = []string{}
	}
	if req.OutsideSandbox || req.Kind == KindOutsideSandbox {
		return outsideRules(req), nil
	}
	if req.Kind == "" {
		req.Kind = KindCommand
	}
	if len(req.Scopes) == 0 {
		req.Scopes = slices.Clone(AllScopes)
	}
	return req, nil
}

// outsideRules makes req an outside-sandbox request by the rules of decisions D16 and D17.
func outsideRules(req Request) Request {
	req.Kind, req.OutsideSandbox = KindOutsideSandbox, true
	req.Scopes = []string{ScopeOnce}
	others := slices.DeleteFunc(slices.Clone(req.Reasons), func(r string) bool { return r == OutsideReason })
	req.Reasons = append([]string{OutsideReason}, others...)
	if req.Level == LevelLow || req.Level == "" {
		req.Level = LevelModerate
	}
	return req
}

// fileNamed writes req under the id its caller chose. A taken id is an
// error, never a silent other id: the caller's audit record names this one.
func (c *Channel) fileNamed(req Request) (*Filed, error) {
	f, err := c.fileUnder(req)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("file an approval request: id %s is taken in %s: %w", req.ID, c.Dir, err)
	}
	return f, err
}

// fileAs writes req under a fresh id; fs.ErrExist means the id was taken.
func (c *Channel) fileAs(req Request) (*Filed, error) {
	id, err := c.newID()
	if err != nil {
		return nil, err
	}
	req.ID = id
	return c.fileUnder(req)
}

// fileUnder writes req under req.ID; fs.ErrExist means the id was taken.
func (c *Channel) fileUnder(req Request) (*Filed, error) {
	id := req.ID
	if err := validateRequest(req); err != nil {
		return nil, fmt.Errorf("file an approval request: %w", err)
	}
	data, err := encode(req)
	if err != nil {
		return nil, fmt.Errorf("file an approval request: %w", err)
	}
	c.clearEarlyAnswer(id)
	if err := writeFile(c.Dir, requestName(id), data, false); err != nil {
		return nil, fmt.Errorf("file an approval request in %s: %w", c.Dir, err)
	}
	return &Filed{
		Request: req, Bytes: data, Binding: Binding(data), File: c.requestPath(id),
		c: c, stop: make(chan struct{}), watching: make(chan struct{}),
	}, nil
}

func (c *Channel) newID() (string, error) {
	var b [8]byte
	if _, err := io.ReadFull(c.random, b[:]); err != nil {
		return "", fmt.Errorf("file an approval request: draw an id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// clearEarlyAnswer removes an answer that is there before its request: it
// cannot have been given to the request about to be filed.
func (c *Channel) clearEarlyAnswer(id string) {
	path := c.answerPath(id)
	if _, err := os.Lstat(path); err == nil {
		removeTaken(c.take(path))
		c.refused(path, ErrEarlyAnswer)
	}
}

// Withdraw stops waiting: the request and any answer are removed, and a
// Wait in progress returns ErrWithdrawn. Call it when the request was
// answered another way (in the terminal first), and from the path that
// handles Ctrl-C. It is safe to call more than once.
func (f *Filed) Withdraw() error {
	f.stopOnce.Do(func() { close(f.stop) })
	return f.cleanup()
}

// cleanup removes the answer, then the request. In that order a face that
// answers in the same moment can tell what happened: its answer gone with
// the request was taken; its answer left beside no request was not (see
// Channel.Answer).
func (f *Filed) cleanup() error {
	f.cleanOnce.Do(func() {
		err := removeFile(f.c.answerPath(f.Request.ID))
		f.cleanErr = errors.Join(err, removeFile(f.File))
		if f.cleanErr != nil {
			f.cleanErr = fmt.Errorf("remove the approval request's files: %w", f.cleanErr)
		}
	})
	return f.cleanErr
}
