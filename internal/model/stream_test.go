package model_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

var runCommand = model.Tool{
	Name:        "run_command",
	Description: "Run a shell command in the project.",
	Parameters: map[string]any{"type": "object", "required": []any{"command"},
		"properties": map[string]any{"command": map[string]any{"type": "string"}}},
}

func newClient(t *testing.T, baseURL string, opts ...model.Option) *model.Client {
	t.Helper()
	c, err := model.New(config.Model{Name: "granite4.1:8b", BaseURL: baseURL}, noEnv, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func noEnv(string) string { return "" }

func ask(text string) []model.Message {
	return []model.Message{{Role: model.RoleSystem, Content: "You are wisp."}, {Role: model.RoleUser, Content: text}}
}

func TestStreamPassesTextAsItArrives(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Hel", "lo, ", "world"}})
	var got []string
	msg, err := newClient(t, srv.URL()).Stream(t.Context(), ask("hi"), []model.Tool{runCommand},
		func(s string) { got = append(got, s) })
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"Hel", "lo, ", "world"}; !reflect.DeepEqual(got, want) {
		t.Errorf("onText got %q, want %q", got, want)
	}
	want := model.Message{Role: "assistant", Content: "Hello, world"}
	if !reflect.DeepEqual(msg, want) {
		t.Errorf("message = %+v, want %+v", msg, want)
	}
}

func TestStreamSendsTheConversation(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"done"}})
	convo := append(ask("list files"),
		model.Message{Role: "assistant", ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "run_command", Arguments: `{"command":"ls"}`}}},
		model.Message{Role: "tool", ToolCallID: "call_1", Content: "a.go\nb.go"},
		model.Message{Role: "assistant", Content: "Two files."},
		model.Message{Role: "user", Content: "thanks"})
	if _, err := newClient(t, srv.URL()).Stream(t.Context(), convo, []model.Tool{runCommand}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("server got %d requests, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "granite4.1:8b" || !r.Stream {
		t.Errorf("model %q stream %v, want granite4.1:8b streamed", r.Model, r.Stream)
	}
	if !reflect.DeepEqual(r.Messages, convo) {
		t.Errorf("server got messages\n%+v\nwant\n%+v", r.Messages, convo)
	}
	if !reflect.DeepEqual(r.Tools, []model.Tool{runCommand}) {
		t.Errorf("server got tools %+v", r.Tools)
	}
}

func TestStreamRejectsAnUnknownRole(t *testing.T) {
	srv := modeltest.NewServer(t)
	_, err := newClient(t, srv.URL()).Stream(t.Context(), []model.Message{{Role: "narrator"}}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), `"narrator"`) {
		t.Fatalf("err = %v, want one naming the role", err)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("server got %d requests, want none", n)
	}
}

func TestStreamAssemblesToolCalls(t *testing.T) {
	zero := 0
	tests := []struct {
		name string
		turn modeltest.Turn
		want model.Message
	}{{
		name: "one call, arguments in pieces",
		turn: modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			{ID: "call_a", Name: "run_command", Arguments: []string{`{"comm`, `and":"go `, `test"}`}}}},
		want: model.Message{Role: "assistant", ToolCalls: []model.ToolCall{
			{ID: "call_a", Name: "run_command", Arguments: `{"command":"go test"}`}}},
	}, {
		name: "text then several calls, interleaved",
		turn: modeltest.Turn{Text: []string{"Let me look."}, Interleave: true,
			ToolCalls: []modeltest.ToolCallScript{
				{ID: "call_a", Name: "run_command", Arguments: []string{`{"command":`, `"ls"}`}},
				{ID: "call_b", Name: "read_file", Arguments: []string{`{"path":`, `"go.mod"`, `}`}},
				{ID: "call_c", Name: "run_command", Arguments: []string{`{"command":"pwd"}`}}}},
		want: model.Message{Role: "assistant", Content: "Let me look.", ToolCalls: []model.ToolCall{
			{ID: "call_a", Name: "run_command", Arguments: `{"command":"ls"}`},
			{ID: "call_b", Name: "read_file", Arguments: `{"path":"go.mod"}`},
			{ID: "call_c", Name: "run_command", Arguments: `{"command":"pwd"}`}}},
	}, {
		name: "every call at index 0, told apart by id (older Ollama)",
		turn: modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			{ID: "call_a", Name: "run_command", Arguments: []string{`{"command":"ls"}`}, Index: &zero},
			{ID: "call_b", Name: "run_command", Arguments: []string{`{"command":"pwd"}`}, Index: &zero}}},
		want: model.Message{Role: "assistant", ToolCalls: []model.ToolCall{
			{ID: "call_a", Name: "run_command", Arguments: `{"command":"ls"}`},
			{ID: "call_b", Name: "run_command", Arguments: `{"command":"pwd"}`}}},
	}, {
		name: "no id and no arguments",
		turn: modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{{Name: "list_dirs"}}},
		want: model.Message{Role: "assistant", ToolCalls: []model.ToolCall{
			{ID: "call_0", Name: "list_dirs", Arguments: `{}`}}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tt.turn)
			msg, err := newClient(t, srv.URL()).Stream(t.Context(), ask("go"), []model.Tool{runCommand}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(msg, tt.want) {
				t.Errorf("message =\n%+v\nwant\n%+v", msg, tt.want)
			}
		})
	}
}

func TestStreamReportsMalformedToolCalls(t *testing.T) {
	tests := []struct {
		name     string
		calls    []modeltest.ToolCallScript
		bad      []string // ids of the calls reported
		problems []string // text each report holds
	}{{
		name:     "arguments cut short",
		calls:    []modeltest.ToolCallScript{{ID: "call_a", Name: "run_command", Arguments: []string{`{"command":"ls`}}},
		bad:      []string{"call_a"},
		problems: []string{"the tool call run_command (id call_a) was not run: its arguments are not a JSON object"},
	}, {
		name:     "arguments not an object",
		calls:    []modeltest.ToolCallScript{{ID: "call_a", Name: "run_command", Arguments: []string{`["ls"]`}}},
		bad:      []string{"call_a"},
		problems: []string{"call the tool again with its arguments as one JSON object"},
	}, {
		name:     "no name",
		calls:    []modeltest.ToolCallScript{{ID: "call_a", Arguments: []string{`{"command":"ls"}`}}},
		bad:      []string{"call_a"},
		problems: []string{"the tool call (no name) (id call_a) was not run: it names no tool"},
	}, {
		name: "one good, two bad",
		calls: []modeltest.ToolCallScript{
			{ID: "call_a", Name: "run_command", Arguments: []string{`{"command":"ls"}`}},
			{ID: "call_b", Name: "run_command", Arguments: []string{`{command: ls}`}},
			{ID: "call_c", Arguments: []string{`{}`}}},
		bad:      []string{"call_b", "call_c"},
		problems: []string{"not a JSON object", "names no tool"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, modeltest.Turn{ToolCalls: tt.calls})
			msg, err := newClient(t, srv.URL()).Stream(t.Context(), ask("go"), []model.Tool{runCommand}, nil)
			if len(msg.ToolCalls) != len(tt.calls) {
				t.Errorf("message has %d tool calls, want all %d", len(msg.ToolCalls), len(tt.calls))
			}
			var first *model.ToolCallError
			if !errors.As(err, &first) {
				t.Fatalf("err = %v, want a *ToolCallError", err)
			}
			reported := model.ToolCallErrors(err)
			if len(reported) != len(tt.bad) {
				t.Fatalf("reported %d bad calls (%v), want %d", len(reported), err, len(tt.bad))
			}
			for i, tce := range reported {
				if tce.Call.ID != tt.bad[i] || !strings.Contains(tce.Error(), tt.problems[i]) {
					t.Errorf("report %d = %q (id %s), want id %s saying %q",
						i, tce.Error(), tce.Call.ID, tt.bad[i], tt.problems[i])
				}
			}
		})
	}
}
