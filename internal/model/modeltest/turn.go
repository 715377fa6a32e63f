package modeltest

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Turn scripts the server's answer to one chat completions request. The zero
// Turn answers with an empty message and finish_reason "stop".
type Turn struct {
	// Reasoning is the model's thinking, sent before the text as
	// reasoning_content deltas (llama.cpp's, vLLM's and LM Studio's
	// field), one per element. Thinking in <think> tags goes in Text.
	Reasoning []string `json:"reasoning,omitempty"`
	// Text is the assistant's text, one content delta per element.
	Text []string `json:"text,omitempty"`
	// ToolCalls follow the text, each streamed as its own pieces.
	ToolCalls []ToolCallScript `json:"toolCalls,omitempty"`
	// Interleave sends the calls' pieces round-robin (call 0's first piece,
	// call 1's first piece, ...) instead of one call after another.
	Interleave bool `json:"interleave,omitempty"`
	// FinishReason overrides "stop" / "tool_calls" (for example "length").
	FinishReason string `json:"finishReason,omitempty"`

	// Status, when set, answers with this HTTP status and ErrorBody (or an
	// OpenAI-shaped error body) instead of a stream.
	Status    int    `json:"status,omitempty"`
	ErrorBody string `json:"errorBody,omitempty"`
	// ModelMissing answers 404 with Ollama's body for an unpulled model.
	ModelMissing bool `json:"modelMissing,omitempty"`

	// CutOff drops the connection after the text and tool-call pieces,
	// before the finish chunk and [DONE].
	CutOff bool `json:"cutOff,omitempty"`
	// Hang sends the text and tool-call pieces and then nothing more until
	// the client goes away or the server closes.
	Hang bool `json:"hang,omitempty"`
	// WaitFor, when set, is a path: the server sends nothing for this
	// turn, not even the headers, until a file there exists (a test makes
	// it when it has seen what shows while the model is silent).
	WaitFor string `json:"waitFor,omitempty"`
	// RetryAfter is sent as the Retry-After header with Status.
	RetryAfter string `json:"retryAfter,omitempty"`

	// StreamError sends an error event after the pieces, as Ollama does when
	// generation fails mid-answer, and ends the stream.
	StreamError string `json:"streamError,omitempty"`
}

// ToolCallScript is one tool call. Name goes out in the call's first piece
// (with ID and type), each element of Arguments in a piece of its own.
type ToolCallScript struct {
	ID        string   `json:"id,omitempty"`
	Name      string   `json:"name,omitempty"`
	Arguments []string `json:"arguments,omitempty"`
	// Index overrides the call's position as its delta index (older Ollama
	// sent every call with index 0).
	Index *int `json:"index,omitempty"`
}

// ParseScript reads a JSON array of turns, the form ListenAndServeScript takes.
func ParseScript(data []byte) ([]Turn, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var turns []Turn
	if err := dec.Decode(&turns); err != nil {
		return nil, fmt.Errorf("modeltest: the script is not a JSON array of turns: %w", err)
	}
	return turns, nil
}
