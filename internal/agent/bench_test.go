package agent

import (
	"context"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// What one turn of the agent costs over the model client's own request,
// both against the scripted server: the system prompt rebuilt, the
// history wired, the thread record written and synced, the events.
// Compare BenchmarkAgentTurn with BenchmarkStreamAlone of the same run.

var benchTurn = modeltest.Turn{Text: []string{"It ", "is ", "done."}}

func BenchmarkStreamAlone(b *testing.B) {
	w := newWorld(b, agenttest.SandboxOff)
	srv := modeltest.NewServer(b)
	c, _ := model.New(agenttest.ConfigModel(srv), nil)
	a, _ := w.agent(b, srv)
	msgs := wire(SystemPrompt(w.tb), []model.Message{{Role: model.RoleUser, Content: "go"}})
	tools := a.toolList()
	for b.Loop() {
		srv.Append(benchTurn)
		if _, err := c.Stream(context.Background(), msgs, tools, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAgentTurn(b *testing.B) {
	w := newWorld(b, agenttest.SandboxOff)
	srv := modeltest.NewServer(b)
	a, _ := w.agent(b, srv)
	for b.Loop() {
		srv.Append(benchTurn)
		a.history = a.history[:0] // the same conversation each time
		if err := a.Send(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAgentTurnUnrecorded(b *testing.B) {
	w := newWorld(b, agenttest.SandboxOff)
	srv := modeltest.NewServer(b)
	a, _ := w.agent(b, srv)
	a.o.Thread = nil // what the thread's synced appends cost, by difference
	for b.Loop() {
		srv.Append(benchTurn)
		a.history = a.history[:0]
		if err := a.Send(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
	}
}

// From the person's Enter (Send called) to the spinner's event, which is
// the face's cue to draw it: the turn begun, the message recorded and
// synced, the context measured against the bound, the prompt built.
// Reported as ns/enter-to-spinner; the model answers at once.
func BenchmarkEnterToSpinner(b *testing.B) {
	w := newWorld(b, agenttest.SandboxOff)
	srv := modeltest.NewServer(b)
	a, _ := w.agent(b, srv)
	var start, total time.Duration
	var spun bool
	t0 := time.Now()
	w.face.OnEmit = func(ev Event) {
		if ev.Type == EventWaiting && !spun {
			spun = true
			total += time.Since(t0) - start
		}
	}
	n := 0
	for b.Loop() {
		srv.Append(benchTurn)
		a.history = a.history[:0]
		spun, start = false, time.Since(t0)
		if err := a.Send(context.Background(), "go"); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(n), "ns/enter-to-spinner")
}
