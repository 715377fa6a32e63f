package model

import "fmt"

// Roles of a Message.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleTool      = "tool"
)

// Message is one turn of the conversation.
type Message struct {
	Role       string // system|user|assistant|tool
	Content    string
	ToolCalls  []ToolCall // the assistant's calls
	ToolCallID string     // the call a tool message answers
}

// Tool is a function the model may call.
type Tool struct {
	Name, Description string
	Parameters        map[string]any // JSON schema of the arguments object
}

// ToolCall is the model's request to run one tool.
type ToolCall struct {
	ID, Name  string
	Arguments string // raw JSON, an object
}

// emptyObjectSchema stands in for a tool without parameters: some servers
// reject a function whose parameters are missing.
var emptyObjectSchema = map[string]any{"type": "object", "properties": map[string]any{}}

func toParams(msgs []Message) ([]wireMessage, error) {
	out := make([]wireMessage, 0, len(msgs))
	for i, m := range msgs {
		p, err := toParam(m)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func toParam(m Message) (wireMessage, error) {
	switch m.Role {
	case RoleSystem, RoleUser:
		return wireMessage{Role: m.Role, Content: &m.Content}, nil
	case RoleTool:
		return wireMessage{Role: m.Role, Content: &m.Content, ToolCallID: m.ToolCallID}, nil
	case RoleAssistant:
		return assistantParam(m), nil
	}
	return wireMessage{}, fmt.Errorf("role %q is not one of system, user, assistant, tool", m.Role)
}

func assistantParam(m Message) wireMessage {
	a := wireMessage{Role: RoleAssistant}
	// An assistant turn that only calls tools has no content at all, which
	// is what the protocol expects rather than an empty string.
	if m.Content != "" || len(m.ToolCalls) == 0 {
		a.Content = &m.Content
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, wireToolCall{ID: tc.ID, Type: "function",
			Function: wireFunction{Name: tc.Name, Arguments: tc.Arguments}})
	}
	return a
}

func toToolParams(tools []Tool) []wireTool {
	out := make([]wireTool, 0, len(tools))
	for _, t := range tools {
		def := wireFunctionDef(t)
		if def.Parameters == nil {
			def.Parameters = emptyObjectSchema
		}
		out = append(out, wireTool{Type: "function", Function: def})
	}
	return out
}
