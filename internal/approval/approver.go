package approval

import (
	"context"
	"errors"

	"github.com/wisp-sh/wisp/policy"
)

// Request is one question put to the approvers.
type Request struct {
	ID             string // shared by every face's copy of the question
	Line, Dir      string
	OutsideSandbox bool
	Level          policy.Level
	Reasons        []string // for outside-sandbox, pending.OutsideReason first
	Scopes         []Scope  // the answers a face may offer
	// Prefixes are the held prefixes ("go test …") a face may offer in
	// place of the exact line, with the session, project and always
	// scopes; none when only the line can be held (OfferedPrefixes).
	Prefixes []string
	// Grant is the folder an add_directory request would let commands
	// write in for the rest of the session; empty for a command. The
	// terminal asks it in its own words (grantDialog).
	Grant string
}

// Answer is one approver's reply.
type Answer struct {
	Approve bool
	Scope   Scope
	By      string // the face that answered: terminal, wisp-bar, wisp approvals, …
	// Prefix holds the request's Prefixes at Scope instead of its line.
	Prefix bool
	// Reason says why a denial came about when it was not a person's "no":
	// expired, or the reason the approver could not ask.
	Reason string
}

// Approver asks for a decision on one request. Ask blocks until it has an
// answer or ctx is done, in which case it withdraws its question (clears the
// prompt, removes the pending file) and returns ctx.Err().
type Approver interface {
	Name() string
	// AsksAPerson is false for approvers that answer by themselves (--yes,
	// non-interactive respond); they can never answer an outside-sandbox
	// request (docs/decisions.md, D18).
	AsksAPerson() bool
	Ask(ctx context.Context, req Request) (Answer, error)
}

// ErrCannotAsk is returned by an approver that has no way to reach a
// person right now (no terminal, say).
var ErrCannotAsk = errors.New("no one can be asked")

// Auto approves every ordinary request by itself: --yes.
type Auto struct{}

func (Auto) Name() string      { return "--yes" }
func (Auto) AsksAPerson() bool { return false }
func (Auto) Ask(context.Context, Request) (Answer, error) {
	return Answer{Approve: true, Scope: Once, By: "--yes"}, nil
}

// Denying answers no: nobody can be asked (non-interactive respond).
type Denying struct{ Why string }

func (Denying) Name() string      { return "denying" }
func (Denying) AsksAPerson() bool { return false }
func (d Denying) Ask(context.Context, Request) (Answer, error) {
	return Answer{Approve: false, By: "nobody", Reason: d.Why}, nil
}
