package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"strings"
)

// Loop detection bounds. A block of up to maxLoopPeriod lines repeated
// back to back until it fills minLoopLines lines, and at least
// minLoopRepeats times, is a loop: 16 identical lines in a row, 8 times
// the same two lines, 4 times the same eight. Legitimate answers (a list,
// code) rarely repeat a block of text verbatim that often; a looping
// small model does it until the server's cap.
const (
	maxLoopPeriod  = 8
	minLoopLines   = 16
	minLoopRepeats = 4
	loopWindow     = maxLoopPeriod * minLoopLines
)

// RepeatDetector notices text that repeats the same line or block of lines
// over and over while it streams. Feed it the text as it comes; Looping
// says when it has seen a loop. Blank lines are skipped. The zero value
// is ready.
type RepeatDetector struct {
	seed    maphash.Seed
	partial []byte   // the line not yet ended
	lines   []uint64 // hashes of the last loopWindow lines
	last    string   // the line that completed the loop
	loop    int      // lines in the loop's block; 0: no loop yet
	times   int
}

// Feed adds text and reports whether the text so far ends in a loop.
func (r *RepeatDetector) Feed(s string) bool {
	if r.loop > 0 {
		return true
	}
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			r.partial = append(r.partial, s...)
			return false
		}
		r.partial = append(r.partial, s[:i]...)
		s = s[i+1:]
		if r.endLine() {
			return true
		}
	}
	return false
}

func (r *RepeatDetector) endLine() bool {
	line := bytes.TrimSpace(r.partial)
	defer func() { r.partial = r.partial[:0] }()
	if len(line) == 0 {
		return false
	}
	if r.lines == nil {
		r.seed = maphash.MakeSeed()
	}
	if len(r.lines) == loopWindow {
		r.lines = append(r.lines[:0], r.lines[1:]...)
	}
	r.lines = append(r.lines, maphash.Bytes(r.seed, line))
	for p := 1; p <= maxLoopPeriod; p++ {
		need := max(minLoopRepeats, (minLoopLines+p-1)/p)
		if r.repeats(p, need) {
			r.loop, r.times, r.last = p, need, string(line)
			return true
		}
	}
	return false
}

// repeats reports whether the last p*n lines are one block of p lines n
// times.
func (r *RepeatDetector) repeats(p, n int) bool {
	l := r.lines
	if len(l) < p*n {
		return false
	}
	tail := l[len(l)-p*n:]
	for i := p; i < len(tail); i++ {
		if tail[i] != tail[i-p] {
			return false
		}
	}
	return true
}

// Looping reports the loop found: the last line of the repeated block, the
// block's length in lines and how many times it came; ok false if none.
func (r *RepeatDetector) Looping() (line string, period, times int, ok bool) {
	return r.last, r.loop, r.times, r.loop > 0
}

// RepeatError is Turn's error when it stopped a model that was repeating
// itself (RepeatDetector). The message holds the answer up to there.
type RepeatError struct {
	Line      string // the last line of the repeated block
	Period    int    // lines in the block
	Times     int    // how often it came in a row
	Reasoning bool   // the loop was in the model's thinking
}

func (e *RepeatError) Error() string {
	where := "its answer"
	if e.Reasoning {
		where = "its thinking"
	}
	what := fmt.Sprintf("the line %q", clip(e.Line, 80))
	if e.Period > 1 {
		what = fmt.Sprintf("a block of %d lines ending %q", e.Period, clip(e.Line, 60))
	}
	return fmt.Sprintf("the model repeated %s %d times in a row in %s; wisp stopped it", what, e.Times, where)
}

// Hint says what to try.
func (e *RepeatError) Hint() []string {
	return []string{
		"ask again in other words, or ask for less at a time",
		"a larger model, or a lower temperature on the server, loops less",
	}
}

func (e *RepeatError) Unwrap() error { return ErrRepeating }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// DefaultCallRepeats is how many times in a row the same call with the
// same arguments is allowed before CallRepeats says the model is looping.
const DefaultCallRepeats = 3

// CallRepeats notices a model that asks for the same tool calls, with the
// same arguments, turn after turn. The agent Observes every answer's calls
// and stops (saying why) when it reports a loop. Max 0 means
// DefaultCallRepeats.
type CallRepeats struct {
	Max   int
	last  string
	count int
}

// Observe records one answer's calls and returns how many answers in a row
// have asked for exactly these calls, and whether that reaches Max. An
// answer without calls resets the count. Arguments are compared as JSON
// values, so key order and spacing do not matter.
func (r *CallRepeats) Observe(calls []ToolCall) (times int, looping bool) {
	if len(calls) == 0 {
		r.last, r.count = "", 0
		return 0, false
	}
	key := callsKey(calls)
	if key == r.last {
		r.count++
	} else {
		r.last, r.count = key, 1
	}
	limit := r.Max
	if limit <= 0 {
		limit = DefaultCallRepeats
	}
	return r.count, r.count >= limit
}

func callsKey(calls []ToolCall) string {
	var b strings.Builder
	for _, c := range calls {
		b.WriteString(c.Name)
		b.WriteByte(0)
		var v any
		if json.Unmarshal([]byte(c.Arguments), &v) == nil {
			canon, _ := json.Marshal(v) // maps marshal with sorted keys
			b.Write(canon)
		} else {
			b.WriteString(c.Arguments)
		}
		b.WriteByte(0)
	}
	return b.String()
}
