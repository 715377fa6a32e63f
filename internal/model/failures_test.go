package model_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

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
		text: "the model granite4.1:8b is not on the server at ",
	}, {
		name: "model does not exist (OpenAI)",
		turn: modeltest.Turn{Status: 404, ErrorBody: `{"error":{"message":"The model ` + "`granite4.1:8b`" +
			` does not exist or you do not have access to it.","type":"invalid_request_error","param":null,"code":"model_not_found"}}`},
		kind: model.ErrModelMissing,
		text: "is not on the server",
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
			_, err := newClient(t, srv.URL(), model.WithMaxRetries(0)).Stream(t.Context(), ask("hi"), nil, nil)
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

// A server that sends an error's status and then stalls in its body is
// timed as any silence after the headers: wisp does not wait on it for ever.
func TestStreamGivesUpOnAStalledErrorBody(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":{"message":"out of`)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c := newClient(t, srv.URL+"/v1", model.WithIdleTimeout(50*time.Millisecond), model.WithMaxRetries(0))
	r := returnsSoon(t, func() result {
		msg, err := c.Stream(t.Context(), ask("hi"), nil, nil)
		return result{msg, err}
	})
	if !errors.Is(r.err, model.ErrStalled) || !strings.Contains(r.err.Error(), "sent nothing for 50ms") {
		t.Errorf("err = %v, want ErrStalled", r.err)
	}
}

// A server (or a proxy in front of it) that ends the stream cleanly but
// before the finish chunk still leaves the answer incomplete.
func TestStreamSaysWhenTheStreamEndsWithoutAFinish(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"id":"x","object":"chat.completion.chunk","created":1,"model":"m",`+
			`"choices":[{"index":0,"delta":{"role":"assistant","content":"Half"},"finish_reason":null}]}`+"\n\n")
	}))
	defer srv.Close()
	msg, err := newClient(t, srv.URL+"/v1").Stream(t.Context(), ask("hi"), nil, nil)
	want := "the model server's answer was cut off before it finished; retry the request"
	if !errors.Is(err, model.ErrCutOff) || err.Error() != want || msg.Content != "Half" {
		t.Errorf("got %q, %v; want the partial text and %q", msg.Content, err, want)
	}
}
