// Package modeltest is a scripted OpenAI-compatible chat completions server
// for tests: each request consumes the next Turn of a script and is answered
// with the same server-sent events Ollama and OpenAI send, or with the
// failure the turn asks for. It records every request for assertions.
// Beside it, ReplayServer plays back exchanges recorded from real servers
// (Ollama, llama.cpp, vLLM, LM Studio) byte for byte, from the corpus in
// testdata/replay. Both listen on 127.0.0.1 only and need no network.
package modeltest

import (
	"net/http/httptest"
	"testing"
)

// Server is a running scripted server.
type Server struct {
	h   *handler
	srv *httptest.Server
}

// NewServer starts a server that answers requests with script, in order,
// and stops when the test ends. A request with no turn left, or one that is
// not a chat completions request, fails the test.
func NewServer(t testing.TB, script ...Turn) *Server {
	t.Helper()
	h := newHandler(script, t.Errorf)
	s := &Server{h: h, srv: httptest.NewServer(h)}
	t.Cleanup(s.Close)
	return s
}

// URL is the base URL to put in config.Model.BaseURL (it ends in /v1).
func (s *Server) URL() string { return s.srv.URL + "/v1" }

// Requests returns the chat completions requests received so far, in order.
func (s *Server) Requests() []Request {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return append([]Request(nil), s.h.requests...)
}

// Append adds turns to the end of the script.
func (s *Server) Append(turns ...Turn) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.turns = append(s.h.turns, turns...)
}

// Remaining is the number of turns no request has consumed yet.
func (s *Server) Remaining() int {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return len(s.h.turns) - s.h.next
}

// SetModels sets what /v1/models lists (granite4.1:8b unless set).
func (s *Server) SetModels(names ...string) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.models = append([]string(nil), names...)
}

// SetOllama says whether the server answers as Ollama does beside its
// OpenAI-compatible API (/api/version): it does unless set false, which
// makes it another server (LM Studio, vLLM, a hosted API).
func (s *Server) SetOllama(on bool) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.notOllama = !on
}

// Close releases hanging turns and stops the server. NewServer arranges it
// at the end of the test; calling it earlier makes the server unreachable.
func (s *Server) Close() {
	s.h.release()
	s.srv.Close()
}
