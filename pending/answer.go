package pending

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Answer writes decision ("approve" or "deny") with scope (empty means
// "once") for the request p, bound to p.Binding: the bytes the face read
// and showed. by names the face ("wisp-bar", "wisp approvals").
//
// For a command request the scope must be one it offered. For an
// outside-sandbox request session, project and always are written as
// asked; the requester takes them as once.
//
// The first answer wins, and Answer is idempotent. When an answer bound to
// the same bytes is already there, nothing is written: with the same
// decision and scope Answer returns that answer and nil; with another, it
// returns that answer and ErrAlreadyAnswered. An answer there that is not
// bound to these bytes is replaced (the requester would refuse it anyway).
// When the request is no longer waiting (its file gone, its requester
// ended, or it expired) Answer writes nothing, or removes what it wrote,
// and returns an error wrapping ErrGone.
//
// A nil error means the answer was written while the request waited. It
// is final when the requester takes it; a refused one goes to the
// requester's OnRefused, and the request stays listed. In the rare moment
// when the request ends (withdrawn, expired) just as the answer lands, nil
// may be returned for an answer never taken: the requester's audit record
// is the word on what was decided.
func (c *Channel) Answer(p Pending, decision, scope, by string) (Answer, error) {
	a, err := c.newAnswer(p, decision, scope, by)
	if err != nil {
		return Answer{}, err
	}
	if err := c.stillWaiting(p.Request.ID); err != nil {
		return Answer{}, err
	}
	data, err := encode(a)
	if err != nil {
		return Answer{}, fmt.Errorf("answer request %s: %w", a.ID, err)
	}
	err = writeFile(c.Dir, answerName(a.ID), data, false)
	if errors.Is(err, fs.ErrExist) {
		return c.answerOver(a, data)
	}
	if err != nil {
		return Answer{}, fmt.Errorf("answer request %s: %w", a.ID, err)
	}
	return a, c.confirmWaiting(a)
}

func (c *Channel) newAnswer(p Pending, decision, scope, by string) (Answer, error) {
	if scope == "" {
		scope = ScopeOnce
	}
	a := Answer{Version: Version, ID: p.Request.ID, Binding: p.Binding, Decision: decision, Scope: scope, By: by, AnsweredAt: c.now()}
	if Binding(p.Bytes) != p.Binding {
		return Answer{}, fmt.Errorf("answer request %s: the binding is not the hash of the bytes shown; read the request again with List or Get", a.ID)
	}
	if !knownScope(scope) {
		return Answer{}, fmt.Errorf("answer request %s: %w: %q (use once, session, project or always, or session-prefix, project-prefix or always-prefix where offered)", a.ID, ErrUnknownScope, scope)
	}
	if !p.Request.OutsideSandbox && !contains(p.Request.Scopes, scope) {
		return Answer{}, fmt.Errorf("answer request %s: %w: %q, and it offers %q", a.ID, ErrScopeNotOffered, scope, p.Request.Scopes)
	}
	if err := validateAnswer(a); err != nil {
		return Answer{}, fmt.Errorf("answer request %s: %w", a.ID, err)
	}
	return a, nil
}

// stillWaiting checks that request id is there to be answered.
func (c *Channel) stillWaiting(id string) error {
	_, err := c.Get(id)
	if errors.Is(err, ErrGone) {
		return fmt.Errorf("answer request %s: %w", id, ErrGone)
	}
	return err
}

// answerOver settles the race with an answer already there.
func (c *Channel) answerOver(a Answer, data []byte) (Answer, error) {
	there, err := readFile(c.answerPath(a.ID))
	if err == nil {
		if old, err := ParseAnswer(there); err == nil && old.ID == a.ID && old.Binding == a.Binding {
			if old.Decision == a.Decision && old.Scope == a.Scope {
				return old, nil
			}
			return old, fmt.Errorf("answer request %s: %w (%s, %s, by %s)", a.ID, ErrAlreadyAnswered, old.Decision, old.Scope, old.By)
		}
	}
	if err := writeFile(c.Dir, answerName(a.ID), data, true); err != nil {
		return Answer{}, fmt.Errorf("answer request %s: %w", a.ID, err)
	}
	return a, c.confirmWaiting(a)
}

// confirmWaiting checks, after writing, whether the request is still
// there. If it is not, and the answer still lies there, the requester ended
// before taking it: the answer is removed rather than left behind. If both
// are gone, the requester took the answer (it removes the answer first).
func (c *Channel) confirmWaiting(a Answer) error {
	if _, err := os.Lstat(c.requestPath(a.ID)); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := os.Lstat(c.answerPath(a.ID)); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	removeTaken(c.take(c.answerPath(a.ID)))
	return fmt.Errorf("answer request %s: %w", a.ID, ErrGone)
}
