package agent

import (
	"strings"

	"github.com/wisp-sh/wisp/internal/model"
)

// interruptedResult answers a tool call that never finished: the person
// stopped the turn, or wisp stopped before the result was written.
const interruptedResult = "error: not run: the turn was stopped before this call ran"

// HistoryOf rebuilds what the model reads from a thread's records: the
// messages in order, a typed command as its notice, a message the model
// never answered taken back, and a tool call left without a result
// answered as interrupted, so the conversation stays one a server accepts.
func HistoryOf(records []Record) []model.Message {
	var msgs []model.Message
	for _, r := range records {
		switch r.Kind {
		case RecordUser:
			msgs = append(msgs, model.Message{Role: model.RoleUser, Content: r.Text})
		case RecordAssistant:
			msgs = append(msgs, assistantMessage(r))
		case RecordTool:
			msgs = append(msgs, model.Message{Role: model.RoleTool, Content: r.Text, ToolCallID: r.CallID})
		case RecordPersonCommand:
			if r.PersonCommand != nil {
				msgs = append(msgs, model.Message{Role: model.RoleUser, Content: r.Notice})
			}
		case RecordUndo:
			msgs = append(msgs, model.Message{Role: model.RoleUser, Content: r.Text})
		case RecordModelError:
			if r.Dropped {
				msgs = dropLastUser(msgs)
			}
		}
	}
	return answerOpenCalls(msgs)
}

func assistantMessage(r Record) model.Message {
	m := model.Message{Role: model.RoleAssistant, Content: r.Text}
	for _, c := range r.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, model.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return m
}

func assistantRecord(m model.Message) Record {
	r := Record{Kind: RecordAssistant, Text: m.Content}
	for _, c := range m.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, RecordToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	return r
}

func dropLastUser(msgs []model.Message) []model.Message {
	if n := len(msgs); n > 0 && msgs[n-1].Role == model.RoleUser {
		return msgs[:n-1]
	}
	return msgs
}

// answerOpenCalls gives every tool call without a result one that says
// it never ran: servers refuse a conversation with an unanswered call.
func answerOpenCalls(msgs []model.Message) []model.Message {
	var out []model.Message
	var open []string
	closeOpen := func() {
		for _, id := range open {
			out = append(out, model.Message{Role: model.RoleTool, Content: interruptedResult, ToolCallID: id})
		}
		open = nil
	}
	for _, m := range msgs {
		if m.Role == model.RoleTool {
			open = without(open, m.ToolCallID)
		} else {
			closeOpen()
		}
		out = append(out, m)
		if m.Role == model.RoleAssistant {
			for _, c := range m.ToolCalls {
				open = append(open, c.ID)
			}
		}
	}
	closeOpen()
	return out
}

func without(ids []string, id string) []string {
	for i, x := range ids {
		if x == id {
			return append(ids[:i:i], ids[i+1:]...)
		}
	}
	return ids
}

// wire is what is sent: the system prompt first, and the person's
// consecutive messages (a typed command's notice, then a message) joined
// into one, since some servers' chat templates refuse two in a row.
func wire(system string, history []model.Message) []model.Message {
	out := []model.Message{{Role: model.RoleSystem, Content: system}}
	for _, m := range history {
		last := &out[len(out)-1]
		if m.Role == model.RoleUser && last.Role == model.RoleUser {
			last.Content = strings.TrimRight(last.Content, "\n") + "\n\n" + m.Content
			continue
		}
		out = append(out, m)
	}
	return out
}
