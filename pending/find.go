package pending

import (
	"errors"
	"fmt"
	"strings"
)

// MinRef is the shortest id prefix Find takes: shorter ones would match
// too often to name what the person saw.
const MinRef = 4

// DigestLen is the length of Digest's short form.
const DigestLen = 8

// ErrNotWaiting: no waiting request has that id prefix or digest. Whether
// one ever did is for the audit log to say (approval.pending events carry
// the id and the digest).
var ErrNotWaiting = errors.New("no waiting request has that id or digest")

// AmbiguousError is a reference that names more than one waiting request.
type AmbiguousError struct {
	Ref        string
	Candidates []Pending // newest first
}

func (e *AmbiguousError) Error() string {
	return fmt.Sprintf("%s names %d waiting requests; give more of the id", e.Ref, len(e.Candidates))
}

// NormalRef lowers ref and checks that it can name a request: 4 to 16 hex
// characters.
func NormalRef(ref string) (string, error) {
	ref = strings.ToLower(strings.TrimSpace(ref))
	if len(ref) < MinRef || len(ref) > 16 || !isLowerHex(ref, len(ref)) {
		return "", fmt.Errorf("%q is not a request id, a prefix of one (at least %d characters) or a digest: each is hex characters, as wisp approvals pending shows them", ref, MinRef)
	}
	return ref, nil
}

// Matches reports whether ref names p: a prefix of its id, or its digest
// (Digest of its binding, as the banner, the menu and the listing show).
func Matches(p Pending, ref string) bool {
	return strings.HasPrefix(p.Request.ID, ref) || (len(ref) == DigestLen && Digest(p.Binding) == ref)
}

// Find returns the one waiting request that ref names (see NormalRef and
// Matches), read the way Get reads it. Several: an *AmbiguousError listing
// them. None: an error wrapping ErrNotWaiting.
func (c *Channel) Find(ref string) (Pending, error) {
	ref, err := NormalRef(ref)
	if err != nil {
		return Pending{}, err
	}
	list, err := c.List()
	if err != nil {
		return Pending{}, err
	}
	var found []Pending
	for _, p := range list {
		if Matches(p, ref) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return Pending{}, fmt.Errorf("%s: %w", ref, ErrNotWaiting)
	case 1:
		return found[0], nil
	}
	return Pending{}, &AmbiguousError{Ref: ref, Candidates: found}
}
