package model

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// DeltaKind says what a Delta carries.
type DeltaKind int

const (
	// DeltaText is answer text, to show as the answer.
	DeltaText DeltaKind = iota
	// DeltaReasoning is the model's thinking: show it folded or marked as
	// thinking, or not at all; it never goes back to the model.
	DeltaReasoning
	// DeltaRetract says that the answer text given so far in this turn was
	// thinking after all (a model that closes a </think> it never opened,
	// as DeepSeek-R1 distills do); Text is that text. A face that can,
	// turns what it showed into thinking.
	DeltaRetract
)

// Delta is one piece of a streamed answer.
type Delta struct {
	Kind DeltaKind
	Text string
}

// Request is one turn asked of the model.
type Request struct {
	Messages []Message
	Tools    []Tool
	// OnDelta is given the answer and the thinking as they arrive (may
	// be nil). Text that may turn out to be a tool call written as text
	// (content that begins with "{", "```", "<tool_call>" or
	// "<function=") is held back until the answer ends.
	OnDelta func(Delta)
	// ContextTokens, when above 0, is the context size the agent plans
	// for. It is not sent: no OpenAI-compatible endpoint reads a context
	// size from the request (Ollama's /v1 takes no options, nor do
	// llama.cpp's or LM Studio's). The context Ollama loads is the
	// server's (OLLAMA_CONTEXT_LENGTH, 4096 by default) or the Modelfile's
	// num_ctx, and Result.Truncated is how the agent learns that it was
	// too small.
	ContextTokens int
	// NoTextCalls turns off RecoverToolCalls on the answer.
	NoTextCalls bool
}

// Result is what a turn came to.
type Result struct {
	// Message is the assistant's message for the history: the answer and
	// the tool calls, never the thinking.
	Message Message
	// Reasoning is the thinking, for a face to show; not for the history.
	Reasoning string
	// FinishReason is the server's: "stop", "length", "tool_calls", or ""
	// when it sent none.
	FinishReason string
	// Usage is what the server counted (zero when it did not say).
	Usage Usage
	// SentTokens is EstimateTokens of what was sent.
	SentTokens int
	// Truncated is set when the server counted far fewer prompt tokens
	// than were sent: it dropped part of the conversation (Ollama does so
	// without a word when the context is too small). The agent should
	// compact, and say how to give the model a larger context.
	Truncated *Truncation
	// Recovered: the calls were written as text and RecoverToolCalls read
	// them; the agent runs them as any call and says so in the audit.
	Recovered bool
	// ToolsDropped: the server refused tools and, as WithToolsFallback
	// asked, the turn was sent again without them.
	ToolsDropped bool
	// Waited is how long the turn waited for a model that was loading.
	Waited Status
}

// Usage is the server's count of tokens for one turn.
type Usage struct {
	PromptTokens, CompletionTokens int
}

// Truncation is the server counting fewer prompt tokens than were sent.
type Truncation struct {
	Sent, Counted int // estimated tokens sent, prompt tokens the server counted
}

// Notice is the · line a face shows.
func (t *Truncation) Notice() string {
	return fmt.Sprintf("· the model server read only %d of about %d tokens of the conversation: "+
		"its context is smaller than the conversation and it dropped the oldest part", t.Counted, t.Sent)
}

// truncated reports a truncation: the server counted less than 60% of
// the estimate, and at least 512 tokens less (an estimate is rough).
func truncated(sent, counted int) *Truncation {
	if counted <= 0 || counted*10 >= sent*6 || sent-counted < 512 {
		return nil
	}
	return &Truncation{Sent: sent, Counted: counted}
}

// EstimateTokens is a rough count of the tokens msgs and tools take: four
// bytes a token, plus a few for each message's framing.
func EstimateTokens(msgs []Message, tools []Tool) int {
	n := 0
	for _, m := range msgs {
		n += 4 + len(m.Content)/4
		for _, c := range m.ToolCalls {
			n += 4 + (len(c.Name)+len(c.Arguments))/4
		}
	}
	for _, t := range tools {
		n += 8 + (len(t.Name)+len(t.Description))/4 + schemaBytes(t.Parameters)/4
	}
	return n
}

// Turn sends one request and streams the answer: thinking (from the
// server's reasoning fields or <think> tags in the content) and answer
// text go to req.OnDelta as separate kinds, and the result's Message holds
// only the answer and the calls. Beyond Stream's errors (errors.go), it
// returns, with the result so far:
//
//   - ErrEmptyAnswer: the model finished with no answer and no call;
//   - ErrLength: the answer stopped at the output limit;
//   - a *RepeatError (ErrRepeating): the model looped and was stopped;
//   - ErrContextFull: the conversation does not fit the context;
//   - a *ToolsUnsupportedError (ErrToolsUnsupported), unless
//     WithToolsFallback sent the turn again without tools.
//
// Calls written as text (RecoverToolCalls) come back as calls, with
// Result.Recovered set, unless req.NoTextCalls. Hints(err) is what to try.
func (c *Client) Turn(ctx context.Context, req Request) (Result, error) {
	res, err := c.turn(ctx, req, turnChecks{textCalls: !req.NoTextCalls, repeats: true})
	if err != nil {
		return res, err
	}
	return res, answerProblem(res)
}

// turnChecks are the checks Turn adds to what Stream always did.
type turnChecks struct {
	textCalls, repeats bool
}

func (c *Client) turn(ctx context.Context, req Request, checks turnChecks) (Result, error) {
	params, err := c.params(req)
	if err != nil {
		return Result{}, err
	}
	var waited Status
	start := time.Now()
	res, err := c.withRetries(ctx, start, &waited, func() (Result, bool, error) {
		return c.streamOnce(ctx, start, params, req, checks)
	})
	var tue *ToolsUnsupportedError
	if errors.As(err, &tue) && ctx.Err() == nil {
		err = c.toolsUnsupported(ctx, tue)
		if c.toolsFallback && len(req.Tools) > 0 {
			req.Tools = nil
			res, err = c.turn(ctx, req, checks)
			res.ToolsDropped = true
			return res, err
		}
	}
	var missing *Error
	if errors.As(err, &missing) && missing.Kind == ErrModelMissing && ctx.Err() == nil {
		err = c.missing(ctx, missing.Cause)
	}
	res.Waited = waited
	res.SentTokens = EstimateTokens(req.Messages, req.Tools)
	res.Truncated = truncated(res.SentTokens, res.Usage.PromptTokens)
	return res, err
}

// answerProblem is the error for a whole answer that is not one: cut at
// the output limit, or empty.
func answerProblem(res Result) error {
	empty := res.Message.Content == "" && len(res.Message.ToolCalls) == 0
	switch {
	case res.FinishReason == "length":
		where := "its answer"
		if empty && res.Reasoning != "" {
			where = "its thinking, before it answered"
		}
		return &Error{Kind: ErrLength, Msg: "the model hit its output limit in the middle of " + where,
			Hints: []string{
				"raise the server's output limit (Ollama: num_predict; llama.cpp: --n-predict; vLLM and LM Studio: max tokens)",
				"or ask for less at a time",
			}}
	case empty:
		msg := "the model answered nothing"
		if res.Reasoning != "" {
			msg = "the model thought but answered nothing"
		}
		return &Error{Kind: ErrEmptyAnswer, Msg: msg, Hints: []string{
			"ask again, or in other words",
			"a model that thinks may need a larger context or output limit to get to its answer",
		}}
	}
	return nil
}

func schemaBytes(s map[string]any) int {
	if s == nil {
		return 0
	}
	b, _ := json.Marshal(s)
	return len(b)
}
