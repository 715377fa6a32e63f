package chat

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

func TestParseInput(t *testing.T) {
	for _, tc := range []struct {
		line, err string
	}{
		{`{"type":"message","text":"hi"}`, ""},
		{`{"type":"command","command":"ls","outsideSandbox":true}`, ""},
		{`{"type":"approval","id":"1a","decision":"approve","scope":"once"}`, ""},
		{`{"type":"cancel"}`, ""},
		{`{"type":"approval","decision":"approve"}`, "needs the id"},
		{`{"type":"shout"}`, "not one of"},
		{`{"type":"message","txt":"hi"}`, "unknown field"},
		{`not json`, "not a JSON object"},
	} {
		_, err := ParseInput([]byte(tc.line))
		if (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseInput(%s) = %v, want %q", tc.line, err, tc.err)
		}
	}
}

// client drives RunJSON as a --json client would, through pipes.
type client struct {
	t      *testing.T
	in     *io.PipeWriter
	events chan agent.Event
	done   chan error
}

func startJSON(t *testing.T, w *agenttest.World, srv *modeltest.Server) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	face := NewJSONFace(outW)
	approver := &JSONApprover{Face: face}
	w.Tools.Runner.Gate = &approval.Gate{Threshold: "moderate", Held: approval.NewHeld(w.Home),
		Approvers: []approval.Approver{approver}, Project: w.Tools.Runner.Dir}
	c, err := model.New(agenttest.ConfigModel(srv), nil)
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(agent.Options{Model: c, Tools: w.Tools, Face: face})
	cl := &client{t: t, in: inW, events: make(chan agent.Event, 256), done: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var ev agent.Event
			if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
				t.Errorf("an output line is not an event: %s", sc.Bytes())
			}
			cl.events <- ev
		}
		close(cl.events)
	}()
	go func() {
		cl.done <- RunJSON(context.Background(), JSONOptions{Agent: a, Face: face, Approver: approver, In: inR})
		outW.Close()
	}()
	t.Cleanup(func() { inW.Close() })
	return cl
}

func (c *client) send(line string) {
	c.t.Helper()
	if _, err := fmt.Fprintln(c.in, line); err != nil {
		c.t.Fatal(err)
	}
}

// until reads events up to the first of type typ, which it returns.
func (c *client) until(typ string) (agent.Event, []agent.Event) {
	c.t.Helper()
	var seen []agent.Event
	timeout := time.After(30 * time.Second) // a hang guard, not a timed assertion
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				c.t.Fatalf("the output ended before a %s event; saw %+v", typ, seen)
			}
			seen = append(seen, ev)
			if ev.Type == typ {
				return ev, seen
			}
		case <-timeout:
			c.t.Fatalf("no %s event; saw %+v", typ, seen)
		}
	}
}

func TestJSONProtocolOutsideSandboxApprovedAndATypedCommand(t *testing.T) {
	w := agenttest.NewWorld(t, nil) // sandbox on, none to be had: an outside run is real
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("c1", `{"command":"echo upgraded","outsideSandbox":true}`)}},
		modeltest.Turn{Text: []string{"Done."}})
	c := startJSON(t, w, srv)
	c.until(agent.EventTurnEnd)
	c.send(`{"type":"message","text":"upgrade it"}`)
	ask, seen := c.until(agent.EventApproval)
	if !ask.OutsideSandbox || ask.Command != "echo upgraded" || fmt.Sprint(ask.Scopes) != "[once]" || ask.Level != "moderate" ||
		!strings.HasPrefix(ask.Reasons[0], "runs OUTSIDE the sandbox") {
		t.Errorf("approval event %+v", ask)
	}
	if call := seen[len(seen)-2]; call.Type != agent.EventToolCall || !call.OutsideSandbox {
		t.Errorf("before the question: %+v", call)
	}
	c.send(`{"type":"approval","id":"` + ask.ID + `","decision":"approve","scope":"always"}`)
	outcome, seen := c.until(agent.EventCommandOutcome)
	if !outcome.OutsideSandbox || outcome.ExitCode == nil || *outcome.ExitCode != 0 || outcome.Output != "upgraded\n" {
		t.Errorf("outcome %+v", outcome)
	}
	if !hasNote(seen, agent.LevelDanger, "run echo upgraded OUTSIDE THE SANDBOX, this once, in "+w.Tools.Runner.Dir) {
		t.Errorf("no OUTSIDE note before the run: %+v", seen)
	}
	msg, _ := c.until(agent.EventMessage)
	c.until(agent.EventTurnEnd)
	if msg.Text != "Done." {
		t.Errorf("message %+v", msg)
	}
	if res := agenttest.LastOf(srv.Requests()[1], model.RoleTool).Content; !strings.Contains(res, "sandbox: ran outside the sandbox, as the person approved, this once") {
		t.Errorf("the model read %q", res)
	}

	c.send(`{"type":"command","command":"echo typed","outsideSandbox":true}`)
	start, seen := c.until(agent.EventCommandStart)
	if !start.OutsideSandbox || !hasNote(seen, agent.LevelDanger, "! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can") {
		t.Errorf("typed !!: %+v", seen)
	}
	out, _ := c.until(agent.EventOutput)
	if out.Text != "typed\n" {
		t.Errorf("live output %+v", out)
	}
	c.until(agent.EventCommandOutcome)
	c.until(agent.EventTurnEnd)
	c.in.Close()
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
}

func TestJSONEndOfInputLeavesNoOneToAnswer(t *testing.T) {
	w := agenttest.NewWorld(t, nil)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("c1", `{"command":"echo x","outsideSandbox":true}`)}},
		modeltest.Turn{Text: []string{"ok"}})
	c := startJSON(t, w, srv)
	c.send(`{"type":"message","text":"go"}`)
	c.until(agent.EventApproval)
	c.in.Close()
	closed, _ := c.until(agent.EventApprovalClosed)
	outcome, _ := c.until(agent.EventCommandOutcome)
	if closed.Text != "the input ended" || !outcome.NotApproved || !strings.Contains(outcome.Text, "no one can be asked here") {
		t.Errorf("closed %+v, outcome %+v", closed, outcome)
	}
	if err := <-c.done; err != nil {
		t.Fatal(err)
	}
}

func TestJSONCancelAndBadLines(t *testing.T) {
	w := agenttest.NewWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"thinking"}, Hang: true}, modeltest.Turn{Text: []string{"back"}})
	c := startJSON(t, w, srv)
	c.send(`{"type":"nonsense"}`)
	if bad, _ := c.until(agent.EventError); !strings.Contains(bad.Text, "not one of") {
		t.Errorf("error %+v", bad)
	}
	c.send(`{"type":"approval","id":"0000000000000000","decision":"approve"}`)
	if bad, _ := c.until(agent.EventError); !strings.Contains(bad.Text, "no question") {
		t.Errorf("error %+v", bad)
	}
	c.send(`{"type":"message","text":"think"}`)
	c.until(agent.EventText)
	c.send(`{"type":"cancel"}`)
	_, seen := c.until(agent.EventTurnEnd)
	if !hasNote(seen, agent.LevelInfo, "· stopped") {
		t.Errorf("no stop: %+v", seen)
	}
	c.send(`{"type":"message","text":"again"}`)
	if msg, _ := c.until(agent.EventMessage); msg.Text != "back" {
		t.Errorf("after the stop: %+v", msg)
	}
}

func hasNote(events []agent.Event, level, text string) bool {
	for _, ev := range events {
		if ev.Type == agent.EventNote && ev.Level == level && ev.Text == text {
			return true
		}
	}
	return false
}
