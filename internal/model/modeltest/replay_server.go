package modeltest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"
)

// ReplayServer serves a Case's responses byte for byte: each request takes
// the next response recorded for its method and path, and the response is
// written piece by piece, flushed between pieces, with the waits, the cut
// or the hang the case asks for. It listens on 127.0.0.1 only.
type ReplayServer struct {
	srv    *httptest.Server
	report func(format string, args ...any)
	stop   chan struct{}
	once   sync.Once

	mu       sync.Mutex
	queues   map[string][]Response
	requests []ReplayRequest
}

// ReplayRequest is one request the replay server received.
type ReplayRequest struct {
	Method, Path string
	Body         []byte
	Served       bool // a recorded response answered it
}

// NewReplayServer starts a server for c that stops when the test ends. A
// chat completions request for which no response is left fails the test;
// other unrecorded requests are answered 404 "404 page not found", as
// Ollama and most servers answer a path they do not serve.
func NewReplayServer(t testing.TB, c *Case) *ReplayServer {
	t.Helper()
	s := &ReplayServer{report: t.Errorf, stop: make(chan struct{}), queues: map[string][]Response{}}
	for _, r := range c.Responses {
		s.queues[r.Route()] = append(s.queues[r.Route()], r)
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.Close)
	return s
}

// URL is the OpenAI-compatible base URL (it ends in /v1).
func (s *ReplayServer) URL() string { return s.srv.URL + "/v1" }

// Root is the server's address without a path, for native APIs such as
// Ollama's /api/show.
func (s *ReplayServer) Root() string { return s.srv.URL }

// Requests returns the requests received so far, in order.
func (s *ReplayServer) Requests() []ReplayRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ReplayRequest(nil), s.requests...)
}

// Remaining is how many recorded responses no request has taken yet.
func (s *ReplayServer) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, q := range s.queues {
		n += len(q)
	}
	return n
}

// Close releases hanging responses and stops the server.
func (s *ReplayServer) Close() {
	s.once.Do(func() { close(s.stop) })
	s.srv.Close()
}

func (s *ReplayServer) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, maxRequestBody))
	r, ok := s.take(req.Method, req.URL.Path, body)
	if !ok {
		if req.Method+" "+req.URL.Path == defaultRoute {
			s.report("modeltest: replay: %s %s found no recorded response left", req.Method, req.URL.Path)
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, "404 page not found")
		return
	}
	if !s.sleep(req.Context(), r.Delay) {
		return
	}
	for k, v := range r.Header {
		w.Header()[k] = v
	}
	whole := len(r.Pieces) <= 1 && r.End == EndClose
	if whole && w.Header().Get("Content-Length") == "" {
		w.Header().Set("Content-Length", strconv.Itoa(len(r.Body())))
	}
	w.WriteHeader(r.Status)
	for _, p := range r.Pieces {
		if !s.sleep(req.Context(), p.Wait) {
			panic(http.ErrAbortHandler)
		}
		if _, err := w.Write(p.Data); err != nil {
			return
		}
		if !whole {
			http.NewResponseController(w).Flush()
		}
	}
	switch r.End {
	case EndCut:
		panic(http.ErrAbortHandler) // drops the connection without ending the body
	case EndHang:
		s.sleep(req.Context(), time.Duration(1<<62))
		panic(http.ErrAbortHandler)
	}
}

// take records the request and returns the next response for its route.
func (s *ReplayServer) take(method, path string, body []byte) (Response, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	route := method + " " + path
	q := s.queues[route]
	s.requests = append(s.requests, ReplayRequest{Method: method, Path: path, Body: body, Served: len(q) > 0})
	if len(q) == 0 {
		return Response{}, false
	}
	s.queues[route] = q[1:]
	return q[0], true
}

// sleep waits d; false when the client went away or the server closed
// first.
func (s *ReplayServer) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.stop:
		return false
	}
}
