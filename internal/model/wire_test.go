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
