package model

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
)

// The OpenAI chat completions protocol, as far as wisp speaks it: the
// request's JSON, the server-sent events of the answer, the model list.
// It is written here, on net/http and encoding/json, rather than taken
// from an SDK (docs/decisions.md, D33): what wisp sends and reads is a
// dozen fields, and the SDKs cost minutes of every cold build and lint
// and megabytes of the binary, or change the wire (an empty content left
// out, a request refused before it is sent for a model's name).

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Stream        bool          `json:"stream"`
	StreamOptions streamOptions `json:"stream_options"`
	Tools         []wireTool    `json:"tools,omitempty"`
}

type streamOptions struct {
	// IncludeUsage asks for the usage chunk, which tells the prompt
	// tokens the server read.
	IncludeUsage bool `json:"include_usage"`
}

// wireMessage is one message of the conversation. Content is a pointer
// because an assistant message that only calls tools has no content at
// all, while every other message sends its content even when empty: some
// servers (llama.cpp) refuse a message with neither content nor calls.
type wireMessage struct {
	Role       string         `json:"role"`
	Content    *string        `json:"content,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"` // function
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string          `json:"type"` // function
	Function wireFunctionDef `json:"function"`
}

type wireFunctionDef struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters"`
}

// chunk is one event of a streamed answer: only the fields wisp reads.
type chunk struct {
	Choices []chunkChoice `json:"choices"`
	Usage   *chunkUsage   `json:"usage"`
	// Error is set when the event is a server's error report, such as
	// llama.cpp's {"error":{"message":…}} or vLLM's, mid-stream.
	Error json.RawMessage `json:"error"`
}

type chunkChoice struct {
	Index        int64      `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"`
}

type chunkDelta struct {
	Content string `json:"content"`
	// The thinking, in the field the server uses for it: reasoning_content
	// (llama.cpp, vLLM, LM Studio, DeepSeek) or reasoning (Ollama, newer
	// vLLM). Raw, so that a server that sends it in another shape loses
	// only the thinking, not the chunk.
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ToolCalls        []toolCallDelta `json:"tool_calls"`
}

// toolCallDelta is a piece of a tool call: the first brings its index, id
// and name, later ones more of its arguments.
type toolCallDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chunkUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

// decodeLenient decodes data into v, passing over a field of an
// unexpected type (which stays zero) as the SDKs do: a server that sends
// "index": "0" or a number as a string should not lose the whole chunk.
// Malformed JSON is still an error.
func decodeLenient(data []byte, v any) error {
	return lenient(json.Unmarshal(data, v))
}

// lenient is err, but nil for a field of an unexpected type.
func lenient(err error) error {
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		return nil
	}
	return err
}

// streamError is an error event inside the stream, such as a server that
// ran out of memory or context after it began to answer.
type streamError struct{ data []byte }

func (e *streamError) Error() string {
	return "received error while streaming: " + string(e.data)
}

// events reads server-sent events: "data:" lines joined until a blank
// line, comments (": keep-alive") and other fields passed over, an event
// left without its blank line at the end dropped, as the OpenAI SDKs
// read them.
type events struct {
	scan *bufio.Scanner
	data []byte
}

// maxEventLine bounds one line of an event (a whole chunk): 32 MiB.
const maxEventLine = bufio.MaxScanTokenSize << 9

func newEvents(r io.Reader) *events {
	scan := bufio.NewScanner(r)
	scan.Buffer(nil, maxEventLine)
	return &events{scan: scan}
}

// next returns the data of the next event, false at the end of the stream
// or on a read error (Err).
func (e *events) next() ([]byte, bool) {
	e.data = e.data[:0]
	for e.scan.Scan() {
		line := e.scan.Bytes()
		if len(line) == 0 {
			if len(e.data) > 0 {
				return e.data, true
			}
			continue
		}
		name, value, _ := bytes.Cut(line, []byte(":"))
		if string(name) != "data" {
			continue // a comment, event:, id: or retry:
		}
		value = bytes.TrimPrefix(value, []byte(" "))
		e.data = append(e.data, value...)
		e.data = append(e.data, '\n')
	}
	return nil, false
}

func (e *events) err() error { return e.scan.Err() }

// readEvent decodes one event: done at "[DONE]", a *streamError for an error
// event.
func readEvent(data []byte) (c chunk, done bool, err error) {
	if bytes.HasPrefix(data, []byte("[DONE]")) {
		return chunk{}, true, nil
	}
	if err := decodeLenient(data, &c); err != nil {
		return chunk{}, false, err
	}
	if len(c.Error) > 0 {
		return chunk{}, false, &streamError{data: bytes.Clone(data)}
	}
	return c, false, nil
}

// post sends body as JSON to path under the base URL.
func (c *Client) post(ctx context.Context, path string, body any) (*http.Response, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	return c.send(req)
}

// send adds the API key and sends req.
func (c *Client) send(req *http.Request) (*http.Response, error) {
	req.Header.Set("Authorization", "Bearer "+c.key)
	return c.http.Do(req)
}

// modelList is the answer to GET /models.
type modelList struct {
	Data []struct {
		ID string `json:"id"`
	} `json:"data"`
}

// errNotAList: the answer to GET /models was no JSON.
var errNotAList = errors.New("the model list is not JSON")

// listModels asks GET /models. A status of 400 or more comes back as the
// error statusError makes of it; answered says whether the server
// answered at all.
func (c *Client) listModels(ctx context.Context) (names []string, answered bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.baseURL+"/models", nil)
	if err != nil {
		return nil, false, err
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.send(req)
	if err != nil {
		return nil, false, err
	}
	if res.StatusCode >= 400 {
		return nil, false, c.statusError(res)
	}
	defer res.Body.Close()
	mediaType, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type"))
	if !strings.Contains(mediaType, "application/json") && !strings.HasSuffix(mediaType, "+json") {
		return nil, true, errNotAList
	}
	var list modelList
	if err := lenient(json.NewDecoder(res.Body).Decode(&list)); err != nil {
		return nil, true, err
	}
	for _, m := range list.Data {
		names = append(names, m.ID)
	}
	return names, true, nil
}
