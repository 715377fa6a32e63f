package chat

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/approval"
)

// JSONFace writes each event as one JSON object on its own line.
type JSONFace struct {
	mu  sync.Mutex
	enc *json.Encoder
}

// NewJSONFace writes to w.
func NewJSONFace(w io.Writer) *JSONFace {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &JSONFace{enc: enc}
}

// Emit writes one line. A write that fails (the reader went away) is
// dropped: there is no one left to tell.
func (f *JSONFace) Emit(ev agent.Event) {
	if ev.Type == agent.EventWaiting {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	_ = f.enc.Encode(ev)
}

// JSONApprover asks over --json: it writes an approval event and waits
// for the approval input with the same id. It asks a person (the client
// shows the question), so it may answer a run outside the sandbox.
type JSONApprover struct {
	Face    agent.Face
	mu      sync.Mutex
	waiting map[string]*question
	closed  bool
}

type question struct {
	req     approval.Request
	answers chan approval.Answer
}

var _ approval.Approver = (*JSONApprover)(nil)

func (j *JSONApprover) Name() string      { return "json" }
func (j *JSONApprover) AsksAPerson() bool { return true }

// Ask writes the question and waits for its answer, the end of the
// input (no one left to answer), or its withdrawal (another face answered
// first, or the turn was stopped), which it reports as approvalClosed.
func (j *JSONApprover) Ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	q := &question{req: req, answers: make(chan approval.Answer, 1)}
	if !j.register(q) {
		return approval.Answer{}, fmt.Errorf("the --json input has ended: %w", approval.ErrCannotAsk)
	}
	defer j.unregister(req.ID)
	j.Face.Emit(approvalEvent(req))
	select {
	case ans, ok := <-q.answers:
		if !ok {
			j.Face.Emit(agent.Event{Type: agent.EventApprovalClosed, ID: req.ID, Text: "the input ended"})
			return approval.Answer{}, fmt.Errorf("the --json input has ended: %w", approval.ErrCannotAsk)
		}
		j.Face.Emit(agent.Event{Type: agent.EventApprovalClosed, ID: req.ID, Text: "answered"})
		return ans, nil
	case <-ctx.Done():
		text := "withdrawn"
		if a, ok := approval.AnsweredElsewhere(ctx); ok {
			text = "answered elsewhere: " + approval.Describe(a)
		}
		j.Face.Emit(agent.Event{Type: agent.EventApprovalClosed, ID: req.ID, Text: text})
		return approval.Answer{}, ctx.Err()
	}
}

func (j *JSONApprover) register(q *question) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.closed {
		return false
	}
	if j.waiting == nil {
		j.waiting = map[string]*question{}
	}
	j.waiting[q.req.ID] = q
	return true
}

func (j *JSONApprover) unregister(id string) {
	j.mu.Lock()
	delete(j.waiting, id)
	j.mu.Unlock()
}

// Answer delivers the client's answer to the question id. The scope must
// be one the question offered; for a run outside the sandbox any scope is
// passed on, and the gate takes it as once and audits what was asked.
func (j *JSONApprover) Answer(id, decision, scope string) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	q := j.waiting[id]
	if q == nil {
		return fmt.Errorf("no question %q is waiting for an answer", id)
	}
	ans, err := answerOf(q.req, decision, scope)
	if err != nil {
		return err
	}
	delete(j.waiting, id)
	q.answers <- ans
	return nil
}

func answerOf(req approval.Request, decision, scope string) (approval.Answer, error) {
	switch decision {
	case "deny":
		return approval.Answer{Approve: false, By: "json"}, nil
	case "approve":
	default:
		return approval.Answer{}, fmt.Errorf("decision must be approve or deny, not %q", decision)
	}
	if scope == "" {
		scope = string(approval.Once)
	}
	s, err := approval.ParseScope(scope)
	if err != nil {
		return approval.Answer{}, err
	}
	if !req.OutsideSandbox && !offered(req.Scopes, s) {
		return approval.Answer{}, fmt.Errorf("scope %s is not offered for this question; it offers %v", s, req.Scopes)
	}
	return approval.Answer{Approve: true, Scope: s, By: "json"}, nil
}

func offered(scopes []approval.Scope, s approval.Scope) bool {
	for _, o := range scopes {
		if o == s {
			return true
		}
	}
	return false
}

// Close says the input has ended: waiting questions and later ones drop
// out, leaving the other faces (out of band) to answer.
func (j *JSONApprover) Close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.closed = true
	for id, q := range j.waiting {
		close(q.answers)
		delete(j.waiting, id)
	}
}

// approvalEvent is the question a face that asks shows.
func approvalEvent(req approval.Request) agent.Event {
	scopes := make([]string, len(req.Scopes))
	for i, s := range req.Scopes {
		scopes[i] = string(s)
	}
	return agent.Event{Type: agent.EventApproval, ID: req.ID, Command: req.Line, Dir: req.Dir,
		OutsideSandbox: req.OutsideSandbox, Level: req.Level.String(), Reasons: req.Reasons, Scopes: scopes}
}
