package model_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
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

// The body as servers read it: every message but an assistant's that only
// calls tools has its content, even empty (llama.cpp refuses a message
// with neither content nor calls; an SDK that leaves out empty strings
// would send one), and nothing beyond the protocol's fields.
func TestStreamSendsEveryMessageWithItsContent(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"ok"}})
	convo := []model.Message{
		{Role: model.RoleSystem, Content: "You are wisp."},
		{Role: model.RoleUser, Content: ""},
		{Role: model.RoleAssistant, Content: ""},
		{Role: model.RoleAssistant, ToolCalls: []model.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"true"}`}}},
		{Role: model.RoleTool, ToolCallID: "c1", Content: ""},
	}
	if _, err := newClient(t, srv.URL()).Turn(t.Context(), model.Request{Messages: convo, ContextTokens: 16384}); err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model": "granite4.1:8b", "stream": true, "stream_options": map[string]any{"include_usage": true},
		"messages": []any{
			map[string]any{"role": "system", "content": "You are wisp."},
			map[string]any{"role": "user", "content": ""},
			map[string]any{"role": "assistant", "content": ""},
			map[string]any{"role": "assistant", "tool_calls": []any{map[string]any{"id": "c1", "type": "function",
				"function": map[string]any{"name": "run_command", "arguments": `{"command":"true"}`}}}},
			map[string]any{"role": "tool", "tool_call_id": "c1", "content": ""},
		},
	}
	if !reflect.DeepEqual(body, want) {
		got, _ := json.MarshalIndent(body, "", "  ")
		t.Errorf("sent\n%s", got)
	}
}

// Some SDKs refuse, before sending, tools or settings for model names
// they take for OpenAI's reasoning models; wisp sends them to whatever
// server serves the name, which decides.
func TestStreamSendsToolsForEveryModelName(t *testing.T) {
	for _, name := range []string{"o1", "o3-mini", "o4-mini", "gpt-5", "gpt-5-mini", "gpt-6-sol", "gpt-6.1-sol", "gpt-6-astra"} {
		srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"ok"}})
		c, err := model.New(config.Model{Name: name, BaseURL: srv.URL()}, noEnv)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Turn(t.Context(), model.Request{Messages: ask("hi"), Tools: []model.Tool{runCommand}})
		if err != nil || res.Message.Content != "ok" {
			t.Errorf("%s: %q, %v", name, res.Message.Content, err)
			continue
		}
		if r := srv.Requests()[0]; r.Model != name || len(r.Tools) != 1 {
			t.Errorf("%s: the server got model %q and %d tools", name, r.Model, len(r.Tools))
		}
	}
}

// sseServer answers every request with body as an event stream.
func sseServer(t *testing.T, body string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

const halfChunk = `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m",` +
	`"choices":[{"index":0,"delta":{"role":"assistant","content":"Half"},"finish_reason":null}]}` + "\n\n"

// An error inside the stream is the server's, in whichever shape it comes
// and whatever came before it on the stream.
func TestStreamReadsErrorEventsInEveryShape(t *testing.T) {
	tests := []struct{ name, stream, message string }{
		{"a message as a string (Ollama's, TGI's)", `data: {"error":"boom"}` + "\n\n" + "data: [DONE]\n\n", "boom"},
		{"after comments", ": keep-alive\n\n: keep-alive\n\n" + `data: {"error":{"message":"out of memory"}}` + "\n\n", "out of memory"},
		{"with an event name", "event: error\n" + `data: {"error":{"message":"overloaded","code":529}}` + "\n\n", "overloaded"},
		{"beside the chunk's fields (OpenRouter's)", `data: {"id":"x","object":"chat.completion.chunk","error":{"code":502,"message":"provider down"},` +
			`"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error"}]}` + "\n\n", "provider down"},
		{"with spaces", `data:{ "error" : { "message" : "spaced" } }` + "\n\n", "spaced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			msg, err := newClient(t, sseServer(t, halfChunk+tt.stream), model.WithMaxRetries(0)).
				Stream(t.Context(), ask("hi"), nil, nil)
			var se *model.ServerError
			if !errors.As(err, &se) || se.Status != 0 || se.Message != tt.message {
				t.Errorf("err = %#v, want a *ServerError from the stream saying %q", err, tt.message)
			}
			if want := "the model server reported an error while answering: " + tt.message; err == nil || err.Error() != want {
				t.Errorf("err = %v, want %q", err, want)
			}
			if msg.Content != "Half" {
				t.Errorf("content = %q, want what came before the error", msg.Content)
			}
		})
	}
}

// A server that keeps the connection open with comments while it works
// (OpenRouter; a proxy) may send any number of them.
func TestStreamOutlastsAnyNumberOfComments(t *testing.T) {
	stream := strings.Repeat(": OPENROUTER PROCESSING\n\n", 5000) + halfChunk +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	msg, err := newClient(t, sseServer(t, stream)).Stream(t.Context(), ask("hi"), nil, nil)
	if err != nil || msg.Content != "Half" {
		t.Errorf("got %q, %v; want Half", msg.Content, err)
	}
}

// Thinking in a shape no server uses is dropped, not the chunk with it.
func TestStreamKeepsAChunkWithThinkingInAnotherShape(t *testing.T) {
	stream := `data: {"choices":[{"index":0,"delta":{"content":"Hi","reasoning":{"text":"hm"}},"finish_reason":"stop"}]}` + "\n\ndata: [DONE]\n\n"
	res, err := newClient(t, sseServer(t, stream)).Turn(t.Context(), model.Request{Messages: ask("hi")})
	if err != nil || res.Message.Content != "Hi" || res.Reasoning != "" {
		t.Errorf("got %q, thinking %q, %v; want Hi, no thinking", res.Message.Content, res.Reasoning, err)
	}
}
