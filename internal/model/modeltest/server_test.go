package modeltest_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var twoCalls = modeltest.Turn{
	Text:       []string{"Let me ", "look."},
	Interleave: true,
	ToolCalls: []modeltest.ToolCallScript{
		{ID: "call_a", Name: "run_command", Arguments: []string{`{"command":`, `"ls"}`}},
		{ID: "call_b", Name: "read_file", Arguments: []string{`{"path":"go.mod"}`}},
	},
}

// post sends a chat completions request body as any client would.
func post(t *testing.T, srv *modeltest.Server, body string) (*http.Response, []byte) {
	t.Helper()
	res, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, data
}

const streamRequest = `{"model":"granite4.1:8b","stream":true,"stream_options":{"include_usage":true},
	"messages":[{"role":"user","content":"hi"}]}`

// The wire format, byte for byte: review testdata/ against OpenAI's and
// Ollama's streams when changing it (go test -update rewrites it).
func TestStreamMatchesTheGoldenWireFormat(t *testing.T) {
	srv := modeltest.NewServer(t, twoCalls)
	res, body := post(t, srv, streamRequest)
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type = %q, want text/event-stream", ct)
	}
	golden := filepath.Join("testdata", "two_tool_calls.sse")
	if *update {
		if err := os.WriteFile(golden, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(body, want) {
		t.Errorf("stream differs from %s:\n%s", golden, body)
	}
}

// sdkClient is a client of a widely used Go SDK for the OpenAI API,
// which this project did not write (wisp speaks the protocol itself).
func sdkClient(srv *modeltest.Server) *openai.Client {
	cfg := openai.DefaultConfig("k")
	cfg.BaseURL = srv.URL()
	return openai.NewClientWithConfig(cfg)
}

// The SDK's own stream reader reads the scripted stream as it reads
// OpenAI's; the pieces are joined as its documentation joins them.
func TestTheSDKReadsTheStream(t *testing.T) {
	srv := modeltest.NewServer(t, twoCalls)
	stream, err := sdkClient(srv).CreateChatCompletionStream(t.Context(), openai.ChatCompletionRequest{
		Model:         "granite4.1:8b",
		Messages:      []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "hi"}},
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Close()
	var content, finish string
	var calls []openai.ToolCall
	var usage *openai.Usage
	for {
		chunk, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if chunk.Usage != nil {
			usage = chunk.Usage
		}
		for _, choice := range chunk.Choices {
			content += choice.Delta.Content
			if choice.FinishReason != "" {
				finish = string(choice.FinishReason)
			}
			for _, tc := range choice.Delta.ToolCalls {
				if tc.Index == nil {
					t.Fatalf("a tool call piece without its index: %+v", tc)
				}
				for len(calls) <= *tc.Index {
					calls = append(calls, openai.ToolCall{})
				}
				c := &calls[*tc.Index]
				c.ID += tc.ID
				c.Function.Name += tc.Function.Name
				c.Function.Arguments += tc.Function.Arguments
			}
		}
	}
	if content != "Let me look." || finish != "tool_calls" {
		t.Errorf("content %q finish %q", content, finish)
	}
	var got []string
	for _, tc := range calls {
		got = append(got, tc.ID+" "+tc.Function.Name+" "+tc.Function.Arguments)
	}
	want := []string{`call_a run_command {"command":"ls"}`, `call_b read_file {"path":"go.mod"}`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tool calls %q, want %q", got, want)
	}
	if usage == nil || usage.TotalTokens == 0 {
		t.Error("no usage chunk although the request asked for one")
	}
}

func TestTheSDKReadsACompletionAndTheModelList(t *testing.T) {
	srv := modeltest.NewServer(t, twoCalls)
	srv.SetModels("granite4.1:8b", "qwen3:8b")
	client := sdkClient(srv)
	done, err := client.CreateChatCompletion(t.Context(), openai.ChatCompletionRequest{
		Model:    "granite4.1:8b",
		Messages: []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	msg := done.Choices[0].Message
	if msg.Content != "Let me look." || len(msg.ToolCalls) != 2 || msg.ToolCalls[1].Function.Arguments != `{"path":"go.mod"}` {
		t.Errorf("completion = %+v", done)
	}
	list, err := client.ListModels(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Models) != 2 || list.Models[1].ID != "qwen3:8b" {
		t.Errorf("models = %+v", list.Models)
	}
}

func TestFailureTurns(t *testing.T) {
	tests := []struct {
		name   string
		turn   modeltest.Turn
		status int
		body   string
	}{
		{"model missing, as Ollama says it", modeltest.Turn{ModelMissing: true}, 404,
			`{"error":"model \"granite4.1:8b\" not found, try pulling it first"}`},
		{"status with a body", modeltest.Turn{Status: 500, ErrorBody: `{"error":"boom"}`}, 500, `{"error":"boom"}`},
		{"status alone", modeltest.Turn{Status: 401}, 401,
			`{"error":{"code":null,"message":"unauthorized","param":null,"type":"invalid_request_error"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := modeltest.NewServer(t, tt.turn)
			res, body := post(t, srv, streamRequest)
			if res.StatusCode != tt.status || string(body) != tt.body {
				t.Errorf("got %d %s, want %d %s", res.StatusCode, body, tt.status, tt.body)
			}
		})
	}
}

func TestCutOffDropsTheConnection(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Half"}, CutOff: true})
	res, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(streamRequest))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != io.ErrUnexpectedEOF || !bytes.Contains(body, []byte(`"content":"Half"`)) ||
		bytes.Contains(body, []byte("finish_reason\":\"")) {
		t.Errorf("read %q, %v; want the text, no finish, then unexpected EOF", body, err)
	}
}

func TestCloseReleasesAHangingTurn(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Hang: true})
	started := make(chan struct{})
	go func() {
		res, err := http.Post(srv.URL()+"/chat/completions", "application/json", strings.NewReader(streamRequest))
		close(started)
		if err == nil {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	<-started // the headers arrived: the handler is hanging
	closed := make(chan struct{})
	go func() { srv.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute): // a guard against a hang, not a measure of speed
		t.Fatal("Close did not return while a turn was hanging")
	}
}

func TestRequestsRecordWhatTheClientSent(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{})
	post(t, srv, `{"model":"m","stream":false,"messages":[
		{"role":"system","content":[{"type":"text","text":"be "},{"type":"text","text":"brief"}]},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"ok"}],
		"tools":[{"type":"function","function":{"name":"f","description":"does f","parameters":{"type":"object"}}}]}`)
	r := srv.Requests()[0]
	want := []model.Message{
		{Role: "system", Content: "be brief"},
		{Role: "assistant", ToolCalls: []model.ToolCall{{ID: "c1", Name: "f", Arguments: "{}"}}},
		{Role: "tool", ToolCallID: "c1", Content: "ok"},
	}
	if r.Model != "m" || r.Stream || !reflect.DeepEqual(r.Messages, want) {
		t.Errorf("recorded %+v", r)
	}
	if len(r.Tools) != 1 || r.Tools[0].Description != "does f" || r.Tools[0].Parameters["type"] != "object" {
		t.Errorf("recorded tools %+v", r.Tools)
	}
	if srv.Remaining() != 0 {
		t.Errorf("Remaining = %d, want 0", srv.Remaining())
	}
}

func TestParseScript(t *testing.T) {
	turns, err := modeltest.ParseScript([]byte(`[{"text":["a","b"]},
		{"toolCalls":[{"id":"c","name":"f","arguments":["{}"]}]},{"modelMissing":true}]`))
	want := []modeltest.Turn{{Text: []string{"a", "b"}},
		{ToolCalls: []modeltest.ToolCallScript{{ID: "c", Name: "f", Arguments: []string{"{}"}}}},
		{ModelMissing: true}}
	if err != nil || !reflect.DeepEqual(turns, want) {
		t.Errorf("ParseScript = %+v, %v", turns, err)
	}
	if _, err := modeltest.ParseScript([]byte(`[{"txet":["a"]}]`)); err == nil {
		t.Error("a misspelt field was accepted")
	}
}

func TestListenAndServeScriptRefusesABadScript(t *testing.T) {
	err := modeltest.ListenAndServeScript("127.0.0.1:0", []byte(`{"text":"not a list"}`))
	if err == nil || !strings.Contains(err.Error(), "not a JSON array of turns") {
		t.Errorf("err = %v", err)
	}
}

// reporter stands in for the test so that what the server reports can be read.
type reporter struct {
	testing.TB
	mu      sync.Mutex
	reports []string
}

func (r *reporter) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reports = append(r.reports, fmt.Sprintf(format, args...))
}

func TestTheServerReportsRequestsItCannotAnswer(t *testing.T) {
	tests := []struct {
		name, body, report string
		status             int
	}{
		{"beyond the script", streamRequest, "modeltest: request 1 has no scripted turn left", 500},
		{"not a chat request", `{"prompt":"hi"}`, "modeltest: the request has no model or no messages", 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep := &reporter{TB: t}
			srv := modeltest.NewServer(rep)
			res, _ := post(t, srv, tt.body)
			if res.StatusCode != tt.status || !reflect.DeepEqual(rep.reports, []string{tt.report}) {
				t.Errorf("got %d and reports %q, want %d and %q", res.StatusCode, rep.reports, tt.status, tt.report)
			}
		})
	}
}
