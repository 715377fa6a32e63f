package agent

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/runner"
)

func TestToolCallRunsAndItsResultReachesTheModel(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{"Let me ", "look."}, ToolCalls: []modeltest.ToolCallScript{
			agenttest.RunCall("call_1", `{"comm`, `and": "echo hel`, `lo"}`)}},
		modeltest.Turn{Text: []string{"It said ", "hello."}})
	a, th := w.agent(t, srv)
	if err := a.Send(context.Background(), "say hello"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if reqs[0].Messages[0].Role != model.RoleSystem || !strings.Contains(reqs[0].Messages[0].Content, "run_command") {
		t.Errorf("the first message is not the system prompt: %+v", reqs[0].Messages[0])
	}
	result := agenttest.LastOf(reqs[1], model.RoleTool)
	if result.ToolCallID != "call_1" || !strings.Contains(result.Content, "hello\n[exit status 0]") {
		t.Errorf("the model read %+v", result)
	}
	calls := w.face.of(EventToolCall)
	if len(calls) != 1 || calls[0].Command != "echo hello" {
		t.Errorf("tool call events %+v", calls)
	}
	if out := w.face.of(EventCommandOutcome); len(out) != 1 || out[0].ExitCode == nil || *out[0].ExitCode != 0 || out[0].Origin != "model" {
		t.Errorf("outcome events %+v", out)
	}
	var kinds []string
	for _, r := range w.records(t, th) {
		kinds = append(kinds, r.Kind)
	}
	if got := strings.Join(kinds, " "); got != "start user assistant tool assistant" {
		t.Errorf("thread records %s", got)
	}
}

func TestMalformedToolCallIsAnsweredAndNotRun(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("call_1", `{"command": "touch made`)}},
		modeltest.Turn{Text: []string{"Sorry."}})
	a, _ := w.agent(t, srv)
	a.Send(context.Background(), "make a file")
	second := srv.Requests()[1]
	if res := agenttest.LastOf(second, model.RoleTool); !strings.Contains(res.Content, "was not run") || !strings.Contains(res.Content, "not a JSON object") {
		t.Errorf("the model read %q", res.Content)
	}
	if call := agenttest.LastOf(second, model.RoleAssistant).ToolCalls[0]; call.Arguments != "{}" {
		t.Errorf("the malformed arguments went back to the server: %q", call.Arguments)
	}
	if len(w.face.of(EventCommandOutcome)) != 0 {
		t.Error("a malformed call ran")
	}
}

func TestModelFailuresAreSaidAndTheChatGoesOn(t *testing.T) {
	down := modeltest.NewServer(t)
	down.Close()
	for _, tc := range []struct {
		name     string
		turn     *modeltest.Turn // nil: the server is down
		said     string
		kind     error
		keptText string
	}{
		{name: "server down", said: "ollama serve", kind: model.ErrServerDown},
		{name: "model missing", turn: &modeltest.Turn{ModelMissing: true}, said: "ollama pull granite4.1:8b", kind: model.ErrModelMissing},
		{name: "cut off", turn: &modeltest.Turn{Text: []string{"half an"}, CutOff: true}, said: "cut off", kind: model.ErrCutOff, keptText: "half an"},
		{name: "stream error", turn: &modeltest.Turn{StreamError: "out of memory"}, said: "out of memory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, agenttest.SandboxOff)
			srv := down
			if tc.turn != nil {
				srv = modeltest.NewServer(t, *tc.turn)
			}
			a, th := w.agent(t, srv)
			err := a.Send(context.Background(), "hello")
			if err == nil || (tc.kind != nil && !errors.Is(err, tc.kind)) {
				t.Fatalf("Send = %v, want %v", err, tc.kind)
			}
			if errs := w.face.of(EventError); len(errs) != 1 || !strings.Contains(errs[0].Text, tc.said) {
				t.Errorf("error events %+v, want one saying %q", errs, tc.said)
			}
			h := a.History()
			if tc.keptText == "" && len(h) != 0 {
				t.Errorf("the unanswered message stayed for the model: %+v", h)
			}
			if tc.keptText != "" && (len(h) != 2 || h[1].Content != tc.keptText) {
				t.Errorf("history %+v, want the message and the words that came", h)
			}
			if again := HistoryOf(w.records(t, th)); len(again) != len(h) {
				t.Errorf("the thread reads back as %d messages, the agent holds %d", len(again), len(h))
			}
		})
	}
}

func TestStopDuringTheModelsAnswer(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"thinking"}, Hang: true})
	ctx, cancel := context.WithCancel(context.Background())
	w.face.OnEmit = func(ev Event) {
		if ev.Type == EventText {
			cancel() // the person presses Ctrl-C once words arrive
		}
	}
	a, _ := w.agent(t, srv)
	if err := a.Send(ctx, "go"); !errors.Is(err, context.Canceled) {
		t.Fatalf("Send = %v, want the stop", err)
	}
	if !strings.Contains(w.face.said(), "· stopped") {
		t.Errorf("said %q", w.face.said())
	}
	if h := a.History(); len(h) != 2 || h[1].Content != "thinking" {
		t.Errorf("history %+v", h)
	}
}

func TestStopDuringAToolCallAnswersEveryCall(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
		agenttest.RunCall("a", `{"command": "sleep 30"}`), agenttest.RunCall("b", `{"command": "echo never"}`)}})
	ctx, cancel := context.WithCancel(context.Background())
	w.face.OnEmit = func(ev Event) {
		if ev.Type == EventToolCall && ev.ID == "a" {
			cancel()
		}
	}
	a, _ := w.agent(t, srv)
	a.Send(ctx, "go")
	h := a.History()
	if len(h) != 4 || h[2].Content != interruptedResult || h[3].Content != interruptedResult {
		t.Fatalf("history %+v", h)
	}
}

func TestTypedCommandsAreToldToTheModel(t *testing.T) {
	w := newWorld(t, nil) // the sandbox on, none to be had: ! fails closed, !! runs outside
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"I see."}})
	a, th := w.agent(t, srv)
	ctx := context.Background()
	if err := a.RunTyped(ctx, Typed{Command: "echo from-outside", OutsideSandbox: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.RunTyped(ctx, Typed{Command: "echo confined"}); err != nil {
		t.Fatal(err)
	}
	a.Send(ctx, "what did I run?")
	user := agenttest.LastOf(srv.Requests()[0], model.RoleUser).Content
	for _, want := range []string{
		"The person ran a command themselves, outside the sandbox, in " + w.tb.Runner.Dir,
		"$ echo from-outside\nfrom-outside\n[exit status 0]\nsandbox: ran outside the sandbox, as the person typed it",
		"The person typed a command to run themselves, in the sandbox, in " + w.tb.Runner.Dir + "; it did not run.",
		"what did I run?",
	} {
		if !strings.Contains(user, want) {
			t.Errorf("the model's notice lacks %q:\n%s", want, user)
		}
	}
	var typed []*PersonCommand
	for _, r := range w.records(t, th) {
		if r.Kind == RecordPersonCommand {
			typed = append(typed, r.PersonCommand)
		}
	}
	if len(typed) != 2 || !typed[0].OutsideSandbox || typed[1].OutsideSandbox {
		t.Fatalf("records %+v", typed)
	}
}

func TestBangBangMarksTheRunBeforeItStarts(t *testing.T) {
	w := newWorld(t, nil)
	a, _ := w.agent(t, nil)
	a.RunTyped(context.Background(), Typed{Command: "echo out", OutsideSandbox: true})
	var order []string
	for _, ev := range w.face.Events() {
		order = append(order, ev.Type+":"+ev.Text)
	}
	if len(order) < 2 || order[0] != "note:"+runner.OutsideTypedNote || order[1] != "commandStart:" {
		t.Fatalf("events %v", order)
	}
	if w.face.Events()[0].Level != LevelDanger {
		t.Errorf("the OUTSIDE note is not in the danger level: %+v", w.face.Events()[0])
	}
}

func TestBangBangWhereItCannotLeaveTheSandbox(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(*config.Config)
		note   string
	}{
		{"switch off", func(c *config.Config) { c.CommandPolicy.Sandbox.AllowOutsideSandbox = false },
			"· blocked by policy: running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); type it after a single ! to run it in the sandbox"},
		{"sandbox off", agenttest.SandboxOff, "· !! changes nothing here: the sandbox is off, so every command runs without it"},
		{"deny list", func(c *config.Config) { c.CommandPolicy.Deny = []string{"^echo"} }, "· blocked by policy: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.mutate)
			a, _ := w.agent(t, nil)
			a.RunTyped(context.Background(), Typed{Command: "echo x", OutsideSandbox: true})
			out := w.face.of(EventCommandOutcome)
			if len(out) != 1 || !strings.Contains(strings.Join(out[0].Notes, "\n"), tc.note) {
				t.Errorf("outcome %+v, want the note %q", out, tc.note)
			}
			if strings.Contains(w.face.said(), runner.OutsideTypedNote) {
				t.Error("marked as running outside the sandbox, which it does not")
			}
		})
	}
}

func TestBareMarksRunNothing(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.agent(t, nil)
	for _, line := range []string{"!", "!!"} {
		typed, _ := ParseTyped(line)
		a.RunTyped(context.Background(), typed)
	}
	if n := len(w.face.of(EventCommandStart)); n != 0 || len(a.History()) != 0 {
		t.Errorf("%d commands started; history %+v", n, a.History())
	}
	if !strings.Contains(w.face.said(), nothingToRun) {
		t.Errorf("said %q", w.face.said())
	}
}

func TestTheModelIsStoppedAfterMaxSteps(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	loop := modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{{Name: "inspect", Arguments: []string{`{"what":"limits"}`}}}}
	srv := modeltest.NewServer(t, loop, loop)
	a, _ := w.agent(t, srv)
	a.o.MaxSteps = 2
	a.Send(context.Background(), "loop")
	if !strings.Contains(w.face.said(), "called tools 2 times") || srv.Remaining() != 0 {
		t.Errorf("said %q", w.face.said())
	}
}

func TestNoModelStillSaysSo(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.agent(t, nil)
	if err := a.Send(context.Background(), "hi"); err == nil || !strings.Contains(w.face.said(), "no model in this test") {
		t.Errorf("Send = %v; said %q", err, w.face.said())
	}
}
