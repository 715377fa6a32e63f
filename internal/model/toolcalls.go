package model

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// callBuilder gathers one tool call from its pieces.
type callBuilder struct {
	id, name string
	args     strings.Builder
}

// toolCallAssembler joins tool-call deltas: the first piece of a call brings
// its index, id and name, later pieces with the same index add argument text.
type toolCallAssembler struct {
	order   []*callBuilder
	byIndex map[int64]*callBuilder
}

func (a *toolCallAssembler) add(d toolCallDelta) {
	b := a.byIndex[d.Index]
	// Some servers (older Ollama) number every call 0; a new id at a known
	// index is therefore a new call, not more of the previous one.
	if b == nil || (d.ID != "" && b.id != "" && d.ID != b.id) {
		b = &callBuilder{}
		if a.byIndex == nil {
			a.byIndex = map[int64]*callBuilder{}
		}
		a.byIndex[d.Index] = b
		a.order = append(a.order, b)
	}
	if d.ID != "" {
		b.id = d.ID
	}
	// Some servers repeat the name in every piece; add it only once.
	if d.Function.Name != "" && d.Function.Name != b.name {
		b.name += d.Function.Name
	}
	b.args.WriteString(d.Function.Arguments)
}

// calls returns the assembled calls in the order they began. A call without
// an id gets one, so that its tool result can refer to it.
func (a *toolCallAssembler) calls() []ToolCall {
	var out []ToolCall
	for i, b := range a.order {
		id := b.id
		if id == "" {
			id = fmt.Sprintf("call_%d", i)
		}
		out = append(out, ToolCall{ID: id, Name: b.name, Arguments: b.args.String()})
	}
	return out
}

// checkToolCalls normalises empty arguments to {} and returns one
// *ToolCallError per malformed call, joined.
func checkToolCalls(calls []ToolCall) error {
	var errs []error
	for i := range calls {
		if strings.TrimSpace(calls[i].Arguments) == "" {
			calls[i].Arguments = "{}"
		}
		if problem := toolCallProblem(calls[i]); problem != "" {
			errs = append(errs, &ToolCallError{Call: calls[i], Problem: problem})
		}
	}
	return errors.Join(errs...)
}

func toolCallProblem(tc ToolCall) string {
	if strings.TrimSpace(tc.Name) == "" {
		return "it names no tool; call one of the offered tools by its name"
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(tc.Arguments), &obj); err != nil || obj == nil {
		reason := "null"
		if err != nil {
			reason = err.Error()
		}
		return fmt.Sprintf("its arguments are not a JSON object (%s); "+
			"call the tool again with its arguments as one JSON object", reason)
	}
	return ""
}

func (a *toolCallAssembler) empty() bool { return len(a.order) == 0 }
