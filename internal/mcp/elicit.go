package mcp

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
)

// Elicitation asks the person through the MCP client that made the call,
// with an elicitation form (decision D19's MCP dialog). It asks only
// a client that declared form elicitation; any other cannot ask, and the
// gate says so (NoPersonWhy).
type Elicitation struct{}

var _ approval.Approver = Elicitation{}

// ElicitationName names this face in the audit (faces, by).
const ElicitationName = "mcp elicitation"

// The reasons of a "no" that was not a decline, told apart in the
// result and in approval.decided (docs/decisions.md, D19: decline and cancel differ).
const (
	DeclinedReason  = "the person declined it in the MCP client"
	CancelledReason = "the person dismissed the question in the MCP client without answering"
)

// NoElicitation says why an MCP client cannot ask; the gate's refusal for
// `wisp mcp` is built from it.
const NoElicitation = "this MCP client cannot ask a person (it does not support elicitation)"

func (Elicitation) Name() string      { return ElicitationName }
func (Elicitation) AsksAPerson() bool { return true }

// Ask puts the request to the client's person and waits. A withdrawn
// question (another face answered first, the call was cancelled, the
// client left) is cancelled at the client, and Ask returns ctx.Err().
func (Elicitation) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	return elicit(ctx, Dialog(req))
}

// elicit puts one form to the client's person and reads the answer.
func elicit(ctx context.Context, form *sdk.ElicitParams) (approval.Answer, error) {
	ss := sessionFrom(ctx)
	if ss == nil || !canElicit(ss) {
		return approval.Answer{}, fmt.Errorf("%w: %s", approval.ErrCannotAsk, NoElicitation)
	}
	res, err := ss.Elicit(ctx, form)
	if ctx.Err() != nil {
		return approval.Answer{}, ctx.Err()
	}
	if err != nil {
		// The client said it could ask and then failed: not a person's
		// answer. Another face may still answer; alone, nothing runs.
		return approval.Answer{}, fmt.Errorf("ask the person through the MCP client: %w", err)
	}
	return answer(res), nil
}

// canElicit reports whether the client declared form elicitation (an
// empty elicitation capability means form, for older clients).
func canElicit(ss *sdk.ServerSession) bool {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	caps := p.Capabilities.Elicitation
	return caps.Form != nil || caps.URL == nil
}

// answer reads the client's result. An accepted outside-sandbox request
// passes on any scope the client sent, so the gate takes it as once and
// audits what was asked (docs/decisions.md, D17).
func answer(res *sdk.ElicitResult) approval.Answer {
	switch res.Action {
	case "accept":
		scope, prefix := approval.Once, false
		if s, ok := res.Content["scope"].(string); ok {
			s, prefix = strings.CutSuffix(s, PrefixSuffix)
			if parsed, err := approval.ParseScope(s); err == nil {
				scope = parsed
			} else {
				prefix = false
			}
		}
		return approval.Answer{Approve: true, Scope: scope, Prefix: prefix && scope != approval.Once, By: ElicitationName}
	case "decline":
		return approval.Answer{By: ElicitationName, Reason: DeclinedReason}
	case "cancel":
		return approval.Answer{By: ElicitationName, Reason: CancelledReason}
	}
	return approval.Answer{By: ElicitationName,
		Reason: fmt.Sprintf("the MCP client answered %q, which is not accept, decline or cancel", res.Action)}
}

// Dialog is the elicitation for one request. An outside-sandbox request
// has no field (once is the only answer); another offers its scopes.
func Dialog(req approval.Request) *sdk.ElicitParams {
	return &sdk.ElicitParams{Mode: "form", Message: message(req), RequestedSchema: schema(req)}
}

// Title is the dialog's title, carried as the form schema's title. It
// is rendered on one line like the message's parts, whatever a level's
// name becomes.
func Title(req approval.Request) string {
	if req.Grant != "" {
		return render.Line("wisp: let commands write in " + req.Grant + " for this session?")
	}
	if req.OutsideSandbox {
		return render.Line(fmt.Sprintf("wisp: run OUTSIDE the sandbox? (%s risk)", req.Level))
	}
	return render.Line(fmt.Sprintf("wisp: run this command? (%s risk)", req.Level))
}

// message is the dialog's text. The command line, the folder and the
// reasons (add_directory's holds the model's words) are others' text:
// rendered on one line each, as every face shows them, so an escape
// sequence cannot hide what follows in a client that draws on a terminal,
// and a newline cannot forge an "in DIR" or a reason line.
func message(req approval.Request) string {
	var b strings.Builder
	if req.Grant != "" {
		return grantMessage(req)
	}
	if req.OutsideSandbox {
		b.WriteString("Command to run OUTSIDE the sandbox, this once:\n")
	} else {
		b.WriteString("Command to run:\n")
	}
	fmt.Fprintf(&b, "  %s\nin %s\n", render.Line(req.Line), render.Line(req.Dir))
	for _, r := range req.Reasons {
		fmt.Fprintf(&b, "· %s\n", render.Line(r))
	}
	b.WriteString("Only you can answer this: the agent that asked cannot. ")
	if req.OutsideSandbox {
		b.WriteString("Accept runs this line once, without the sandbox; decline refuses it. Never remembered: this run only.")
	} else {
		b.WriteString("Accept approves it for the scope you choose; decline refuses it.")
	}
	return b.String()
}

// grantMessage is add_directory's question in its own words: a folder
// opened for writing until the session ends, not a command run once.
func grantMessage(req approval.Request) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Let commands write in %s for this session?\n", render.Line(req.Grant))
	for _, r := range req.Reasons {
		fmt.Fprintf(&b, "· %s\n", render.Line(r))
	}
	b.WriteString("Only you can answer this: the agent that asked cannot. Accept lets every command of this wisp mcp write there until it ends; decline keeps the folder closed.")
	return b.String()
}

// formSchema is the restricted JSON schema of an elicitation form, its
// keys in a fixed order.
type formSchema struct {
	Type       string                `json:"type"`
	Title      string                `json:"title"`
	Properties map[string]scopeField `json:"properties"`
	Required   []string              `json:"required,omitempty"`
}

type scopeField struct {
	Type        string   `json:"type"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Enum        []string `json:"enum"`
	Default     string   `json:"default"`
}

func schema(req approval.Request) formSchema {
	s := formSchema{Type: "object", Title: Title(req), Properties: map[string]scopeField{}}
	// Outside the sandbox is once, and a grant lasts the session, whatever
	// a field would say: neither has one.
	if req.OutsideSandbox || req.Grant != "" || len(req.Scopes) == 0 {
		return s
	}
	var names, meanings []string
	for _, sc := range req.Scopes {
		names = append(names, string(sc))
		meanings = append(meanings, string(sc)+": "+scopeMeaning[sc])
	}
	if held := strings.Join(req.Prefixes, ", "); held != "" {
		for _, sc := range req.Scopes {
			if sc != approval.Once {
				names = append(names, string(sc)+PrefixSuffix)
				meanings = append(meanings, string(sc)+PrefixSuffix+": "+render.Line(held)+", "+prefixMeaning[sc])
			}
		}
	}
	s.askScope("Approve for", names, meanings)
	return s
}

// askScope adds the one field a form asks, the scope, with each name's
// meaning; the first name is the default.
func (s *formSchema) askScope(title string, names, meanings []string) {
	s.Properties["scope"] = scopeField{Type: "string", Title: title, Description: strings.Join(meanings, "; "),
		Enum: names, Default: names[0]}
	s.Required = []string{"scope"}
}

// PrefixSuffix marks a scope value of the form that holds the request's
// prefixes (session-prefix) in place of its exact line.
const PrefixSuffix = "-prefix"

var prefixMeaning = map[approval.Scope]string{
	approval.Session: "any such command, until this wisp mcp ends",
	approval.Project: "any such command, in this project, kept in approvals.json",
	approval.Always:  "any such command, anywhere, kept in approvals.json",
}

var scopeMeaning = map[approval.Scope]string{
	approval.Once:    "this run only",
	approval.Session: "this line, until this wisp mcp ends",
	approval.Project: "this line, in this project, kept in approvals.json",
	approval.Always:  "this line, anywhere, kept in approvals.json",
}
