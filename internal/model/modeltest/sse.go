package modeltest

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// created is the timestamp every chunk carries: fixed, so that recorded
// streams compare byte for byte.
const created = 1700000000

type chunk struct {
	ID                string        `json:"id"`
	Object            string        `json:"object"`
	Created           int64         `json:"created"`
	Model             string        `json:"model"`
	SystemFingerprint string        `json:"system_fingerprint"`
	Choices           []chunkChoice `json:"choices"`
	Usage             *usage        `json:"usage,omitempty"`
}

type chunkChoice struct {
	Index        int     `json:"index"`
	Delta        delta   `json:"delta"`
	FinishReason *string `json:"finish_reason"`
}

type delta struct {
	Role      string          `json:"role,omitempty"`
	Content   *string         `json:"content,omitempty"`
	Reasoning string          `json:"reasoning_content,omitempty"`
	ToolCalls []deltaToolCall `json:"tool_calls,omitempty"`
}

type deltaToolCall struct {
	Index    int           `json:"index"`
	ID       string        `json:"id,omitempty"`
	Type     string        `json:"type,omitempty"`
	Function deltaFunction `json:"function"`
}

type deltaFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

// sseWriter writes one answer as server-sent events, flushing each event so
// the client sees it when a real server would send it.
type sseWriter struct {
	w       http.ResponseWriter
	id      string
	model   string
	written int
}

func (s *sseWriter) event(data string) {
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	if f, ok := s.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *sseWriter) send(c chunk) {
	c.ID, c.Object, c.Created, c.Model, c.SystemFingerprint = s.id, "chat.completion.chunk", created, s.model, "fp_modeltest"
	data, _ := json.Marshal(c)
	s.event(string(data))
	s.written++
}

func (s *sseWriter) delta(d delta, finish *string) {
	s.send(chunk{Choices: []chunkChoice{{Delta: d, FinishReason: finish}}})
}

// pieces streams the role, the text and the tool-call pieces of t.
func (s *sseWriter) pieces(t Turn) {
	empty := ""
	s.delta(delta{Role: "assistant", Content: &empty}, nil)
	for _, r := range t.Reasoning {
		s.delta(delta{Reasoning: r}, nil)
	}
	for _, text := range t.Text {
		s.delta(delta{Content: &text}, nil)
	}
	for _, call := range toolCallPieces(t) {
		s.delta(delta{ToolCalls: []deltaToolCall{call}}, nil)
	}
}

// finish ends a complete answer: the finish chunk, the usage chunk when the
// request asked for it, and [DONE].
func (s *sseWriter) finish(t Turn, req Request) {
	reason := finishReason(t)
	s.delta(delta{}, &reason)
	if req.IncludeUsage {
		s.send(chunk{Choices: []chunkChoice{}, Usage: usageOf(req, s.written)})
	}
	s.event("[DONE]")
}

func (s *sseWriter) streamError(message string) {
	data, _ := json.Marshal(map[string]any{"error": map[string]string{"message": message, "type": "api_error"}})
	s.event(string(data))
}

// toolCallPieces lists the deltas of the turn's tool calls: each call's
// first piece (index, id, type, name), then one per argument fragment.
func toolCallPieces(t Turn) []deltaToolCall {
	perCall := make([][]deltaToolCall, len(t.ToolCalls))
	for i, call := range t.ToolCalls {
		index := i
		if call.Index != nil {
			index = *call.Index
		}
		first := deltaToolCall{Index: index, ID: call.ID, Type: "function", Function: deltaFunction{Name: call.Name}}
		perCall[i] = append(perCall[i], first)
		for _, arg := range call.Arguments {
			perCall[i] = append(perCall[i], deltaToolCall{Index: index, Function: deltaFunction{Arguments: arg}})
		}
	}
	if t.Interleave {
		return roundRobin(perCall)
	}
	var out []deltaToolCall
	for _, p := range perCall {
		out = append(out, p...)
	}
	return out
}

func roundRobin(lists [][]deltaToolCall) []deltaToolCall {
	var out []deltaToolCall
	for round := 0; ; round++ {
		added := false
		for _, l := range lists {
			if round < len(l) {
				out = append(out, l[round])
				added = true
			}
		}
		if !added {
			return out
		}
	}
}

func finishReason(t Turn) string {
	switch {
	case t.FinishReason != "":
		return t.FinishReason
	case len(t.ToolCalls) > 0:
		return "tool_calls"
	}
	return "stop"
}

// usageOf makes plausible token counts: a real server's would differ, and
// no test should depend on them. The prompt's is the request's bytes over
// four, never less than model.EstimateTokens of it, so that Turn takes no
// scripted answer for one whose prompt the server cut short.
func usageOf(req Request, pieces int) *usage {
	prompt := len(req.Body) / 4
	return &usage{PromptTokens: prompt, CompletionTokens: pieces, TotalTokens: prompt + pieces}
}
