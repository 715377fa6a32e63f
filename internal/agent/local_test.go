package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// The agent against local models' ways (issue 27), each against the
// bytes a real server sends (the replay corpus) or the scripted server.

// replayAgent is an agent talking to a replay of the corpus case name.
func (w *world) replayAgent(t *testing.T, name string) (*Agent, *modeltest.ReplayServer) {
	t.Helper()
	path := filepath.Join("..", "model", "modeltest", "testdata", "replay", name+".txt")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := modeltest.ParseCase(name, data)
	if err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewReplayServer(t, c)
	client, err := model.New(config.Model{Name: c.Get("model"), BaseURL: srv.URL()}, nil, model.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := w.agent(t, nil)
	a.SetModel(client)
	return a, srv
}

func TestThinkingIsShownApartAndNeverSentBack(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.replayAgent(t, "ollama/reasoning-inline-think")
	if err := a.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if len(w.face.of(EventReasoning)) == 0 {
		t.Error("no reasoning event")
	}
	for _, ev := range append(w.face.of(EventText), w.face.of(EventMessage)...) {
		if strings.Contains(ev.Text, "<think>") || strings.Contains(ev.Text, "</think>") {
			t.Errorf("the thinking came as the answer: %q", ev.Text)
		}
	}
	for _, m := range a.History() {
		if m.Role == model.RoleAssistant && strings.Contains(m.Content, "think") {
			t.Errorf("the history keeps the thinking: %q", m.Content)
		}
	}
}

func TestAnEmptyAnswerIsSaidAndEndsTheTurn(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.replayAgent(t, "ollama/think-only-empty")
	err := a.Send(context.Background(), "hi")
	if !errors.Is(err, model.ErrEmptyAnswer) {
		t.Fatalf("Send = %v, want ErrEmptyAnswer", err)
	}
	notes := w.face.of(EventNote)
	if len(notes) != 1 || notes[0].Text != "· the model thought but answered nothing" || len(notes[0].Hints) == 0 {
		t.Errorf("notes %+v", notes)
	}
	if len(a.History()) != 0 {
		t.Errorf("the unanswered message stays in the history: %+v", a.History())
	}
}

func TestToolsRefusedSaysWhatToDoAndToolsOffGoesOn(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t,
		modeltest.Turn{Status: 400, ErrorBody: `{"error":{"message":"registry.ollama.ai/library/gemma3:4b does not support tools","type":"invalid_request_error","param":null,"code":null}}`},
		modeltest.Turn{Text: []string{"Hello."}})
	a, _ := w.agent(t, srv)
	err := a.Send(context.Background(), "hi")
	if !errors.Is(err, model.ErrToolsUnsupported) || !a.ToolsRefused() {
		t.Fatalf("Send = %v", err)
	}
	errs := w.face.of(EventError)
	if len(errs) != 1 || !strings.Contains(strings.Join(errs[0].Hints, "\n"), "/tools off") ||
		!strings.Contains(strings.Join(errs[0].Hints, "\n"), "/model NAME") {
		t.Errorf("errors %+v", errs)
	}
	a.SetToolsOff(true)
	if err := a.Send(context.Background(), "hi"); err != nil {
		t.Fatal(err)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || len(reqs[1].Tools) != 0 {
		t.Errorf("the second request offered tools: %+v", reqs[len(reqs)-1].Tools)
	}
}

func TestACallWrittenAsTextRunsThroughTheGateAndIsAudited(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	w.tb.Runner.Audit = audit.New(w.home, "s", 1, nil)
	t.Cleanup(func() { w.tb.Runner.Audit.Close() })
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{`{"name": "run_command", "arguments": {"command": "echo from-text"}}`}},
		modeltest.Turn{Text: []string{"Done."}})
	a, _ := w.agent(t, srv)
	if err := a.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	calls := w.face.of(EventToolCall)
	if len(calls) != 1 || !calls[0].FromText || calls[0].Command != "echo from-text" {
		t.Fatalf("calls %+v", calls)
	}
	if out := w.face.of(EventCommandOutcome); len(out) != 1 || !strings.Contains(out[0].Output, "from-text") {
		t.Errorf("outcomes %+v", out)
	}
	log, _ := os.ReadFile(w.home.AuditFile())
	for _, want := range []string{`"event":"toolCall.fromText"`, `"event":"policy.decision"`, `"command":"echo from-text"`} {
		if !strings.Contains(string(log), want) {
			t.Errorf("the audit log has no %s:\n%s", want, log)
		}
	}
}

func TestProseThatMentionsACallRunsNothing(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{`You could run {"name": "run_command", "arguments": {"command": "rm -rf x"}} yourself.`}})
	a, _ := w.agent(t, srv)
	if err := a.Send(context.Background(), "go"); err != nil {
		t.Fatal(err)
	}
	if calls := w.face.of(EventToolCall); len(calls) != 0 {
		t.Errorf("prose ran as a call: %+v", calls)
	}
}

func TestAnswerCutAtTheOutputLimitIsSaid(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"The first half of"}, FinishReason: "length"})
	a, _ := w.agent(t, srv)
	err := a.Send(context.Background(), "go")
	if !errors.Is(err, model.ErrLength) {
		t.Fatalf("Send = %v, want ErrLength", err)
	}
	if !strings.Contains(w.face.said(), "· the model hit its output limit in the middle of its answer") {
		t.Errorf("said:\n%s", w.face.said())
	}
	if h := a.History(); len(h) != 2 || h[1].Content != "The first half of" {
		t.Errorf("the history %+v", h)
	}
}

func TestARepeatingLineIsStoppedAndNotKept(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.replayAgent(t, "ollama/repeating-line")
	err := a.Send(context.Background(), "list the files")
	if !errors.Is(err, model.ErrRepeating) {
		t.Fatalf("Send = %v, want ErrRepeating", err)
	}
	if !strings.Contains(w.face.said(), `repeated the line "- main.go" 16 times`) {
		t.Errorf("said:\n%s", w.face.said())
	}
	for _, m := range a.History() {
		if strings.Contains(m.Content, "main.go") {
			t.Errorf("the loop is kept for the model to read again: %q", m.Content)
		}
	}
}

func TestTheSameCallAgainAndAgainIsStoppedAtTheThird(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	same := modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("c", `{"command": "echo again"}`)}}
	srv := modeltest.NewServer(t, same, same, same, same)
	a, _ := w.agent(t, srv)
	err := a.Send(context.Background(), "go")
	if !errors.Is(err, model.ErrRepeating) {
		t.Fatalf("Send = %v, want ErrRepeating", err)
	}
	if n := len(w.face.of(EventCommandOutcome)); n != 2 {
		t.Errorf("the command ran %d times, want 2 (the third ask is stopped)", n)
	}
	if len(srv.Requests()) != 3 {
		t.Errorf("%d requests, want 3", len(srv.Requests()))
	}
	if !strings.Contains(w.face.said(), `the same call (run_command "echo again") 3 times in a row`) {
		t.Errorf("said:\n%s", w.face.said())
	}
	h := a.History()
	if last := h[len(h)-1]; last.Role != model.RoleTool || !strings.Contains(last.Content, "not run") {
		t.Errorf("the stopped call is not answered: %+v", last)
	}
}

func TestATruncatedPromptIsSaidAndPlannedFor(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	a, _ := w.replayAgent(t, "ollama/prompt-truncated-usage")
	if err := a.Send(context.Background(), strings.Repeat("a long history. ", 2300)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.face.said(), "· the model server read only 4096 of about") {
		t.Errorf("said:\n%s", w.face.said())
	}
	if a.window() != 4096 {
		t.Errorf("planned for %d tokens after the server read 4096", a.window())
	}
}

func TestAFullContextIsCompactedAndAskedAgainOnce(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	full := modeltest.Turn{Status: 400, ErrorBody: `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":5000,"n_ctx":4096}}`}
	srv := modeltest.NewServer(t, full, modeltest.Turn{Text: []string{"Fits now."}})
	a, _ := w.agent(t, srv)
	a.o.ContextTokens = 6000
	a.history = []model.Message{
		{Role: model.RoleUser, Content: "show the log"},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"cat log"}`}}},
		{Role: model.RoleTool, ToolCallID: "c1", Content: strings.Repeat("log line\n", 900)},
		{Role: model.RoleAssistant, Content: "It is long."},
	}
	if err := a.Send(context.Background(), "and now?"); err != nil {
		t.Fatalf("Send = %v\nsaid:\n%s", err, w.face.said())
	}
	said := w.face.said()
	if !strings.Contains(said, "wisp compacts the conversation and asks again") || !strings.Contains(said, "compacted") {
		t.Errorf("said:\n%s", said)
	}
	if reqs := srv.Requests(); len(reqs) != 2 || len(agenttest.LastOf(reqs[1], model.RoleTool).Content) >= 900*9 {
		t.Errorf("asked again with the output whole, or not at all: %d requests", len(reqs))
	}
}

// info is a model that says its context, as Ollama's /api/show does.
type info struct {
	Streamer
	model.ModelInfo
}

func (i info) Info(context.Context) (model.ModelInfo, error) { return i.ModelInfo, nil }

func TestTheContextIsAskedOfTheServerUnlessSet(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"a"}}, modeltest.Turn{Text: []string{"b"}})
	a, _ := w.agent(t, srv)
	a.SetModel(info{Streamer: a.Model(), ModelInfo: model.ModelInfo{NumCtx: 16384, ContextLength: 40960, Capabilities: []string{"tools"}}})
	a.Send(context.Background(), "go")
	if a.window() != 16384 {
		t.Errorf("planned for %d, want the Modelfile's num_ctx 16384", a.window())
	}
	a.o.ContextTokens = 8192
	a.SetModel(info{Streamer: a.Model(), ModelInfo: model.ModelInfo{NumCtx: 16384}})
	a.Send(context.Background(), "go")
	if a.window() != 8192 {
		t.Errorf("planned for %d, want model.contextTokens 8192", a.window())
	}
}

func TestTheSpinnerSaysTheModelLoads(t *testing.T) {
	face := &recorder{}
	StatusNotice(face)(model.Status{Loading: true})
	StatusNotice(face)(model.Status{})
	if got := face.of(EventWaiting); len(got) != 1 || got[0].Text != "loading the model" {
		t.Errorf("waiting events %+v", got)
	}
}
