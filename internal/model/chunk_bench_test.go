package model

import (
	"encoding/json"
	"fmt"
	"testing"
)

// benchChunks is one answer as parsed chunks: thinking in content (when
// think), 200 text pieces, then two tool calls of 20 pieces.
func benchChunks(b *testing.B, think bool) []chunk {
	var raw []string
	content := func(s string) {
		d, _ := json.Marshal(s)
		raw = append(raw, fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":%s},"finish_reason":null}]}`, d))
	}
	if think {
		content("<think>")
		for i := range 100 {
			content(fmt.Sprintf(" step %d", i))
		}
		content("</think>\n\n")
	}
	for i := range 200 {
		content(fmt.Sprintf("word%d ", i%7))
		if i%20 == 19 {
			content("\n")
		}
	}
	for c, id := range []string{"call_a", "call_b"} {
		raw = append(raw, fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"id":%q,"type":"function","function":{"name":"run_command","arguments":""}}]},"finish_reason":null}]}`, c, id))
		for range 20 {
			raw = append(raw, fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":%d,"function":{"arguments":"x"}}]},"finish_reason":null}]}`, c))
		}
	}
	raw = append(raw, `{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`)
	out := make([]chunk, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r), &out[i]); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// oldAnswer is answer.add as it was before issue 27 (main 338343d): the
// baseline the new checks are measured against.
type oldAnswer struct {
	text     []byte
	calls    toolCallAssembler
	finished bool
}

func (a *oldAnswer) add(ch chunk, onText func(string)) {
	for _, choice := range ch.Choices {
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

func benchmarkChunks(b *testing.B, think bool, run func([]chunk)) {
	chunks := benchChunks(b, think)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		run(chunks)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(chunks)), "ns/chunk")
}

func oldPath(chunks []chunk) {
	var a oldAnswer
	for _, c := range chunks {
		a.add(c, func(string) {})
	}
	_ = a.calls.calls()
}

func newPath(checks turnChecks) func([]chunk) {
	tools := []Tool{{Name: "run_command"}}
	return func(chunks []chunk) {
		a := newAnswer(Request{Tools: tools, OnDelta: func(Delta) {}}, checks)
		for _, c := range chunks {
			a.add(c)
		}
		a.end()
		_ = a.result()
	}
}

// BenchmarkChunksOld, …Stream and …Turn: the per-chunk cost of reading an
// answer before issue 27, with Stream's thinking split, and with all of
// Turn's checks (thinking, text-call hold-back, loop detection).
func BenchmarkChunksOld(b *testing.B)    { benchmarkChunks(b, false, oldPath) }
func BenchmarkChunksStream(b *testing.B) { benchmarkChunks(b, false, newPath(turnChecks{})) }
func BenchmarkChunksTurn(b *testing.B) {
	benchmarkChunks(b, false, newPath(turnChecks{textCalls: true, repeats: true}))
}

// The same with 102 pieces of thinking in the content first.
func BenchmarkChunksThinkOld(b *testing.B)    { benchmarkChunks(b, true, oldPath) }
func BenchmarkChunksThinkStream(b *testing.B) { benchmarkChunks(b, true, newPath(turnChecks{})) }
func BenchmarkChunksThinkTurn(b *testing.B) {
	benchmarkChunks(b, true, newPath(turnChecks{textCalls: true, repeats: true}))
}
