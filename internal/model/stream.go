package model

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
)

// errIdle is the cancel cause the idle watchdog sets.
var errIdle = errors.New("idle timeout")

// Stream sends the conversation and the tools, passes the assistant's text to
// onText (may be nil) as it arrives, and returns the whole assistant message
// with its tool calls. On failure the message holds what arrived before it
// and the error is one of this package's (see errors.go); a ctx cancelled
// stops the request and returns ctx.Err() wrapped. When only tool calls are
// malformed, the message is complete and the error is one *ToolCallError per
// bad call (see ToolCallErrors), to hand back to the model as tool results.
// A Client may stream several conversations at once.
func (c *Client) Stream(ctx context.Context, msgs []Message, tools []Tool, onText func(string)) (Message, error) {
	params, err := c.params(msgs, tools)
	if err != nil {
		return Message{}, err
	}
	msg, err := c.withRetries(ctx, func() (Message, bool, error) { return c.streamOnce(ctx, params, onText) })
	var missing *Error
	if errors.As(err, &missing) && missing.Kind == ErrModelMissing && ctx.Err() == nil {
		err = c.missing(ctx, missing.Cause)
	}
	return msg, err
}

// streamOnce is one request; started once any of the answer arrived.
func (c *Client) streamOnce(ctx context.Context, params openai.ChatCompletionNewParams, onText func(string)) (Message, bool, error) {
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	watchdog := time.AfterFunc(c.idle, func() { cancel(errIdle) })
	defer watchdog.Stop()

	var answered atomic.Bool
	stream := c.chat.NewStreaming(reqCtx, params, option.WithMiddleware(c.statusMiddleware(&answered)))
	defer stream.Close()
	var acc answer
	for stream.Next() {
		// The watchdog times the server, not onText (a slow terminal).
		watchdog.Stop()
		acc.add(stream.Current(), onText)
		watchdog.Reset(c.idle)
	}
	msg := acc.message()
	started := len(acc.text) > 0 || len(msg.ToolCalls) > 0
	if err := stream.Err(); err != nil && !acc.finished {
		return msg, started, c.classify(ctx, reqCtx, err, answered.Load())
	}
	if !acc.finished {
		return msg, started, c.cutOff(nil)
	}
	return msg, started, checkToolCalls(msg.ToolCalls)
}

func (c *Client) params(msgs []Message, tools []Tool) (openai.ChatCompletionNewParams, error) {
	wire, err := toParams(msgs)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	p := openai.ChatCompletionNewParams{Model: c.name, Messages: wire}
	if len(tools) > 0 {
		p.Tools = toToolParams(tools)
	}
	return p, nil
}

// answer accumulates the chunks of one streamed answer.
type answer struct {
	text     []byte
	calls    toolCallAssembler
	finished bool // a finish_reason arrived: the answer is whole
}

func (a *answer) add(chunk openai.ChatCompletionChunk, onText func(string)) {
	// The usage chunk and some servers' keep-alive chunks carry no choices.
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue
		}
		if d := choice.Delta.Content; d != "" {
			a.text = append(a.text, d...)
			if onText != nil {
				onText(d)
			}
		}
		for _, tc := range choice.Delta.ToolCalls {
			a.calls.add(tc)
		}
		if choice.FinishReason != "" {
			a.finished = true
		}
	}
}

func (a *answer) message() Message {
	return Message{Role: RoleAssistant, Content: string(a.text), ToolCalls: a.calls.calls()}
}

// statusMiddleware turns an HTTP error response into a typed error before
// the SDK parses its body (which fails on bodies that are not OpenAI's shape,
// such as Ollama's {"error":"..."} or a plain-text 404), and notes when the
// server has begun to answer.
func (c *Client) statusMiddleware(answered *atomic.Bool) option.Middleware {
	return func(req *http.Request, next option.MiddlewareNext) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res.StatusCode < 400 {
			answered.Store(err == nil)
			return res, err
		}
		// The response stays attached so the SDK still decides on retries.
		return res, c.statusError(res)
	}
}

func (c *Client) cutOff(cause error) error {
	msg := "the model server's answer was cut off before it finished; retry the request"
	if cause != nil {
		msg = fmt.Sprintf("the model server's answer was cut off before it finished (%v); retry the request", cause)
	}
	return &Error{Kind: ErrCutOff, Msg: msg, Cause: cause}
}
