package mcp

import (
	"context"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
)

var _ approval.HostApprover = Elicitation{}

// AskHost asks the client's person whether a confined command may reach
// a host in neither domain list, while its connection waits: the same
// form as a command's, in the host's words.
func (Elicitation) AskHost(ctx context.Context, req approval.HostRequest) (approval.Answer, error) {
	ans, err := elicit(ctx, HostDialog(req))
	ans.Prefix = false // a host has no prefix
	return ans, err
}

// HostDialog is the elicitation for one host.
func HostDialog(req approval.HostRequest) *sdk.ElicitParams {
	title := render.Line("wisp: allow network to " + req.Target() + "?")
	msg := fmt.Sprintf("allow network to %s? asked by: %s\nOnly you can answer this: the agent that asked cannot. "+
		"Accept lets the command reach this host for the scope you choose; decline refuses the connection.",
		render.Line(req.Target()), render.Line(req.Line))
	s := formSchema{Type: "object", Title: title, Properties: map[string]scopeField{}}
	var names, meanings []string
	for _, sc := range req.Scopes {
		names = append(names, string(sc))
		meanings = append(meanings, string(sc)+": "+hostScopeMeaning[sc])
	}
	if len(names) > 0 {
		s.askScope("Allow for", names, meanings)
	}
	return &sdk.ElicitParams{Mode: "form", Message: msg, RequestedSchema: s}
}

var hostScopeMeaning = map[approval.Scope]string{
	approval.Once:    "this command's connections to the host",
	approval.Session: "this host, until this wisp mcp ends",
	approval.Project: "this host, in this project, kept in approvals.json",
	approval.Always:  "this host, anywhere, kept in approvals.json",
}
