package model

import (
	"bytes"
	"strings"
)

// thinkTags are the opening tags a model writes its thinking in when the
// server does not split it out, with their closing tags.
var thinkTags = [...]struct{ open, close string }{
	{"<think>", "</think>"},
	{"<thinking>", "</thinking>"},
}

// orphanClose is the closing tag DeepSeek-R1 distills write without an
// opening one: their chat template ends the prompt with "<think>\n".
const orphanClose = "</think>"

// thinkState is where in the answer a thinkSplitter is.
type thinkState int

const (
	thinkLead   thinkState = iota // only whitespace so far: a tag may open
	thinkInside                   // inside a block, until its closing tag
	thinkGap                      // just closed: whitespace is dropped
	thinkAnswer                   // the answer
)

// thinkSplitter separates thinking written inside content (<think>…</think>
// or <thinking>…</thinking> at the start of the answer, or everything
// before an orphan </think>) from the answer, however the tags are split
// across chunks. It holds back only what may be part of a tag.
type thinkSplitter struct {
	state   thinkState
	close   string // the closing tag expected inside a block
	opened  bool   // a block was opened: no orphan </think> to look for
	pending []byte // held back: may be part of a tag
	out     func(kind DeltaKind, s string)
}

func (t *thinkSplitter) feed(s string) {
	// The common cases, with nothing held back and no tag to look for in
	// s, go straight out.
	if len(t.pending) == 0 {
		switch {
		case t.state == thinkAnswer && (t.opened || strings.IndexByte(s, '<') < 0):
			t.out(DeltaText, s)
			return
		case t.state == thinkInside && strings.IndexByte(s, '<') < 0:
			t.out(DeltaReasoning, s)
			return
		}
	}
	t.pending = append(t.pending, s...)
	for t.step() {
	}
}

// step handles pending in the current state, reporting whether the state
// changed and pending should be looked at again.
func (t *thinkSplitter) step() bool {
	switch t.state {
	case thinkLead:
		return t.lead()
	case thinkInside:
		return t.inside()
	case thinkGap:
		rest := bytes.TrimLeft(t.pending, " \t\r\n")
		if len(rest) == 0 {
			t.pending = t.pending[:0]
			return false
		}
		t.pending = append(t.pending[:0], rest...)
		t.state = thinkAnswer
		return true
	default:
		return t.answer()
	}
}

func (t *thinkSplitter) lead() bool {
	rest := bytes.TrimLeft(t.pending, " \t\r\n")
	for _, tag := range thinkTags {
		if bytes.HasPrefix(rest, []byte(tag.open)) {
			t.pending = append(t.pending[:0], rest[len(tag.open):]...)
			t.state, t.close, t.opened = thinkInside, tag.close, true
			return true
		}
	}
	for _, tag := range thinkTags {
		if len(rest) < len(tag.open) && strings.HasPrefix(tag.open, string(rest)) {
			return false // "" or "<thi": wait for more
		}
	}
	t.state = thinkAnswer
	return true
}

func (t *thinkSplitter) inside() bool {
	if i := bytes.Index(t.pending, []byte(t.close)); i >= 0 {
		t.emit(DeltaReasoning, t.pending[:i])
		t.pending = append(t.pending[:0], t.pending[i+len(t.close):]...)
		t.state = thinkGap
		return true
	}
	keep := partialSuffix(t.pending, t.close)
	t.emit(DeltaReasoning, t.pending[:len(t.pending)-keep])
	t.pending = append(t.pending[:0], t.pending[len(t.pending)-keep:]...)
	return false
}

func (t *thinkSplitter) answer() bool {
	if t.opened {
		t.emit(DeltaText, t.pending)
		t.pending = t.pending[:0]
		return false
	}
	if i := bytes.Index(t.pending, []byte(orphanClose)); i >= 0 {
		t.emit(DeltaText, t.pending[:i])
		t.out(DeltaRetract, "")
		t.pending = append(t.pending[:0], t.pending[i+len(orphanClose):]...)
		t.state, t.opened = thinkGap, true
		return true
	}
	keep := partialSuffix(t.pending, orphanClose)
	t.emit(DeltaText, t.pending[:len(t.pending)-keep])
	t.pending = append(t.pending[:0], t.pending[len(t.pending)-keep:]...)
	return false
}

// flush gives out what is held back at the end of the answer: the rest of
// a block never closed is thinking, anything else is answer.
func (t *thinkSplitter) flush() {
	kind := DeltaText
	if t.state == thinkInside {
		kind = DeltaReasoning
	}
	if t.state != thinkGap {
		t.emit(kind, t.pending)
	}
	t.pending = t.pending[:0]
}

func (t *thinkSplitter) emit(kind DeltaKind, b []byte) {
	if len(b) > 0 {
		t.out(kind, string(b))
	}
}

// partialSuffix is the length of the longest end of b that is a proper
// start of tag: the bytes to hold back in case the tag is being split.
func partialSuffix(b []byte, tag string) int {
	start := max(len(b)-len(tag)+1, 0)
	i := bytes.IndexByte(b[start:], tag[0])
	for i >= 0 {
		if strings.HasPrefix(tag, string(b[start+i:])) {
			return len(b) - start - i
		}
		start += i + 1
		i = bytes.IndexByte(b[start:], tag[0])
	}
	return 0
}
