package model

import (
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

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

func toParams(msgs []Message) ([]openai.ChatCompletionMessageParamUnion, error) {
	out := make([]openai.ChatCompletionMessageParamUnion, 0, len(msgs))
	for i, m := range msgs {
		p, err := toParam(m)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", i, err)
		}
		out = append(out, p)
	}
	return out, nil
}

func toParam(m Message) (openai.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case RoleSystem:
		return openai.SystemMessage(m.Content), nil
	case RoleUser:
		return openai.UserMessage(m.Content), nil
	case RoleTool:
		return openai.ToolMessage(m.Content, m.ToolCallID), nil
	case RoleAssistant:
		return assistantParam(m), nil
	}
	return openai.ChatCompletionMessageParamUnion{},
		fmt.Errorf("role %q is not one of system, user, assistant, tool", m.Role)
}

func assistantParam(m Message) openai.ChatCompletionMessageParamUnion {
	var a openai.ChatCompletionAssistantMessageParam
	// An assistant turn that only calls tools has no content at all, which
	// is what the protocol expects rather than an empty string.
	if m.Content != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Content)
	}
	for _, tc := range m.ToolCalls {
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID: tc.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{
					Name: tc.Name, Arguments: tc.Arguments,
				},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

func toToolParams(tools []Tool) []openai.ChatCompletionToolUnionParam {
	out := make([]openai.ChatCompletionToolUnionParam, 0, len(tools))
	for _, t := range tools {
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: t.Parameters}
		if def.Parameters == nil {
			def.Parameters = emptyObjectSchema
		}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(def))
	}
	return out
}
