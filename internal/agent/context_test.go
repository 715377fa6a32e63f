package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// windowFor is the model.contextTokens that leaves room tokens for the
// history in a request of a.
func windowFor(a *Agent, room int) int {
	for window := room; ; window += 8 {
		a.o.ContextTokens = window
		if a.budget(SystemPromptWith(a.o.Tools, *a.o.Instructions), a.toolList()) >= room {
			return window
		}
	}
}

// Over the bound, the oldest command output is shortened first, its id
// kept; then the oldest turns are summarised by the model into one note,
// the newest turn kept whole; the thread keeps every message.
func TestContextShortensOutputsThenSummarises(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("call_1", `{"command":"seq 1 1000"}`)}},
		modeltest.Turn{Text: []string{"Counted."}},
		modeltest.Turn{Text: []string{strings.Repeat("long answer ", 125)}},
		modeltest.Turn{Text: []string{"THE SUMMARY"}},
		modeltest.Turn{Text: []string{"Third done."}})
	a, th := w.agent(t, srv)
	windowFor(a, 900)
	ctx := context.Background()
	a.Send(ctx, "first: count")
	a.Send(ctx, "second")
	reqs := srv.Requests()
	if res := agenttest.LastOf(reqs[2], model.RoleTool); !strings.Contains(res.Content, "[shortened by wisp to fit the model's context; "+
		"the whole output: inspect what=output id=") || len(res.Content) > 500 {
		t.Errorf("the old output reached the model as %q", res.Content)
	}
	if !strings.Contains(w.face.said(), "· the conversation was compacted: 1 of the oldest command outputs were shortened") {
		t.Errorf("no note of the shortening:\n%s", w.face.said())
	}
	third := strings.Repeat("third words ", 100)
	a.Send(ctx, third)
	reqs = srv.Requests()
	summary, next := reqs[3], reqs[4]
	if len(summary.Tools) != 0 || !strings.Contains(agenttest.LastOf(summary, model.RoleUser).Content, "first: count") {
		t.Errorf("the summary request: %+v", summary.Messages)
	}
	if len(next.Messages) != 2 || !strings.Contains(next.Messages[1].Content, "THE SUMMARY") ||
		!strings.HasSuffix(next.Messages[1].Content, third) || strings.Contains(next.Messages[1].Content, "first: count") {
		t.Errorf("after the summary the model read %+v", next.Messages)
	}
	if !strings.Contains(w.face.said(), "the 6 oldest messages were summarised by the model into one note; the thread keeps everything") {
		t.Errorf("no note of the summary:\n%s", w.face.said())
	}
	var users []string
	for _, r := range w.records(t, th) {
		if r.Kind == RecordUser {
			users = append(users, r.Text)
		}
	}
	if len(users) != 3 || users[0] != "first: count" {
		t.Errorf("the thread lost messages: %q", users)
	}
	if h := HistoryOf(w.records(t, th)); len(h) != 8 || !strings.Contains(h[2].Content, "1000") {
		t.Errorf("read back, the thread gives %d messages", len(h))
	}
}

// /compact summarises every turn but the newest, whatever the bound.
func TestCompactOnDemand(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"One."}}, modeltest.Turn{Text: []string{"Two."}},
		modeltest.Turn{Text: []string{"S."}}, modeltest.Turn{Text: []string{"Three."}})
	a, _ := w.agent(t, srv)
	ctx := context.Background()
	if a.Compact(ctx) {
		t.Error("compacted an empty conversation")
	}
	a.Send(ctx, "one")
	a.Send(ctx, "two")
	if !a.Compact(ctx) {
		t.Fatal("nothing compacted")
	}
	a.Send(ctx, "three")
	msgs := srv.Requests()[3].Messages
	if len(msgs) != 4 || !strings.Contains(msgs[1].Content, "S.") || msgs[1].Content == "one" || msgs[2].Content != "Two." {
		t.Errorf("after /compact the model read %+v", msgs)
	}
}
