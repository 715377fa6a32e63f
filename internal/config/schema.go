package config

import (
	"encoding/json"
	"fmt"
	"github.com/wisp-sh/wisp/internal/suggest"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// kind is the type a config key holds.
type kind int

const (
	kindObject kind = iota
	kindBool
	kindString
	kindInt
	kindEnum
	kindPatterns // a list of regular expressions
	kindStrings  // a list of strings
	kindURL      // an http or https URL with a host, or empty for the default
)

// field describes one key of config.json.
type field struct {
	kind   kind
	values []string          // kindEnum
	fields map[string]*field // kindObject
	min    int64             // kindInt
}

var schema = &field{kind: kindObject, fields: map[string]*field{
	"commandPolicy": {kind: kindObject, fields: map[string]*field{
		"deny":  {kind: kindPatterns},
		"allow": {kind: kindPatterns},
		"sandbox": {kind: kindObject, fields: map[string]*field{
			"enabled":             {kind: kindBool},
			"allowNetwork":        {kind: kindBool},
			"allowOutsideSandbox": {kind: kindBool},
			"allowUnixSockets":    {kind: kindBool},
			"allowBackground":     {kind: kindBool},
			"writablePaths":       {kind: kindStrings},
			"denyRead":            {kind: kindStrings},
			"allowRead":           {kind: kindStrings},
			"allowedDomains":      {kind: kindStrings},
			"deniedDomains":       {kind: kindStrings},
			"environment": {kind: kindObject, fields: map[string]*field{
				"keep": {kind: kindStrings},
				"drop": {kind: kindStrings},
			}},
		}},
	}},
	"approval": {kind: kindObject, fields: map[string]*field{
		"threshold":      {kind: kindEnum, values: Thresholds},
		"outOfBand":      {kind: kindBool},
		"timeoutSeconds": {kind: kindInt, min: 1},
		"askForHosts":    {kind: kindBool},
	}},
	"limits": {kind: kindObject, fields: map[string]*field{
		"commandTimeoutSeconds": {kind: kindInt, min: 1},
		"outputBytes":           {kind: kindInt, min: 256},
		"outputFileBytes":       {kind: kindInt, min: 1024},
		"outputStoreBytes":      {kind: kindInt, min: 1024},
	}},
	"model": {kind: kindObject, fields: map[string]*field{
		"name":          {kind: kindString},
		"baseURL":       {kind: kindURL},
		"apiKeyEnv":     {kind: kindString},
		"contextTokens": {kind: kindInt, min: 1024},
	}},
	"ui": {kind: kindObject, fields: map[string]*field{
		"theme": {kind: kindEnum, values: Themes},
	}},
	"checkpoints": {kind: kindObject, fields: map[string]*field{
		"enabled":     {kind: kindBool},
		"maxRootSize": {kind: kindInt, min: 1024},
		"keep":        {kind: kindInt, min: 1},
		"maxAgeDays":  {kind: kindInt, min: 1},
	}},
}}

// validate walks tree against the schema and returns every problem, each
// naming its key.
func validate(tree map[string]any) []string {
	return schema.check("", tree)
}

func (f *field) check(key string, v any) []string {
	switch f.kind {
	case kindObject:
		return f.checkObject(key, v)
	case kindBool:
		if _, ok := v.(bool); !ok {
			return []string{fmt.Sprintf("%s must be true or false, not %s", key, describe(v))}
		}
	case kindString:
		if _, ok := v.(string); !ok {
			return []string{fmt.Sprintf("%s must be a string, not %s", key, describe(v))}
		}
	case kindEnum:
		s, ok := v.(string)
		if !ok || !slices.Contains(f.values, s) {
			return []string{fmt.Sprintf("%s must be one of %s, not %s", key, strings.Join(f.values, ", "), describe(v))}
		}
	case kindInt:
		return f.checkInt(key, v)
	case kindURL:
		return checkURL(key, v)
	case kindStrings, kindPatterns:
		return f.checkList(key, v)
	}
	return nil
}

func (f *field) checkObject(key string, v any) []string {
	obj, ok := v.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s must be an object, not %s", key, describe(v))}
	}
	var problems []string
	for _, name := range sortedKeys(obj) {
		child := join(key, name)
		sub, known := f.fields[name]
		if !known {
			problems = append(problems, unknownKey(child, name, f.fields))
			continue
		}
		problems = append(problems, sub.check(child, obj[name])...)
	}
	return problems
}

func (f *field) checkInt(key string, v any) []string {
	n, ok := v.(json.Number)
	i, err := n.Int64()
	if !ok || err != nil {
		return []string{fmt.Sprintf("%s must be a whole number, not %s", key, describe(v))}
	}
	if i < f.min {
		return []string{fmt.Sprintf("%s must be at least %d, not %d", key, f.min, i)}
	}
	return nil
}

func (f *field) checkList(key string, v any) []string {
	list, ok := v.([]any)
	if !ok {
		return []string{fmt.Sprintf("%s must be a list of strings, not %s", key, describe(v))}
	}
	var problems []string
	for i, item := range list {
		s, ok := item.(string)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s[%d] must be a string, not %s", key, i, describe(item)))
			continue
		}
		if f.kind == kindPatterns {
			if _, err := regexp.Compile(s); err != nil {
				problems = append(problems, fmt.Sprintf("%s[%d] is not a valid regular expression: %v", key, i, err))
			}
		}
	}
	return problems
}

func unknownKey(key, name string, known map[string]*field) string {
	msg := fmt.Sprintf("%s is not a known key", key)
	if best := suggest.Closest(name, sortedKeys(known)); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", join(parentOf(key), best))
	}
	return msg
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return fmt.Sprintf("%t", v)
	case string:
		return fmt.Sprintf("%q", v)
	case json.Number:
		return v.String()
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%v", v)
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func parentOf(key string) string {
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		return key[:i]
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
