package chat

import (
	"context"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/approval"
)

// An answer sent before its question was asked answers nothing: it must
// name a question that waits. A question another face answered says what
// the answer was and who gave it.
func TestJSONAnswersOnlyTheQuestionAsked(t *testing.T) {
	rec := &agenttest.Recorder[agent.Event]{}
	j := &JSONApprover{Face: rec}
	if err := j.Answer("req-1", "approve", "once"); err == nil {
		t.Error("an answer before the question was taken")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	asked := make(chan struct{})
	rec.OnEmit = func(ev agent.Event) {
		if ev.Type == agent.EventApproval {
			close(asked)
		}
	}
	done := make(chan error)
	go func() {
		_, err := j.Ask(ctx, approval.Request{ID: "req-1", Line: "rm -r x", OutsideSandbox: true, Scopes: []approval.Scope{approval.Once}})
		done <- err
	}()
	<-asked
	if err := j.Answer("req-2", "approve", "once"); err == nil {
		t.Error("an answer naming another id was taken")
	}
	cancel(approval.Answered{Answer: approval.Answer{Approve: false, By: "wisp-bar"}})
	if err := <-done; err == nil {
		t.Error("the withdrawn question returned an answer")
	}
	closed := rec.Where(func(ev agent.Event) bool { return ev.Type == agent.EventApprovalClosed })
	if len(closed) != 1 || closed[0].Text != "answered elsewhere: denied by wisp-bar" {
		t.Errorf("approvalClosed %+v", closed)
	}
}
