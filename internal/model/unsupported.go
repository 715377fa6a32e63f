package model

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// ToolsUnsupportedError is a server refusing a request because it offers
// tools: the model has no tool support (Ollama), or the server was started
// without it (llama.cpp without --jinja, vLLM without
// --enable-auto-tool-choice). errors.Is(err, ErrToolsUnsupported).
type ToolsUnsupportedError struct {
	Model, BaseURL string
	Status         int    // the HTTP status of the refusal
	Message        string // the server's words
	// ServerFlag is the server option that turns tools on, "" when it is
	// the model that cannot use them.
	ServerFlag string
	// ToolModels are the server's models that say they can use tools
	// (Ollama's capabilities), nil when the server does not say.
	ToolModels []string
}

func (e *ToolsUnsupportedError) Error() string {
	if e.ServerFlag != "" {
		return fmt.Sprintf("the model server at %s was started without tool calling, so %s cannot use wisp's tools "+
			"(HTTP %d: %s)", e.BaseURL, e.Model, e.Status, e.Message)
	}
	return fmt.Sprintf("the model %s cannot use tools, so it cannot run commands or read files for you "+
		"(HTTP %d: %s)", e.Model, e.Status, e.Message)
}

// Hint says what to do: restart the server with its flag, or switch to a
// tool-capable model (/model NAME), or talk to this one without tools.
func (e *ToolsUnsupportedError) Hint() []string {
	var h []string
	or := "" // the first way says no "or"
	if e.ServerFlag != "" {
		h, or = append(h, "restart the server with "+e.ServerFlag), "or "
	}
	switch {
	case len(e.ToolModels) > 0:
		h = append(h, fmt.Sprintf("%s/model NAME with a model that can use tools; this server has: %s",
			or, strings.Join(clipList(e.ToolModels, 8), ", ")))
	default:
		h = append(h, or+"/model NAME with a model that can use tools (qwen3, qwen2.5-coder, llama3.1, granite4 …)")
	}
	return append(h, "or talk to this model without tools: it can answer but not act")
}

func (e *ToolsUnsupportedError) Unwrap() error { return ErrToolsUnsupported }

func clipList(names []string, n int) []string {
	if len(names) <= n {
		return names
	}
	return append(append([]string(nil), names[:n]...), "…")
}

// toolsRefusal reads a server's refusal of tools from an HTTP error,
// nil when it is not one.
func (c *Client) toolsRefusal(status int, message string) *ToolsUnsupportedError {
	m := strings.ToLower(message)
	e := &ToolsUnsupportedError{Model: c.name, BaseURL: c.baseURL, Status: status, Message: message}
	switch {
	case strings.Contains(m, "does not support tools"): // Ollama
	case strings.Contains(m, "tools param requires --jinja"): // llama.cpp
		e.ServerFlag = "--jinja"
	case strings.Contains(m, "--enable-auto-tool-choice"): // vLLM
		e.ServerFlag = "--enable-auto-tool-choice and a --tool-call-parser for the model"
	default:
		return nil
	}
	if status < http.StatusBadRequest {
		return nil
	}
	return e
}

// toolsUnsupported adds to e the server's models that can use tools,
// where the server says (Ollama's /api/tags).
func (c *Client) toolsUnsupported(ctx context.Context, e *ToolsUnsupportedError) error {
	if e.ServerFlag == "" && c.IsOllama(ctx) {
		e.ToolModels, _ = c.ToolModels(ctx)
	}
	return e
}

// contextRefusal reports whether a server's error says the conversation
// does not fit the model's context, in the words llama.cpp, vLLM, LM
// Studio and Ollama use.
func contextRefusal(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{
		"exceeds the available context size", // llama.cpp, before answering
		"context size has been exceeded",     // llama.cpp, while answering
		"maximum context length",             // vLLM, OpenAI
		"greater than the context length",    // LM Studio (llama.cpp engine n_keep)
		"context length exceeded",            // others
		"prompt is too long",                 // others
		"input length exceeds the context",   // others
	} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

func (c *Client) contextFull(cause *ServerError) error {
	return &Error{Kind: ErrContextFull, Cause: cause,
		Msg: fmt.Sprintf("the conversation is longer than the context the model server gives %s (%s)", c.name, cause.Message),
		Hints: []string{
			"wisp compacts the conversation and asks again",
			"or load the model with a larger context (Ollama: num_ctx, model.contextTokens; llama.cpp: --ctx-size; LM Studio: context length)",
		}}
}
