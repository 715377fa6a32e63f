package approval

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/pending"
)

// OutOfBand files the question in the pending channel, where wisp-bar or
// `wisp approvals` answers it from anywhere, and waits for the answer.
type OutOfBand struct {
	Channel *pending.Channel
	Face    string // chat, respond, mcp, run
	Audit   *audit.Logger
}

func (o *OutOfBand) Name() string      { return "pending" }
func (o *OutOfBand) AsksAPerson() bool { return true }

// Ask files the request and waits. Silence until it expires is a denial;
// a withdrawal (another face answered first, Ctrl-C) removes the files.
func (o *OutOfBand) Ask(ctx context.Context, req Request) (Answer, error) {
	return o.fileAndWait(ctx, o.pendingRequest(req), "request")
}

// fileAndWait files r, audits it as pending, and waits for its answer.
func (o *OutOfBand) fileAndWait(ctx context.Context, r pending.Request, what string) (Answer, error) {
	filed, err := o.Channel.File(ctx, r)
	if err != nil {
		return Answer{}, fmt.Errorf("file the %s in the pending channel: %w", what, err)
	}
	o.log(audit.ApprovalPending{ID: filed.Request.ID, Digest: pending.Digest(filed.Binding), Command: filed.Request.Command, File: filed.File,
		OutsideSandbox: filed.Request.OutsideSandbox, ExpiresAt: filed.Request.ExpiresAt})
	d, err := filed.Wait(ctx)
	switch {
	case errors.Is(err, pending.ErrExpired):
		return Answer{Approve: false, By: "pending", Reason: "expired"}, nil
	case err != nil && ctx.Err() != nil:
		return Answer{}, ctx.Err()
	case err != nil:
		return Answer{}, err
	}
	asked := d.Scope
	if d.DowngradedFrom != "" {
		asked = d.DowngradedFrom // the gate takes it as once and audits what was asked
	}
	base, prefix := strings.CutSuffix(asked, pending.PrefixSuffix)
	return Answer{Approve: d.Approved, Scope: Scope(base), Prefix: prefix, By: d.Answer.By}, nil
}

func (o *OutOfBand) pendingRequest(req Request) pending.Request {
	kind := pending.KindCommand
	switch {
	case req.OutsideSandbox:
		kind = pending.KindOutsideSandbox
	case req.Grant != "":
		kind = pending.KindAddDirectory
	}
	scopes := make([]string, len(req.Scopes))
	for i, s := range req.Scopes {
		scopes[i] = string(s)
	}
	reasons := req.Reasons
	if offersPrefix(req) && kind == pending.KindCommand {
		for _, s := range req.Scopes {
			if s != Once {
				scopes = append(scopes, string(s)+pending.PrefixSuffix)
			}
		}
		reasons = append(slices.Clone(reasons), pending.PrefixReason+strings.Join(req.Prefixes, ", "))
	}
	// The gate's id, so that its audit events name the request as
	// `wisp approvals pending` and wisp-bar show it.
	return pending.Request{
		ID: req.ID, Kind: kind, Command: req.Line, Cwd: req.Dir, OutsideSandbox: req.OutsideSandbox,
		Level: req.Level.String(), Reasons: reasons, Scopes: scopes, Face: o.Face,
	}
}

func (o *OutOfBand) log(e audit.Event) {
	if o.Audit != nil {
		_ = o.Audit.Log(e)
	}
}
