package model_test

import (
	"context"
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/config"
	"github.com/wisp-sh/wisp/model"
	"github.com/wisp-sh/wisp/model/modeltest"
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

// closedPort returns the address of a 127.0.0.1 port nothing listens on.
func closedPort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

func TestStreamSaysWhatToDoWhenTheServerIsDown(t *testing.T) {
	url := "http://" + closedPort(t) + "/v1"
	_, err := newClient(t, url).Stream(t.Context(), ask("hi"), nil, nil)
	if !errors.Is(err, model.ErrServerDown) {
		t.Fatalf("err = %v, want ErrServerDown", err)
	}
	want := "the model server at " + url + " is not answering; start it (ollama serve) or set model.baseURL"
	if err.Error() != want {
		t.Errorf("err = %q\nwant  %q", err, want)
	}
}

func TestStreamFailures(t *testing.T) {
	tests := []struct {
		name   string
		turn   modeltest.Turn
		kind   error  // the sentinel, if any
		text   string // what the message must say
		status int    // the *ServerError's status, if one
	}{{
		name: "model not pulled (Ollama)",
		turn: modeltest.Turn{ModelMissing: true},
		kind: model.ErrModelMissing,
		text: "the model granite4.1:8b is not on the server; run: ollama pull granite4.1:8b",
	}, {
		name: "model does not exist (OpenAI)",
		turn: modeltest.Turn{Status: 404, ErrorBody: `{"error":{"message":"The model ` + "`granite4.1:8b`" +
			` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`},
		kind: model.ErrModelMissing,
		text: "run: ollama pull granite4.1:8b",
	}, {
		name: "model does not exist (vLLM)",
		turn: modeltest.Turn{Status: 404, ErrorBody: `{"object":"error","message":"The model ` +
			"`granite4.1:8b`" + ` does not exist.","type":"NotFoundError","param":null,"code":404}`},
		kind: model.ErrModelMissing,
		text: "is not on the server",
	}, {
		name: "key refused",
		turn: modeltest.Turn{Status: 401, ErrorBody: `{"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}}`},
		kind: model.ErrUnauthorized,
		text: "wants an API key (HTTP 401: Incorrect API key provided.); set model.apiKeyEnv to the name of the environment variable that holds it",
	}, {
		name:   "server error with its message",
		turn:   modeltest.Turn{Status: 500, ErrorBody: `{"error":"llama runner process has terminated: signal: killed"}`},
		text:   "the model server answered HTTP 500: llama runner process has terminated: signal: killed",
		status: 500,
	}, {
		name:   "rate limited, plain text",
		turn:   modeltest.Turn{Status: 429, ErrorBody: "slow down\n"},
		text:   "the model server answered HTTP 429: slow down",
		status: 429,
	}, {
		name: "cut off mid-stream",
		turn: modeltest.Turn{Text: []string{"Half an ans"}, CutOff: true},
		kind: model.ErrCutOff,
		text: "the model server's answer was cut off before it finished (",
	}, {
		name:   "error event mid-stream",
		turn:   modeltest.Turn{Text: []string{"Half"}, StreamError: "out of memory"},
		text:   "the model server reported an error while answering: out of memory",
		status: -1,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tt.turn)
			_, err := newClient(t, srv.URL()).Stream(t.Context(), ask("hi"), nil, nil)
			if err == nil {
				t.Fatal("Stream succeeded, want an error")
			}
			if tt.kind != nil && !errors.Is(err, tt.kind) {
				t.Errorf("err = %v, want %v", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.text) {
				t.Errorf("err = %q\nwant it to say %q", err, tt.text)
			}
			var se *model.ServerError
			if tt.status != 0 && (!errors.As(err, &se) || (tt.status > 0 && se.Status != tt.status)) {
				t.Errorf("err = %#v, want a *ServerError with status %d", err, tt.status)
			}
		})
	}
}

func TestStreamKeepsWhatArrivedBeforeACutOff(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Half ", "an ans"}, CutOff: true})
	msg, err := newClient(t, srv.URL()).Stream(t.Context(), ask("hi"), nil, nil)
	if !errors.Is(err, model.ErrCutOff) || msg.Content != "Half an ans" {
		t.Errorf("got %q, %v; want the partial text and ErrCutOff", msg.Content, err)
	}
}

func TestStreamNamesTheKeyVariableOn401(t *testing.T) {
	tests := []struct{ key, text string }{
		{"sk-wrong", "refused the API key in the environment variable WISP_TEST_KEY (HTTP 401: unauthorized); check the key"},
		{"", "and the environment variable WISP_TEST_KEY (model.apiKeyEnv) is empty; put the key in it"},
	}
	for _, tt := range tests {
		srv := modeltest.NewServer(t, modeltest.Turn{Status: 401})
		cfg := config.Model{Name: "gpt-x", BaseURL: srv.URL(), APIKeyEnv: "WISP_TEST_KEY"}
		c, err := model.New(cfg, func(string) string { return tt.key })
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Stream(t.Context(), ask("hi"), nil, nil)
		if !errors.Is(err, model.ErrUnauthorized) || !strings.Contains(err.Error(), tt.text) {
			t.Errorf("with key %q: err = %v\nwant ErrUnauthorized saying %q", tt.key, err, tt.text)
		}
	}
}

func TestStreamOnAWrongBaseURL(t *testing.T) {
	srv := modeltest.NewServer(t)
	root := strings.TrimSuffix(srv.URL(), "/v1")
	_, err := newClient(t, root).Stream(t.Context(), ask("hi"), nil, nil)
	if !errors.Is(err, model.ErrNoEndpoint) || !strings.Contains(err.Error(), "usually ends in /v1") {
		t.Errorf("err = %v, want ErrNoEndpoint pointing at /v1", err)
	}
}

func TestStreamRetriesWhenAsked(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Status: 503}, modeltest.Turn{Text: []string{"ok"}})
	msg, err := newClient(t, srv.URL(), model.WithMaxRetries(1)).Stream(t.Context(), ask("hi"), nil, nil)
	if err != nil || msg.Content != "ok" || len(srv.Requests()) != 2 {
		t.Errorf("got %q, %v after %d requests; want ok after 2", msg.Content, err, len(srv.Requests()))
	}
}

// returnsSoon runs f and fails the test if it has not returned after a
// minute: a guard against a hang, not a measure of speed.
func returnsSoon[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(time.Minute):
		t.Fatal("Stream did not return")
		panic("unreachable")
	}
}

type result struct {
	msg model.Message
	err error
}

func TestStreamStopsWhenCancelled(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"thinking"}, Hang: true})
	c := newClient(t, srv.URL())
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	r := returnsSoon(t, func() result {
		msg, err := c.Stream(ctx, ask("hi"), nil, func(string) { cancel() })
		return result{msg, err}
	})
	if !errors.Is(r.err, context.Canceled) || !strings.HasPrefix(r.err.Error(), "the request was cancelled") {
		t.Errorf("err = %v, want the request was cancelled: context canceled", r.err)
	}
	if r.msg.Content != "thinking" {
		t.Errorf("content = %q, want what arrived before the cancel", r.msg.Content)
	}
}

func TestStreamGivesUpOnASilentServer(t *testing.T) {
	for _, text := range [][]string{nil, {"a start"}} {
		srv := modeltest.NewServer(t, modeltest.Turn{Text: text, Hang: true})
		c := newClient(t, srv.URL(), model.WithIdleTimeout(50*time.Millisecond))
		r := returnsSoon(t, func() result {
			msg, err := c.Stream(t.Context(), ask("hi"), nil, nil)
			return result{msg, err}
		})
		if !errors.Is(r.err, model.ErrStalled) || !strings.Contains(r.err.Error(), "sent nothing for 50ms") {
			t.Errorf("after %q: err = %v, want ErrStalled", text, r.err)
		}
	}
}
