package approval

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/approval/dialog"
	"github.com/wisp-sh/wisp/internal/netproxy"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// HostRequest is one question about a host in neither domain list, put
// to the faces that ask a person while the proxy holds the connection.
type HostRequest struct {
	ID     string // shared by every face's copy of the question
	Host   string
	Port   int
	Line   string // the command whose connection waits
	Dir    string
	Scopes []Scope
}

// Target is HOST:PORT.
func (r HostRequest) Target() string { return net.JoinHostPort(r.Host, strconv.Itoa(r.Port)) }

// HostApprover is an approver that can ask a person about a host: the
// terminal and the out-of-band channel.
type HostApprover interface {
	Approver
	AskHost(ctx context.Context, req HostRequest) (Answer, error)
}

// Hosts answers the proxy's questions (netproxy.Asker): from the project
// and always approvals in approvals.json, or by asking every face that
// can ask a person at once, the first answer winning. --yes and a face
// that answers by itself never allow a host: with no one to ask, the host
// is refused.
type Hosts struct {
	Approvers []HostApprover
	Held      *Held
	Project   string
	Audit     *audit.Logger
}

var _ netproxy.Asker = (*Hosts)(nil)

// NewHosts takes from a gate the faces that ask a person and can ask
// about a host, its held approvals and its project.
func NewHosts(g *Gate) *Hosts {
	h := &Hosts{Held: g.Held, Project: g.Project, Audit: g.Audit}
	for _, a := range g.Approvers {
		if ha, ok := a.(HostApprover); ok && a.AsksAPerson() {
			h.Approvers = append(h.Approvers, ha)
		}
	}
	return h
}

// HostEntry is how approvals.json holds a host, in the lists of lines:
// `network to HOST:PORT (host)`. The parentheses make it a line no shell
// parses, so an older wisp, which reads it as a command line, can never
// match it to a command that runs.
func HostEntry(host string, port int) string {
	return pending.NetworkCommand + net.JoinHostPort(host, strconv.Itoa(port)) + " (host)"
}

// AskHost answers from approvals.json or asks a person.
func (h *Hosts) AskHost(ctx context.Context, q netproxy.Question) (netproxy.Answer, error) {
	entry := HostEntry(q.Host, q.Port)
	if h.Held != nil {
		if scope, err := h.Held.Covers(entry, h.Project); err == nil && (scope == Project || scope == Always) {
			return netproxy.Answer{Allowed: true, By: "approvals.json", Scope: string(scope)}, nil
		}
	}
	if len(h.Approvers) == 0 {
		return netproxy.Answer{NoOne: true, By: "nobody"}, nil
	}
	req := HostRequest{ID: newID(), Host: q.Host, Port: q.Port, Line: q.Command, Dir: h.Project, Scopes: AllScopes}
	ans, err := raceHosts(ctx, h.Approvers, req)
	switch {
	case errors.Is(err, ErrCannotAsk):
		return netproxy.Answer{NoOne: true, By: "nobody"}, nil
	case err != nil:
		return netproxy.Answer{}, err
	}
	if ans.Approve && (ans.Scope == Project || ans.Scope == Always) && h.Held != nil {
		if err := h.Held.Keep(entry, h.Project, ans.Scope); err != nil {
			return netproxy.Answer{}, fmt.Errorf("keep the approval of %s: %w", req.Target(), err)
		}
	}
	return netproxy.Answer{Allowed: ans.Approve, By: ans.By, Scope: string(ans.Scope)}, nil
}

// raceHosts asks every host approver at once through race.
func raceHosts(ctx context.Context, approvers []HostApprover, req HostRequest) (Answer, error) {
	asking := make([]Approver, len(approvers))
	for i, a := range approvers {
		asking[i] = hostQuestion{a, req}
	}
	return race(ctx, asking, Request{ID: req.ID, Line: req.Line, Dir: req.Dir, Scopes: req.Scopes})
}

// hostQuestion puts one host question to one approver, as race asks.
type hostQuestion struct {
	HostApprover
	req HostRequest
}

func (q hostQuestion) Ask(ctx context.Context, _ Request) (Answer, error) {
	return q.AskHost(ctx, q.req)
}

// HostDialog is the terminal's question about a host:
//
//	allow network to registry.example.org:443? asked by: npm install
//	[y]once [s]ession [p]roject [a]lways [n]o
func HostDialog(req HostRequest) string {
	return fmt.Sprintf("allow network to %s? asked by: %s\n%s ", render.Line(req.Target()), render.Line(req.Line), dialog.ScopeMenu(scopeNames(req.Scopes), dialog.Packed))
}

// AskHost shows the host dialog on the terminal and reads one key among
// those offered; keys typed before it showed are dropped.
func (t *Terminal) AskHost(ctx context.Context, req HostRequest) (Answer, error) {
	defer t.show(ctx, HostDialog(req))()
	m := dialog.Open(dialog.Question{Scopes: scopeNames(req.Scopes)}, t.clock(), 0)
	ans, err := t.askOrdinary(m)
	if err != nil {
		return t.unanswered(ctx, err)
	}
	t.sayOnLine(hostEcho(req, ans))
	return ans, nil
}

func hostEcho(req HostRequest, a Answer) string {
	if !a.Approve {
		return "· network to " + render.Line(req.Target()) + " refused"
	}
	return "· network to " + render.Line(req.Target()) + " allowed " + string(a.Scope)
}

// AskHost files a network request in the pending channel, where wisp-bar
// or `wisp approvals` answers it, and waits. Silence until it expires is
// a refusal.
func (o *OutOfBand) AskHost(ctx context.Context, req HostRequest) (Answer, error) {
	command, reasons := pending.NetworkRequest(req.Host, req.Port, req.Line)
	scopes := make([]string, len(req.Scopes))
	for i, s := range req.Scopes {
		scopes[i] = string(s)
	}
	return o.fileAndWait(ctx, pending.Request{ID: req.ID, Kind: pending.KindNetwork, Command: command, Cwd: req.Dir,
		Level: pending.LevelModerate, Reasons: reasons, Scopes: scopes, Face: o.Face}, "network request")
}
