package model_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

type retries struct {
	mu   sync.Mutex
	seen []model.Retry
}

func (r *retries) add(x model.Retry) { r.mu.Lock(); r.seen = append(r.seen, x); r.mu.Unlock() }

// 429 and 5xx are retried, each retry told with its wait; Retry-After is
// honoured; then the answer comes.
func TestStreamRetries429And5xxWithBackoff(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Status: 429, RetryAfter: "1", ErrorBody: "slow down"},
		modeltest.Turn{Status: 503}, modeltest.Turn{Text: []string{"ok"}})
	var r retries
	msg, err := newClient(t, srv.URL(), model.WithRetryNotice(r.add)).Stream(t.Context(), ask("hi"), nil, nil)
	if err != nil || msg.Content != "ok" || len(srv.Requests()) != 3 {
		t.Fatalf("got %q, %v after %d requests", msg.Content, err, len(srv.Requests()))
	}
	if len(r.seen) != 2 || r.seen[0].Wait != time.Second || r.seen[1].Wait != time.Second ||
		r.seen[0].Attempt != 1 || r.seen[1].Max != model.DefaultMaxRetries {
		t.Errorf("retries told: %+v", r.seen)
	}
	if got := r.seen[0].Notice(); got != "· the model server failed (the model server answered HTTP 429: slow down); retry 1 of 3 in 1s" {
		t.Errorf("notice %q", got)
	}
}

// The retries are bounded; a wait asked for past a minute is not waited.
func TestStreamRetriesAreBounded(t *testing.T) {
	srv := modeltest.NewServer(t, modeltest.Turn{Status: 500}, modeltest.Turn{Status: 500})
	var r retries
	_, err := newClient(t, srv.URL(), model.WithMaxRetries(1), model.WithRetryNotice(r.add)).Stream(t.Context(), ask("hi"), nil, nil)
	var se *model.ServerError
	if !errors.As(err, &se) || se.Status != 500 || len(srv.Requests()) != 2 || len(r.seen) != 1 {
		t.Errorf("err %v after %d requests, %d retries told", err, len(srv.Requests()), len(r.seen))
	}
	long := modeltest.NewServer(t, modeltest.Turn{Status: 429, RetryAfter: "3600"})
	_, err = newClient(t, long.URL()).Stream(t.Context(), ask("hi"), nil, nil)
	if !errors.As(err, &se) || se.RetryAfter != time.Hour || len(long.Requests()) != 1 {
		t.Errorf("a Retry-After of an hour: %v after %d requests", err, len(long.Requests()))
	}
}

// A missing model names what the server has; the ollama pull hint only
// where the server is Ollama.
func TestMissingModelListsWhatTheServerHas(t *testing.T) {
	for _, ollama := range []bool{true, false} {
		srv := modeltest.NewServer(t, modeltest.Turn{ModelMissing: true})
		srv.SetModels("qwen3:8b", "llama3.2:3b")
		srv.SetOllama(ollama)
		c := newClient(t, srv.URL())
		_, streamErr := c.Stream(t.Context(), ask("hi"), nil, nil)
		checkErr := newClient(t, srv.URL()).Check(t.Context())
		for _, err := range []error{streamErr, checkErr} {
			if !errors.Is(err, model.ErrModelMissing) || !strings.Contains(err.Error(), "is not on the server at "+srv.URL()+"; it has qwen3:8b, llama3.2:3b") {
				t.Errorf("ollama %v: %v", ollama, err)
			}
			if hint := strings.Contains(err.Error(), "ollama pull granite4.1:8b"); hint != ollama {
				t.Errorf("ollama %v, the pull hint shown %v: %v", ollama, hint, err)
			}
			if !ollama && !strings.Contains(err.Error(), "set model.name to one of them (wisp config set model.name NAME)") {
				t.Errorf("no model.name hint: %v", err)
			}
		}
	}
}
