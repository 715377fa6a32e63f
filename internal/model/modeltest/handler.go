package modeltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"
)

// defaultModels is what /v1/models lists unless SetModels says otherwise.
var defaultModels = []string{"granite4.1:8b"}

// maxRequestBody bounds a request body the server reads.
const maxRequestBody = 16 << 20

// handler is the server's state and routing, shared by NewServer and
// ListenAndServeScript.
type handler struct {
	mu        sync.Mutex
	turns     []Turn
	next      int
	requests  []Request
	models    []string
	notOllama bool // /api/version is not served: another OpenAI-compatible server
	report    func(format string, args ...any)
	stop      chan struct{}
	stopOnce  sync.Once
}

func newHandler(script []Turn, report func(string, ...any)) *handler {
	return &handler{turns: append([]Turn(nil), script...), models: defaultModels,
		report: report, stop: make(chan struct{})}
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/chat/completions" && r.Method == http.MethodPost:
		h.chat(w, r)
	case r.URL.Path == "/v1/models" && r.Method == http.MethodGet:
		h.listModels(w)
	case r.URL.Path == "/api/version" && r.Method == http.MethodGet && !h.isNotOllama():
		writeJSON(w, http.StatusOK, map[string]string{"version": "0.12.0"}) // as Ollama answers
	default:
		http.NotFound(w, r) // plain "404 page not found", as Ollama answers
	}
}

func (h *handler) isNotOllama() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.notOllama
}

func (h *handler) release() { h.stopOnce.Do(func() { close(h.stop) }) }

func (h *handler) chat(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody))
	if err != nil && r.Context().Err() != nil {
		return // the client went away mid-body (a Ctrl-C), as a real server sees it: nothing to answer
	}
	if err == nil {
		var req Request
		if req, err = parseRequest(body, r.Header.Get("Authorization")); err == nil {
			h.answer(w, r, req)
			return
		}
	}
	h.report("modeltest: %v", err)
	writeError(w, http.StatusBadRequest, openAIError(err.Error()))
}

func (h *handler) answer(w http.ResponseWriter, r *http.Request, req Request) {
	turn, ok := h.take(req)
	if !ok {
		msg := fmt.Sprintf("modeltest: request %d has no scripted turn left", len(h.Requests()))
		h.report("%s", msg)
		writeError(w, http.StatusInternalServerError, openAIError(msg))
		return
	}
	if turn.WaitFor != "" && !h.waitFor(r, turn.WaitFor) {
		return
	}
	switch {
	case turn.ModelMissing:
		writeError(w, http.StatusNotFound, ollamaModelMissing(req.Model))
	case turn.Status != 0:
		if turn.RetryAfter != "" {
			w.Header().Set("Retry-After", turn.RetryAfter)
		}
		writeError(w, turn.Status, errorBody(turn))
	case !req.Stream:
		h.complete(w, r, turn, req)
	default:
		h.stream(w, r, turn, req)
	}
}

// take records req and returns the turn that answers it.
func (h *handler) take(req Request) (Turn, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.requests = append(h.requests, req)
	if h.next >= len(h.turns) {
		return Turn{}, false
	}
	h.next++
	return h.turns[h.next-1], true
}

// Requests is the standalone server's view of what Server.Requests returns.
func (h *handler) Requests() []Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Request(nil), h.requests...)
}

func (h *handler) stream(w http.ResponseWriter, r *http.Request, turn Turn, req Request) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	sse := &sseWriter{w: w, id: h.completionID(), model: req.Model}
	sse.pieces(turn)
	switch {
	case turn.CutOff:
		panic(http.ErrAbortHandler) // drops the connection mid-stream
	case turn.Hang:
		h.hang(r)
	case turn.StreamError != "":
		sse.streamError(turn.StreamError)
	default:
		sse.finish(turn, req)
	}
}

// waitFor waits until path exists; false when the client went away or
// the server closed first.
func (h *handler) waitFor(r *http.Request, path string) bool {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		if _, err := os.Stat(path); err == nil {
			return true
		}
		select {
		case <-r.Context().Done():
			return false
		case <-h.stop:
			return false
		case <-t.C:
		}
	}
}

// hang waits for the client to give up or the server to close. The
// connection is then dropped, so no finish arrives.
func (h *handler) hang(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-h.stop:
	}
	panic(http.ErrAbortHandler)
}

func (h *handler) completionID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return fmt.Sprintf("chatcmpl-%d", len(h.requests))
}

func (h *handler) listModels(w http.ResponseWriter) {
	h.mu.Lock()
	names := h.models
	h.mu.Unlock()
	type entry struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	list := struct {
		Object string  `json:"object"`
		Data   []entry `json:"data"`
	}{Object: "list", Data: []entry{}}
	for _, n := range names {
		list.Data = append(list.Data, entry{ID: n, Object: "model", Created: created, OwnedBy: "library"})
	}
	writeJSON(w, http.StatusOK, list)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, _ := json.Marshal(v)
	writeError(w, status, string(data))
}

// writeError sends body with status, as JSON when it is JSON.
func writeError(w http.ResponseWriter, status int, body string) {
	contentType := "text/plain; charset=utf-8"
	if json.Valid([]byte(body)) {
		contentType = "application/json"
	}
	w.Header().Set("Content-Type", contentType)
	w.WriteHeader(status)
	io.WriteString(w, body)
}

func errorBody(t Turn) string {
	if t.ErrorBody != "" {
		return t.ErrorBody
	}
	return openAIError(strings.ToLower(http.StatusText(t.Status)))
}

func openAIError(message string) string {
	data, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": "invalid_request_error", "param": nil, "code": nil}})
	return string(data)
}

// ollamaModelMissing is Ollama's body for a model that was never pulled.
func ollamaModelMissing(name string) string {
	data, _ := json.Marshal(map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", name)})
	return string(data)
}
