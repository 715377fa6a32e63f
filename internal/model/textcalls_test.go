package model

import (
	"reflect"
	"testing"
)

var textCallTools = []Tool{
	{Name: "run_command", Parameters: map[string]any{"type": "object", "required": []any{"command"},
		"properties": map[string]any{"command": map[string]any{"type": "string"}, "timeout": map[string]any{"type": "integer"}}}},
	{Name: "read_file", Parameters: map[string]any{"type": "object", "required": []string{"path"},
		"properties": map[string]any{"path": map[string]any{"type": "string"}}}},
}

func TestRecoverToolCalls(t *testing.T) {
	ls := ToolCall{ID: "text_call_0", Name: "run_command", Arguments: `{"command":"ls -la"}`}
	for _, tc := range []struct {
		name, content string
		want          []ToolCall
	}{
		// What small models write, recovered.
		{"bare JSON", `{"name": "run_command", "arguments": {"command": "ls -la"}}`, []ToolCall{ls}},
		{"bare JSON with parameters (Llama 3.2)", ` {"name":"run_command","parameters":{"command":"ls -la"}} `, []ToolCall{ls}},
		{"arguments as a JSON string", `{"name":"run_command","arguments":"{\"command\":\"ls -la\"}"}`, []ToolCall{ls}},
		{"json fence", "```json\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls -la\"}}\n```", []ToolCall{ls}},
		{"plain fence", "```\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls -la\"}}\n```", []ToolCall{ls}},
		{"hermes", "<tool_call>\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls -la\"}}\n</tool_call>", []ToolCall{ls}},
		{"two hermes calls", `<tool_call>{"name":"run_command","arguments":{"command":"ls -la"}}</tool_call>
<tool_call>{"name":"read_file","arguments":{"path":"go.mod"}}</tool_call>`,
			[]ToolCall{ls, {ID: "text_call_1", Name: "read_file", Arguments: `{"path":"go.mod"}`}}},
		{"qwen3-coder", "<tool_call>\n<function=run_command>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", []ToolCall{ls}},
		{"qwen3-coder without its opening tag", "<function=run_command>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</tool_call>", []ToolCall{ls}},
		{"qwen3-coder typed parameter", "<function=run_command><parameter=command>ls -la</parameter><parameter=timeout>30</parameter></function>",
			[]ToolCall{{ID: "text_call_0", Name: "run_command", Arguments: `{"command":"ls -la","timeout":30}`}}},
		{"qwen3-coder string stays a string", "<function=run_command><parameter=command>true</parameter></function>",
			[]ToolCall{{ID: "text_call_0", Name: "run_command", Arguments: `{"command":"true"}`}}},

		// Never a call.
		{"prose before", "I'll run it: {\"name\": \"run_command\", \"arguments\": {\"command\": \"ls -la\"}}", nil},
		{"prose after", "{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls\"}} is what I would run", nil},
		{"prose around a fence", "Run this:\n```json\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls\"}}\n```", nil},
		{"text after the fence", "```json\n{\"name\": \"run_command\", \"arguments\": {\"command\": \"ls\"}}\n```\nDone.", nil},
		{"prose mentions the form", "You could write <tool_call>{\"name\":\"run_command\",\"arguments\":{\"command\":\"rm -rf /\"}}</tool_call> yourself.", nil},
		{"text after a hermes block", "<tool_call>{\"name\":\"run_command\",\"arguments\":{\"command\":\"ls\"}}</tool_call> and then I will check", nil},
		{"a tool not offered", `{"name": "delete_everything", "arguments": {}}`, nil},
		{"a required argument missing", `{"name": "run_command", "arguments": {"cmd": "ls"}}`, nil},
		{"arguments not an object", `{"name": "run_command", "arguments": ["ls"]}`, nil},
		{"arguments null", `{"name": "run_command", "arguments": null}`, nil},
		{"no arguments", `{"name": "run_command"}`, nil},
		{"more keys than a call", `{"name": "run_command", "arguments": {"command": "ls"}, "why": "to see"}`, nil},
		{"two objects", `{"name":"run_command","arguments":{"command":"ls"}} {"name":"run_command","arguments":{"command":"pwd"}}`, nil},
		{"broken JSON", `{"name": "run_command", "arguments": {"command": "ls"}`, nil},
		{"an answer that is JSON", `{"files": ["go.mod", "main.go"]}`, nil},
		{"hermes not closed", "<tool_call>{\"name\":\"run_command\",\"arguments\":{\"command\":\"ls\"}}", nil},
		{"qwen3-coder not closed", "<function=run_command><parameter=command>ls</parameter>", nil},
		{"qwen3-coder text between parameters", "<function=run_command>see <parameter=command>ls</parameter></function>", nil},
		{"qwen3-coder a parameter twice", "<function=run_command><parameter=command>ls</parameter><parameter=command>rm</parameter></function>", nil},
		{"one good, one not offered", `<tool_call>{"name":"run_command","arguments":{"command":"ls"}}</tool_call><tool_call>{"name":"nope","arguments":{}}</tool_call>`, nil},
		{"a code fence of another language", "```sh\nls -la\n```", nil},
		{"empty", "  \n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RecoverToolCalls(tc.content, textCallTools); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("RecoverToolCalls(%q) =\n%+v\nwant\n%+v", tc.content, got, tc.want)
			}
		})
	}
	if got := RecoverToolCalls(`{"name":"run_command","arguments":{"command":"ls"}}`, nil); got != nil {
		t.Errorf("with no tools offered: %+v, want nothing", got)
	}
}

func TestMayBeTextCall(t *testing.T) {
	for s, want := range map[string]bool{
		"": true, "{": true, "`": true, "``": true, "```json": true, "<tool": true, "<tool_call>{": true,
		"<function=x>": true, "Sure": false, "<b>": false, "[1]": false,
	} {
		if got := mayBeTextCall(s); got != want {
			t.Errorf("mayBeTextCall(%q) = %v, want %v", s, got, want)
		}
	}
}
