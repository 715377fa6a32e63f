package modeltest

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/model"
)

// Request is one chat completions request as the server received it.
type Request struct {
	Model         string
	Messages      []model.Message
	Tools         []model.Tool
	Stream        bool
	IncludeUsage  bool   // stream_options.include_usage
	Authorization string // the header as sent, "Bearer ..."
	Body          []byte // the raw JSON body
}

type wireRequest struct {
	Model         string        `json:"model"`
	Messages      []wireMessage `json:"messages"`
	Tools         []wireTool    `json:"tools"`
	Stream        bool          `json:"stream"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

type wireMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCalls  []wireToolCall  `json:"tool_calls"`
	ToolCallID string          `json:"tool_call_id"`
}

type wireToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type wireTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string         `json:"name"`
		Description string         `json:"description"`
		Parameters  map[string]any `json:"parameters"`
	} `json:"function"`
}

func parseRequest(body []byte, authorization string) (Request, error) {
	var w wireRequest
	if err := json.Unmarshal(body, &w); err != nil {
		return Request{}, fmt.Errorf("the request body is not a chat completions request: %w", err)
	}
	if w.Model == "" || len(w.Messages) == 0 {
		return Request{}, fmt.Errorf("the request has no model or no messages")
	}
	r := Request{Model: w.Model, Stream: w.Stream, Authorization: authorization, Body: body,
		IncludeUsage: w.StreamOptions != nil && w.StreamOptions.IncludeUsage}
	for _, m := range w.Messages {
		msg, err := m.message()
		if err != nil {
			return Request{}, err
		}
		r.Messages = append(r.Messages, msg)
	}
	for _, t := range w.Tools {
		r.Tools = append(r.Tools, model.Tool{Name: t.Function.Name,
			Description: t.Function.Description, Parameters: t.Function.Parameters})
	}
	return r, nil
}

func (m wireMessage) message() (model.Message, error) {
	content, err := contentText(m.Content)
	if err != nil {
		return model.Message{}, fmt.Errorf("a %s message: %w", m.Role, err)
	}
	msg := model.Message{Role: m.Role, Content: content, ToolCallID: m.ToolCallID}
	for _, tc := range m.ToolCalls {
		msg.ToolCalls = append(msg.ToolCalls, model.ToolCall{ID: tc.ID,
			Name: tc.Function.Name, Arguments: tc.Function.Arguments})
	}
	return msg, nil
}

// contentText reads content as the protocol allows it: a string, null or
// absent, or an array of text parts.
func contentText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("content is neither a string nor a list of parts: %w", err)
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String(), nil
}
