package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"
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
//
// Stream is Turn without its new checks: thinking is kept out of the text
// and the message, but an empty or length-cut answer is no error, calls
// written as text stay text and loops are not stopped. New callers use Turn.
func (c *Client) Stream(ctx context.Context, msgs []Message, tools []Tool, onText func(string)) (Message, error) {
	req := Request{Messages: msgs, Tools: tools}
	if onText != nil {
		req.OnDelta = func(d Delta) {
			if d.Kind == DeltaText {
				onText(d.Text)
			}
		}
	}
	res, err := c.turn(ctx, req, turnChecks{})
	return res.Message, err
}

// streamOnce is one request; started once any of the answer arrived.
func (c *Client) streamOnce(ctx context.Context, start time.Time, body chatRequest, req Request, checks turnChecks) (Result, bool, error) {
	reqCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	// Until it answers the server may be loading the model, which takes
	// minutes (Ollama sends nothing, not even its headers, until the model
	// is loaded): the first-byte timeout bounds that, the idle timeout only
	// the silences after.
	var headers atomic.Bool
	watchdog := time.AfterFunc(c.firstByte, func() {
		if headers.Load() {
			cancel(errIdle)
		} else {
			cancel(errFirstByte)
		}
	})
	defer watchdog.Stop()
	stopWaiting := c.reportWaiting(reqCtx, start)
	defer stopWaiting()

	res, err := c.post(reqCtx, "/chat/completions", body)
	// The server answered: from here on, silences are timed by idle,
	// an error's body as much as the answer.
	stopWaiting()
	headers.Store(true)
	watchdog.Reset(c.idle)
	if err == nil && res.StatusCode >= 400 {
		err = c.statusError(res)
	}
	if err != nil {
		watchdog.Stop()
		return Result{}, false, c.classify(ctx, reqCtx, err, false)
	}
	defer res.Body.Close()
	var done doneWatch
	stream := newEvents(done.watch(res.Body))
	acc := newAnswer(req, checks)
	for {
		data, ok := stream.next()
		if !ok {
			err = stream.err()
			break
		}
		// The watchdog times the server, not OnDelta (a slow terminal).
		watchdog.Stop()
		ch, end, bad := readEvent(data)
		if end || bad != nil {
			err = bad
			break
		}
		if acc.add(ch) {
			break // a loop: stop the stream
		}
		watchdog.Reset(c.idle)
	}
	watchdog.Stop()
	if acc.loop != nil {
		return acc.result(), true, acc.loop
	}
	acc.end()
	result := acc.result()
	started := acc.started()
	switch {
	case err != nil && !acc.finished:
		return result, started, c.classify(ctx, reqCtx, err, true)
	case !acc.finished && !done.seen():
		return result, started, c.cutOff(nil)
	}
	return result, started, checkToolCalls(result.Message.ToolCalls)
}

// errFirstByte is the cancel cause when the server sent nothing within the
// first-byte timeout.
var errFirstByte = errors.New("first-byte timeout")

// params is the request for req. req.ContextTokens is not sent (as
// Ollama's options.num_ctx): Ollama's OpenAI-compatible endpoint reads no
// options (its ChatCompletionRequest has none), nor do llama.cpp's or LM
// Studio's.
func (c *Client) params(req Request) (chatRequest, error) {
	wire, err := toParams(req.Messages)
	if err != nil {
		return chatRequest{}, err
	}
	return chatRequest{Model: c.name, Messages: wire, Stream: true,
		StreamOptions: streamOptions{IncludeUsage: true}, Tools: toToolParams(req.Tools)}, nil
}

// answer accumulates the chunks of one streamed answer.
type answer struct {
	req       Request
	text      []byte
	reasoning []byte
	calls     toolCallAssembler
	think     thinkSplitter
	finished  bool   // a finish_reason arrived: the answer is whole
	finish    string // the finish_reason
	usage     Usage

	// Text that may be a call written as text is held until the end.
	textCalls bool
	holding   bool
	held      []byte

	recovered []ToolCall // calls RecoverToolCalls found in the text

	repeats          bool
	textLoop, thLoop RepeatDetector
	loop             *RepeatError
}

func newAnswer(req Request, checks turnChecks) *answer {
	a := &answer{req: req, textCalls: checks.textCalls && len(req.Tools) > 0, repeats: checks.repeats}
	a.holding = a.textCalls
	a.think.out = a.out
	return a
}

// add takes one chunk; it reports true when the model is looping and the
// stream should stop.
func (a *answer) add(ch chunk) bool {
	if u := ch.Usage; u != nil && (u.PromptTokens > 0 || u.CompletionTokens > 0) {
		a.usage = Usage{PromptTokens: int(u.PromptTokens), CompletionTokens: int(u.CompletionTokens)}
	}
	// The usage chunk and some servers' keep-alive chunks carry no choices.
	for _, choice := range ch.Choices {
		if choice.Index != 0 {
			continue
		}
		if r := reasoningOf(choice.Delta); r != "" {
			a.out(DeltaReasoning, r)
		}
		if d := choice.Delta.Content; d != "" {
			a.think.feed(d)
		}
		for _, tc := range choice.Delta.ToolCalls {
			a.calls.add(tc)
		}
		if choice.FinishReason != "" {
			a.finished = true
			a.finish = choice.FinishReason
		}
	}
	return a.loop != nil
}

// out takes one piece of answer or thinking from the splitter.
func (a *answer) out(kind DeltaKind, s string) {
	switch kind {
	case DeltaRetract:
		// The text held back (the end of a.text) was never shown.
		s = string(a.text[:len(a.text)-len(a.held)])
		a.reasoning = append(a.reasoning, a.text...)
		a.text, a.held = a.text[:0], a.held[:0]
		a.holding = a.textCalls
	case DeltaReasoning:
		a.reasoning = append(a.reasoning, s...)
		if a.repeats && a.loop == nil && a.thLoop.Feed(s) {
			a.stop(&a.thLoop, true)
		}
	case DeltaText:
		a.text = append(a.text, s...)
		if a.repeats && a.loop == nil && a.textLoop.Feed(s) {
			a.stop(&a.textLoop, false)
		}
		if a.holding {
			a.held = append(a.held, s...)
			if mayBeTextCall(string(bytes.TrimLeft(a.held, " \t\r\n"))) {
				return
			}
			s, a.held, a.holding = string(a.held), nil, false
		}
	}
	if a.req.OnDelta != nil && s != "" {
		a.req.OnDelta(Delta{Kind: kind, Text: s})
	}
}

func (a *answer) stop(r *RepeatDetector, reasoning bool) {
	line, period, times, _ := r.Looping()
	a.loop = &RepeatError{Line: line, Period: period, Times: times, Reasoning: reasoning}
}

// end finishes a whole answer: what the splitter held back, and the text
// that was held in case it was a call.
func (a *answer) end() {
	a.think.flush()
	if len(a.held) == 0 {
		return
	}
	if a.calls.empty() {
		if calls := RecoverToolCalls(string(a.text), a.req.Tools); calls != nil {
			a.recovered = calls
			a.text, a.held = nil, nil
			return
		}
	}
	held := string(a.held)
	a.held, a.holding = nil, false
	if a.req.OnDelta != nil {
		a.req.OnDelta(Delta{Kind: DeltaText, Text: held})
	}
}

func (a *answer) started() bool {
	return len(a.text) > 0 || len(a.reasoning) > 0 || !a.calls.empty()
}

func (a *answer) result() Result {
	msg := Message{Role: RoleAssistant, Content: string(a.text), ToolCalls: a.calls.calls()}
	if a.recovered != nil {
		msg.ToolCalls = a.recovered
	}
	return Result{Message: msg, Reasoning: string(a.reasoning), FinishReason: a.finish, Usage: a.usage,
		Recovered: a.recovered != nil}
}

// reasoningOf is the thinking a delta carries in the field servers use
// for it: reasoning_content (llama.cpp, vLLM, LM Studio, DeepSeek) or
// reasoning (Ollama, newer vLLM); a delta that has both says the same in
// each.
func reasoningOf(d chunkDelta) string {
	for _, raw := range [...]json.RawMessage{d.ReasoningContent, d.Reasoning} {
		if len(raw) == 0 {
			continue // before s, which escapes: no allocation per chunk
		}
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

func (c *Client) cutOff(cause error) error {
	msg := "the model server's answer was cut off before it finished; retry the request"
	if cause != nil {
		msg = fmt.Sprintf("the model server's answer was cut off before it finished (%v); retry the request", cause)
	}
	return &Error{Kind: ErrCutOff, Msg: msg, Cause: cause}
}
