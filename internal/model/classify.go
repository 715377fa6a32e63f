package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// maxErrorBody bounds how much of an error response is read.
const maxErrorBody = 64 << 10

// maxMessageLen bounds a plain-text server message quoted in an error.
const maxMessageLen = 300

// classify turns what the request or the stream returned into this package's errors. ctx is
// the caller's context, reqCtx the request's (which the watchdog cancels).
func (c *Client) classify(ctx, reqCtx context.Context, err error, answered bool) error {
	if ctx.Err() != nil {
		return cancelled(ctx)
	}
	if errors.Is(context.Cause(reqCtx), errIdle) {
		return &Error{Kind: ErrStalled, Msg: fmt.Sprintf("the model server at %s sent nothing for %s; "+
			"it may be stuck or overloaded: check it and retry", c.baseURL, c.idle)}
	}
	if errors.Is(context.Cause(reqCtx), errFirstByte) {
		return &Error{Kind: ErrStalled, Msg: fmt.Sprintf("the model server at %s sent nothing for %s after the "+
			"request; it may be stuck, or still loading a model too large for this machine: check it and retry",
			c.baseURL, c.firstByte)}
	}
	var typed *Error
	var server *ServerError
	var tools *ToolsUnsupportedError
	if errors.As(err, &typed) || errors.As(err, &server) || errors.As(err, &tools) {
		return err
	}
	var streamErr *streamError
	if errors.As(err, &streamErr) {
		se := &ServerError{Message: errorMessage(streamErr.data)}
		if contextRefusal(se.Message) {
			return c.contextFull(se)
		}
		return se
	}
	if answered {
		return c.cutOff(err)
	}
	return c.unreachable(err)
}

func cancelled(ctx context.Context) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("the request ran out of time: %w", ctx.Err())
	}
	return fmt.Errorf("the request was cancelled: %w", ctx.Err())
}

// unreachable explains a failure before any response arrived.
func (c *Client) unreachable(err error) error {
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Op == "dial" {
		return &Error{Kind: ErrServerDown, Cause: err, Msg: fmt.Sprintf("the model server at %s is not "+
			"answering; start it (ollama serve) or set model.baseURL", c.baseURL)}
	}
	return fmt.Errorf("the request to the model server at %s failed: %w; check model.baseURL and the server%w",
		c.baseURL, err, quiet{errUnreachable})
}

// statusError reads an HTTP error response and says what it means.
func (c *Client) statusError(res *http.Response) error {
	body, _ := io.ReadAll(io.LimitReader(res.Body, maxErrorBody))
	_ = res.Body.Close()
	code, message := errorFields(body)
	switch {
	case res.StatusCode == http.StatusUnauthorized || res.StatusCode == http.StatusForbidden:
		return c.unauthorized(res.StatusCode, message)
	case (res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusBadRequest) &&
		mentionsMissingModel(code, message):
		return c.modelMissing(&ServerError{Status: res.StatusCode, Message: message})
	case res.StatusCode == http.StatusNotFound:
		return &Error{Kind: ErrNoEndpoint, Cause: &ServerError{Status: res.StatusCode, Message: message},
			Msg: fmt.Sprintf("the server at %s has no chat completions endpoint (HTTP 404: %s); check "+
				"model.baseURL, which usually ends in /v1", c.baseURL, message)}
	}
	if tools := c.toolsRefusal(res.StatusCode, message); tools != nil {
		return tools
	}
	se := &ServerError{Status: res.StatusCode, Message: message,
		RetryAfter: parseRetryAfter(res.Header.Get("Retry-After"), time.Now())}
	if res.StatusCode < 500 && contextRefusal(message) {
		return c.contextFull(se)
	}
	return se
}

// quiet wraps a sentinel so that %w adds it to the chain and nothing to
// the message.
type quiet struct{ err error }

func (q quiet) Error() string { return "" }
func (q quiet) Unwrap() error { return q.err }

func (c *Client) modelMissing(cause error) error {
	return &Error{Kind: ErrModelMissing, Cause: cause,
		Msg: fmt.Sprintf("the model %s is not on the server at %s", c.name, c.baseURL)}
}

func (c *Client) unauthorized(status int, message string) error {
	head := fmt.Sprintf("the model server at %s wants an API key (HTTP %d: %s)", c.baseURL, status, message)
	var msg string
	switch {
	case c.apiKeyEnv == "":
		msg = head + "; set model.apiKeyEnv to the name of the environment variable that holds it"
	case !c.keySet:
		msg = fmt.Sprintf("%s and the environment variable %s (model.apiKeyEnv) is empty; put the key in it",
			head, c.apiKeyEnv)
	default:
		msg = fmt.Sprintf("the model server at %s refused the API key in the environment variable %s "+
			"(HTTP %d: %s); check the key", c.baseURL, c.apiKeyEnv, status, message)
	}
	return &Error{Kind: ErrUnauthorized, Msg: msg, Cause: &ServerError{Status: status, Message: message}}
}

// errorMessage is the human part of an error body.
func errorMessage(body []byte) string {
	_, message := errorFields(body)
	return message
}

// errorFields reads the code and message of an error body in the shapes
// servers use: OpenAI {"error":{"message","code"}}, Ollama {"error":"..."},
// vLLM {"message":"..."}, or plain text.
func errorFields(body []byte) (code, message string) {
	var shaped struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(body, &shaped) == nil {
		var nested struct {
			Message string          `json:"message"`
			Code    json.RawMessage `json:"code"`
		}
		var flat string
		switch {
		case json.Unmarshal(shaped.Error, &flat) == nil && flat != "":
			return "", flat
		case json.Unmarshal(shaped.Error, &nested) == nil && nested.Message != "":
			return strings.Trim(string(nested.Code), `"`), nested.Message
		case shaped.Message != "":
			return "", shaped.Message
		}
	}
	return "", plainText(body)
}

// plainText makes a body that is not JSON (a proxy's HTML page, a framework's
// "404 page not found") fit on one line of an error message: of a web page,
// its title or first line only.
func plainText(body []byte) string {
	if page, ok := webPageMessage(body); ok {
		return page
	}
	text := strings.Join(strings.Fields(string(body)), " ")
	if text == "" {
		return "no message"
	}
	if len(text) > maxMessageLen {
		text = text[:maxMessageLen] + "…"
	}
	return text
}
