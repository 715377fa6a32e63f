package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// RecoverToolCalls finds the tool calls a model wrote as text instead of
// sending them as calls, in the forms small models use:
//
//   - a bare JSON object {"name": NAME, "arguments": {…}} ("parameters" is
//     taken for "arguments", as Llama 3.2 writes it), also inside a ```json
//     or ``` fence;
//   - Hermes / Qwen <tool_call>{…same object…}</tool_call>, one or more;
//   - Qwen3-Coder <tool_call><function=NAME><parameter=P>value</parameter>
//     …</function></tool_call>, one or more, the outer tags optional.
//
// It recovers only what is unambiguous: the whole content (whitespace
// aside) is the call or calls, every call names one of tools, and its
// arguments are a JSON object holding every property its schema requires.
// Otherwise it returns nil: prose that mentions a call, a call beside
// prose, a tool not offered or arguments that do not fit are text. The
// calls it returns have the ids text_call_0, text_call_1, ….
func RecoverToolCalls(content string, tools []Tool) []ToolCall {
	s := strings.TrimSpace(content)
	if s == "" || len(tools) == 0 {
		return nil
	}
	var calls []ToolCall
	var ok bool
	switch {
	case strings.HasPrefix(s, "{"):
		calls, ok = jsonCalls(s)
	case strings.HasPrefix(s, "```"):
		calls, ok = fencedCall(s)
	case strings.HasPrefix(s, "<tool_call>"), strings.HasPrefix(s, "<function="):
		calls, ok = taggedCalls(s, tools)
	}
	if !ok || len(calls) == 0 {
		return nil
	}
	for i := range calls {
		if !fitsTool(calls[i], tools) {
			return nil
		}
		calls[i].ID = fmt.Sprintf("text_call_%d", i)
	}
	return calls
}

// textCallStarts are how content that may be a call written as text
// begins; RecoverToolCalls returns nil for any other content.
var textCallStarts = []string{"{", "```", "<tool_call>", "<function="}

// mayBeTextCall reports whether content so far (left-trimmed) could still
// turn out to be a call written as text: it begins with, or is the
// beginning of, one of textCallStarts.
func mayBeTextCall(s string) bool {
	for _, p := range textCallStarts {
		if strings.HasPrefix(s, p) || strings.HasPrefix(p, s) {
			return true
		}
	}
	return false
}

// jsonCalls reads s as exactly one JSON call object.
func jsonCalls(s string) ([]ToolCall, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var obj map[string]json.RawMessage
	if dec.Decode(&obj) != nil || dec.More() {
		return nil, false
	}
	if _, err := dec.Token(); err == nil { // anything after the object
		return nil, false
	}
	c, ok := callFromObject(obj)
	return []ToolCall{c}, ok
}

func callFromObject(obj map[string]json.RawMessage) (ToolCall, bool) {
	var name string
	if json.Unmarshal(obj["name"], &name) != nil || name == "" {
		return ToolCall{}, false
	}
	args, ok := obj["arguments"]
	if !ok {
		args, ok = obj["parameters"]
	}
	if len(obj) != 2 || !ok {
		return ToolCall{}, false // other keys: not only a call
	}
	// Some models write the arguments as a JSON string holding the object.
	var inner string
	if json.Unmarshal(args, &inner) == nil {
		args = json.RawMessage(inner)
	}
	var compact bytes.Buffer
	if json.Compact(&compact, args) != nil {
		return ToolCall{}, false
	}
	return ToolCall{Name: name, Arguments: compact.String()}, true
}

var fenceRE = regexp.MustCompile("^```(?:json)?[ \t]*\n((?s).*?)\n?```$")

func fencedCall(s string) ([]ToolCall, bool) {
	m := fenceRE.FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	return jsonCalls(strings.TrimSpace(m[1]))
}

var (
	toolCallBlockRE = regexp.MustCompile(`(?s)^\s*(?:<tool_call>)?\s*(.*?)\s*</tool_call>`)
	functionRE      = regexp.MustCompile(`(?s)^<function=([A-Za-z0-9_.\-]+)>(.*)</function>$`)
	parameterRE     = regexp.MustCompile(`(?s)^\s*<parameter=([A-Za-z0-9_.\-]+)>\n?(.*?)\n?</parameter>`)
)

// taggedCalls reads s as one or more <tool_call> blocks holding a JSON
// object or a Qwen3-Coder <function=…>; a lone <function=…> block, with
// or without its </tool_call>, is one call.
func taggedCalls(s string, tools []Tool) ([]ToolCall, bool) {
	var calls []ToolCall
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		m := toolCallBlockRE.FindStringSubmatchIndex(s)
		var body string
		if m == nil {
			if !strings.HasPrefix(s, "<function=") || len(calls) > 0 {
				return nil, false
			}
			body, s = s, ""
		} else {
			if !strings.HasPrefix(s, "<tool_call>") && len(calls) > 0 {
				return nil, false
			}
			body, s = s[m[2]:m[3]], s[m[1]:]
		}
		c, ok := taggedCall(body, tools)
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
	}
	return calls, len(calls) > 0
}

func taggedCall(body string, tools []Tool) (ToolCall, bool) {
	if strings.HasPrefix(body, "{") {
		calls, ok := jsonCalls(body)
		if !ok {
			return ToolCall{}, false
		}
		return calls[0], true
	}
	m := functionRE.FindStringSubmatch(body)
	if m == nil {
		return ToolCall{}, false
	}
	args := map[string]any{}
	rest := m[2]
	for strings.TrimSpace(rest) != "" {
		p := parameterRE.FindStringSubmatchIndex(rest)
		if p == nil {
			return ToolCall{}, false
		}
		name, value := rest[p[2]:p[3]], rest[p[4]:p[5]]
		if _, dup := args[name]; dup {
			return ToolCall{}, false
		}
		args[name] = parameterValue(value, propertyType(tools, m[1], name))
		rest = rest[p[1]:]
	}
	b, err := json.Marshal(args)
	if err != nil {
		return ToolCall{}, false
	}
	return ToolCall{Name: m[1], Arguments: string(b)}, true
}

// parameterValue is a Qwen3-Coder parameter: the text itself for a
// string property (or one the schema does not type), else the JSON it
// reads as, as Qwen3-Coder's own parser converts by the schema.
func parameterValue(s, typ string) any {
	if typ == "" || typ == "string" {
		return s
	}
	var v any
	if json.Unmarshal([]byte(strings.TrimSpace(s)), &v) == nil && v != nil {
		return v
	}
	return s
}

// propertyType is the JSON schema type of a tool's parameter, "" if the
// schema does not say.
func propertyType(tools []Tool, tool, param string) string {
	for _, t := range tools {
		if t.Name != tool {
			continue
		}
		props, _ := t.Parameters["properties"].(map[string]any)
		prop, _ := props[param].(map[string]any)
		typ, _ := prop["type"].(string)
		return typ
	}
	return ""
}

// fitsTool reports whether c names one of tools and its arguments are an
// object with every property the tool's schema requires.
func fitsTool(c ToolCall, tools []Tool) bool {
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(c.Arguments), &obj) != nil || obj == nil {
		return false
	}
	for _, t := range tools {
		if t.Name != c.Name {
			continue
		}
		for _, req := range requiredOf(t.Parameters) {
			if _, ok := obj[req]; !ok {
				return false
			}
		}
		return true
	}
	return false
}

func requiredOf(schema map[string]any) []string {
	var out []string
	switch r := schema["required"].(type) {
	case []string:
		out = r
	case []any:
		for _, v := range r {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
