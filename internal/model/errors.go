package model

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinels for the ways a request to the model server fails. Every error
// Stream and Check return for these cases matches one with errors.Is, and its
// message says what to do; callers branch on the sentinel, people read the text.
var (
	// ErrServerDown: nothing accepts connections at the base URL.
	ErrServerDown = errors.New("the model server is not answering")
	// ErrModelMissing: the server runs but does not have the model.
	ErrModelMissing = errors.New("the model is not on the server")
	// ErrNoEndpoint: something answers at the base URL but it is not an
	// OpenAI-compatible API (usually a base URL without its /v1).
	ErrNoEndpoint = errors.New("the server has no chat completions endpoint")
	// ErrUnauthorized: the server refused the API key (HTTP 401 or 403).
	ErrUnauthorized = errors.New("the model server refused the API key")
	// ErrCutOff: the answer stopped before the server said it was complete.
	ErrCutOff = errors.New("the model's answer was cut off")
	// ErrStalled: the server sent nothing for the idle timeout.
	ErrStalled = errors.New("the model server stopped sending")

	// ErrEmptyAnswer: the model finished its turn with no answer text and
	// no tool call (often after thinking only). Turn returns it; the
	// agent says "· the model answered nothing" and Error.Hint.
	ErrEmptyAnswer = errors.New("the model answered nothing")
	// ErrLength: the answer stopped at the server's output limit
	// (finish_reason "length"); the message holds what came.
	ErrLength = errors.New("the model hit its output limit")
	// ErrRepeating: the model repeated itself and Turn stopped the stream
	// (a *RepeatError).
	ErrRepeating = errors.New("the model is repeating itself")
	// ErrContextFull: the conversation does not fit the model's context:
	// the server refused it, or stopped because the context filled up.
	// The agent compacts the history and asks again.
	ErrContextFull = errors.New("the conversation does not fit the model's context")
	// ErrToolsUnsupported: the server or model cannot take tools (a
	// *ToolsUnsupportedError).
	ErrToolsUnsupported = errors.New("the model cannot use tools")

	// errUnreachable marks a request that failed before any response.
	errUnreachable = errors.New("the request reached no server")
)

// Error is a failure of one request, with a message for the person and the
// sentinel (Kind) and cause it wraps.
type Error struct {
	Kind  error
	Msg   string
	Cause error
	// Hints are what the person may try, one line each (may be nil).
	Hints []string
}

func (e *Error) Error() string { return e.Msg }

// Hint is what the person may try, one line each.
func (e *Error) Hint() []string { return e.Hints }

// Hints returns the lines of what to try that err carries (an error with
// a Hint method anywhere in its chain), nil if none.
func Hints(err error) []string {
	var h interface{ Hint() []string }
	if errors.As(err, &h) {
		return h.Hint()
	}
	return nil
}

// Unwrap exposes both the sentinel and the underlying cause to errors.Is/As.
func (e *Error) Unwrap() []error {
	if e.Cause == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Cause}
}

// ServerError is an error the server reported: an HTTP status other than
// the ones with a sentinel, or an error event inside the stream (Status 0).
type ServerError struct {
	Status  int
	Message string
	// RetryAfter is the wait the server asked for (Retry-After), 0 if none.
	RetryAfter time.Duration
}

func (e *ServerError) Error() string {
	if e.Status == 0 {
		return "the model server reported an error while answering: " + e.Message
	}
	if isWebPage(e.Message) {
		return fmt.Sprintf("the model server answered HTTP %d with %s%s", e.Status, e.Message, webPageCheck)
	}
	return fmt.Sprintf("the model server answered HTTP %d: %s", e.Status, e.Message)
}

// ToolCallError is one tool call the model sent malformed. Its message is
// written for the model: the agent hands it back as that call's tool result
// (with Call.ID) so the model can send the call again.
type ToolCallError struct {
	Call    ToolCall
	Problem string
}

func (e *ToolCallError) Error() string {
	name := e.Call.Name
	if name == "" {
		name = "(no name)"
	}
	return fmt.Sprintf("the tool call %s (id %s) was not run: %s", name, e.Call.ID, e.Problem)
}

// ToolCallErrors lists every *ToolCallError in err, which Stream joins when
// several calls of one answer are malformed.
func ToolCallErrors(err error) []*ToolCallError {
	var found []*ToolCallError
	var walk func(error)
	walk = func(err error) {
		var tce *ToolCallError
		if errors.As(err, &tce) && err == error(tce) {
			found = append(found, tce)
			return
		}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, inner := range joined.Unwrap() {
				walk(inner)
			}
		}
	}
	if err != nil {
		walk(err)
	}
	return found
}

// mentionsMissingModel reports whether a server's error text says the
// requested model does not exist, in the words Ollama, OpenAI, vLLM and
// LM Studio use.
func mentionsMissingModel(code, message string) bool {
	if code == "model_not_found" {
		return true
	}
	m := strings.ToLower(message)
	return strings.Contains(m, "model") &&
		(strings.Contains(m, "not found") || strings.Contains(m, "does not exist"))
}
