package model

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultFirstByteTimeout bounds the wait for the first chunk of an
// answer, and for a server that answers 503 while it loads the model:
// a cold model takes minutes to load (Ollama allows 5 by default).
const DefaultFirstByteTimeout = 10 * time.Minute

// Waits: the face is told of a wait in progress every statusEvery once it
// lasted statusAfter; a server that answers 503 "Loading model" is asked
// again every loadingPoll. Tests shorten them (export_test.go).
const (
	statusEvery = time.Second
	statusAfter = 2 * time.Second
	loadingPoll = time.Second
)

// waits are the client's wait settings.
type waits struct {
	statusEvery, statusAfter, loadingPoll time.Duration
}

// Status is a wait in progress, for the face's spinner.
type Status struct {
	// Loading: the server said it is loading the model (503 "Loading
	// model"), or is Ollama, which loads a model before its first byte.
	// Otherwise the server is silent before its first byte.
	Loading bool
	Elapsed time.Duration // since the request was first sent
}

// Notice is the spinner's words: "loading the model · 40s".
func (s Status) Notice() string {
	what := "waiting for the model"
	if s.Loading {
		what = "loading the model"
	}
	return fmt.Sprintf("%s · %s", what, s.Elapsed.Truncate(time.Second))
}

// WithStatusNotice has report told, every second, of a wait of more than
// two seconds for the first byte or for a model that is loading. It is
// called from the client's goroutines; Ctrl-C (ctx) ends the wait.
func WithStatusNotice(report func(Status)) Option {
	return func(s *settings) { s.onStatus = report }
}

// WithFirstByteTimeout sets how long a request may wait for its first
// chunk, and a loading server may keep answering 503 "Loading model"
// (DefaultFirstByteTimeout otherwise).
func WithFirstByteTimeout(d time.Duration) Option {
	return func(s *settings) { s.firstByte = d }
}

// WithToolsFallback has Turn send a request again without tools when the
// server refuses tools (ErrToolsUnsupported), setting Result.ToolsDropped:
// for a person who chose to talk to such a model anyway.
func WithToolsFallback(on bool) Option {
	return func(s *settings) { s.toolsFallback = on }
}

// reportWaiting tells onStatus of the wait for the first chunk, until the
// returned stop is called or ctx ends. Loading is said only for Ollama,
// known to load before its first byte; asking is free once asked.
func (c *Client) reportWaiting(ctx context.Context, start time.Time) (stop func()) {
	if c.onStatus == nil {
		return func() {}
	}
	done := make(chan struct{})
	var once sync.Once
	go func() {
		t := time.NewTicker(c.waits.statusEvery)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-t.C:
				if e := now.Sub(start); e >= c.waits.statusAfter {
					c.onStatus(Status{Loading: c.IsOllama(ctx), Elapsed: e})
				}
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

// isLoading reports whether err is a server saying it is loading the
// model: llama.cpp's 503 "Loading model", or a 503 that says loading.
func isLoading(err error) bool {
	se, ok := asServerError(err)
	return ok && se.Status == http.StatusServiceUnavailable &&
		strings.Contains(strings.ToLower(se.Message), "loading")
}

// doneWatch notes whether the stream ended with "data: [DONE]", so that
// an answer without finish_reason (vllm-mlx) still counts as whole when
// the server said it was done. It keeps only the last bytes read.
type doneWatch struct {
	mu   sync.Mutex
	tail []byte
}

// watch returns body, which w watches as it is read.
func (w *doneWatch) watch(body io.Reader) io.Reader {
	return &tailReader{Reader: body, w: w}
}

func (w *doneWatch) seen() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return bytes.Contains(w.tail, []byte("data: [DONE]")) || bytes.Contains(w.tail, []byte("data:[DONE]"))
}

const doneTail = 32

type tailReader struct {
	io.Reader
	w *doneWatch
}

func (r *tailReader) Read(p []byte) (int, error) {
	n, err := r.Reader.Read(p)
	if n > 0 {
		r.w.mu.Lock()
		r.w.tail = append(r.w.tail, p[:n]...)
		if len(r.w.tail) > doneTail {
			r.w.tail = append(r.w.tail[:0], r.w.tail[len(r.w.tail)-doneTail:]...)
		}
		r.w.mu.Unlock()
	}
	return n, err
}
