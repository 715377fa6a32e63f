// Package approval owns the gate: which commands ask a person (risk levels
// against approval.threshold), what stays approved (the session's memory
// and approvals.json), the rules of decisions D14 to D24 for a request to run outside
// the sandbox, and the Approver interface with its kinds (terminal,
// out-of-band, auto, denying). When several approvers can ask, they ask at
// once; the first answer wins and the others are withdrawn.
package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

// Gate implements runner.Gate.
type Gate struct {
	// Threshold is the approval.threshold that applies (ResolveThreshold):
	// the lowest level that asks, or "never". Empty is taken as
	// UnconfinedDefault, the stricter default.
	Threshold string
	Held      *Held
	Approvers []Approver
	Audit     *audit.Logger
	// Project is the project root that project approvals are keyed by.
	Project string
	// NoPersonWhy replaces the end of decision D18's refusal for a face that
	// knows better why nobody can be asked (MCP: the client cannot ask).
	NoPersonWhy string
}

var _ runner.Gate = (*Gate)(nil)

// Clear decides whether a model's command may run.
func (g *Gate) Clear(ctx context.Context, gr runner.GateRequest) (runner.Clearance, error) {
	req := g.request(gr)
	if !gr.OutsideSandbox {
		if ok, by, err := g.passes(req); err != nil || ok {
			return runner.Clearance{Approved: ok, By: by}, err
		}
	}
	if !gr.OutsideSandbox {
		// --yes answers by itself: take its answer before a person is
		// asked, so no dialog or pending file flashes up and vanishes.
		if c, ok := g.selfApproved(ctx, req); ok {
			return c, nil
		}
	}
	g.offerPrefixes(&req)
	approvers := g.eligible(req)
	if len(approvers) == 0 {
		return g.refuseNoPerson(req), nil
	}
	g.log(audit.ApprovalRequested{ID: req.ID, Command: req.Line, Cwd: req.Dir, Level: req.Level.String(),
		Reasons: req.Reasons, OutsideSandbox: req.OutsideSandbox, Faces: names(approvers)})
	ans, err := race(ctx, approvers, req)
	if errors.Is(err, ErrCannotAsk) {
		return g.refuseNoPerson(req), nil
	}
	if err != nil {
		g.log(audit.ApprovalDecided{ID: req.ID, Command: req.Line, Decision: "withdrawn", Reason: err.Error(), OutsideSandbox: req.OutsideSandbox})
		return runner.Clearance{}, err
	}
	return g.decide(req, ans)
}

// request builds the question: an outside-sandbox request is asked at
// moderate at least, with its reason first, offering only once.
func (g *Gate) request(gr runner.GateRequest) Request {
	req := Request{ID: newID(), Line: gr.Line, Dir: gr.Dir, OutsideSandbox: gr.OutsideSandbox,
		Level: gr.Decision.Risk.Level, Reasons: gr.Decision.Risk.Reasons, Scopes: AllScopes}
	switch {
	case gr.OutsideSandbox:
		req.Level = max(req.Level, policy.Moderate)
		req.Reasons = append([]string{pending.OutsideReason}, req.Reasons...)
		req.Scopes = []Scope{Once}
	case isPrefix(gr.Line):
		// Held, the line would read as a prefix of its words: once only.
		req.Scopes = []Scope{Once}
	}
	return req
}

// offerPrefixes adds the prefixes a dialog may offer to an ordinary
// request that will be asked; read only then, never for a line that
// passes, so that a command below the threshold costs no second parse.
func (g *Gate) offerPrefixes(req *Request) {
	if req.OutsideSandbox || isPrefix(req.Line) {
		return
	}
	if threshold, never, err := g.threshold(); err == nil && !never {
		req.Prefixes = OfferedPrefixes(req.Line, threshold)
	}
}

// threshold is the level that asks, or never.
func (g *Gate) threshold() (policy.Level, bool, error) {
	set := g.Threshold
	if set == "" {
		set = UnconfinedDefault // a gate wired without resolving fails toward asking
	}
	if set == "never" {
		return 0, true, nil
	}
	level, err := policy.ParseLevel(set)
	if err != nil {
		return 0, false, fmt.Errorf("approval.threshold: %w", err)
	}
	return level, false, nil
}

// passes reports whether an ordinary request needs no one: below the
// threshold, or held.
func (g *Gate) passes(req Request) (bool, string, error) {
	threshold, never, err := g.threshold()
	switch {
	case err != nil:
		return false, "", err
	case never:
		return true, "threshold never", nil
	case req.Level < threshold:
		return true, "below the threshold", nil
	}
	by := "held"
	scope, err := g.Held.Covers(req.Line, g.Project)
	if err == nil && scope == "" {
		by = "held prefix"
		scope, err = g.Held.CoversByPrefix(req.Line, g.Project, threshold)
	}
	if err != nil {
		return false, "", err
	}
	if scope != "" {
		g.log(audit.ApprovalDecided{ID: req.ID, Command: req.Line, Decision: "approve", By: by, Scope: string(scope)})
		return true, by + " " + string(scope), nil
	}
	return false, "", nil
}

// selfApproved asks the approvers that answer without a person, in order,
// and reports an approval from one of them. A denial from one is not final
// while a person can still be asked.
func (g *Gate) selfApproved(ctx context.Context, req Request) (runner.Clearance, bool) {
	for _, a := range g.Approvers {
		if a.AsksAPerson() {
			continue
		}
		if ans, err := a.Ask(ctx, req); err == nil && ans.Approve {
			g.log(audit.ApprovalDecided{ID: req.ID, Command: req.Line, Decision: "approve", By: ans.By, Scope: string(Once)})
			return runner.Clearance{Approved: true, By: ans.By, Scope: string(Once)}, true
		}
	}
	return runner.Clearance{}, false
}

// eligible drops approvers that cannot answer this request: for an
// outside-sandbox request, those that ask no person.
func (g *Gate) eligible(req Request) []Approver {
	var out []Approver
	for _, a := range g.Approvers {
		if req.OutsideSandbox && !a.AsksAPerson() {
			continue
		}
		out = append(out, a)
	}
	return out
}

// refuseNoPerson is decision D18: no one to ask, no run.
func (g *Gate) refuseNoPerson(req Request) runner.Clearance {
	why := "no one can be asked here"
	for _, a := range g.Approvers {
		if _, ok := a.(Auto); ok {
			why += " (--yes does not answer it)"
		}
	}
	if g.NoPersonWhy != "" {
		why = g.NoPersonWhy
	}
	msg := "error: command not approved: no one can be asked here to approve it; ask the person to run it themselves"
	if req.OutsideSandbox {
		msg = "error: command not approved: running outside the sandbox is asked of a person every time, and " + why +
			"; run it without outsideSandbox, or ask the person to run it themselves"
	}
	g.log(audit.ApprovalDecided{ID: req.ID, Command: req.Line, Decision: "refused", By: "gate", Reason: why, OutsideSandbox: req.OutsideSandbox})
	return runner.Clearance{Message: msg}
}

// decide turns the winning answer into a clearance: an outside-sandbox
// answer is once whatever scope came, and is never kept.
func (g *Gate) decide(req Request, ans Answer) (runner.Clearance, error) {
	ev := audit.ApprovalDecided{ID: req.ID, Command: req.Line, By: ans.By, Scope: string(ans.Scope),
		OutsideSandbox: req.OutsideSandbox, Reason: ans.Reason}
	if !ans.Approve {
		ev.Decision = "deny"
		if ans.Reason == "expired" {
			ev.Decision = "expired"
		}
		g.log(ev)
		return runner.Clearance{Message: denialMessage(req, ans), By: ans.By}, nil
	}
	ev.Decision = "approve"
	if req.OutsideSandbox && ans.Scope != Once && ans.Scope != "" {
		ev.DowngradedFrom, ev.Scope, ans.Scope = string(ans.Scope), string(Once), Once
	}
	held := []string{req.Line}
	if ans.Prefix && len(req.Prefixes) > 0 && ans.Scope != Once && !req.OutsideSandbox {
		held, ev.Prefixes = req.Prefixes, req.Prefixes
	}
	g.log(ev)
	if !req.OutsideSandbox {
		for _, line := range held {
			if err := g.Held.Keep(line, g.Project, ans.Scope); err != nil {
				return runner.Clearance{}, err
			}
		}
	}
	return runner.Clearance{Approved: true, By: ans.By, Scope: string(ans.Scope)}, nil
}

func denialMessage(req Request, ans Answer) string {
	what := "the person denied it"
	switch {
	case ans.Reason == "expired":
		what = "nobody answered before the request expired, and silence is a denial"
	case ans.Reason != "":
		what = ans.Reason
	}
	if req.OutsideSandbox {
		return "error: command not approved: " + what + "; it did not run, in or outside the sandbox"
	}
	return "error: command not approved: " + what + "; it did not run"
}

func (g *Gate) log(e audit.Event) {
	if g.Audit != nil {
		_ = g.Audit.Log(e)
	}
}

func names(as []Approver) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name()
	}
	return out
}

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// DowngradeNote is decision D17's wording for a scope taken as once.
func DowngradeNote(asked Scope, line string) string {
	return fmt.Sprintf("approved once, outside the sandbox (%s is taken as once): %s", asked, strings.TrimSpace(line))
}

// AskPerson puts a question that is not a command run (add_directory's
// grant) to the faces that reach a person; --yes and a denying face never
// answer it. Nothing is kept: the question is asked each time.
func (g *Gate) AskPerson(ctx context.Context, req Request) (Answer, error) {
	req.ID = newID()
	var persons []Approver
	for _, a := range g.Approvers {
		if a.AsksAPerson() {
			persons = append(persons, a)
		}
	}
	if len(persons) == 0 {
		return Answer{Approve: false, By: "nobody", Reason: "no one can be asked here"}, nil
	}
	g.log(audit.ApprovalRequested{ID: req.ID, Command: req.Line, Cwd: req.Dir, Level: req.Level.String(), Reasons: req.Reasons, Faces: names(persons)})
	ans, err := race(ctx, persons, req)
	if errors.Is(err, ErrCannotAsk) {
		ans, err = Answer{Approve: false, By: "nobody", Reason: "no one can be asked here"}, nil
	}
	if err != nil {
		return Answer{}, err
	}
	decision := map[bool]string{true: "approve", false: "deny"}[ans.Approve]
	g.log(audit.ApprovalDecided{ID: req.ID, Command: req.Line, Decision: decision, By: ans.By, Scope: string(Once), Reason: ans.Reason})
	return ans, nil
}
