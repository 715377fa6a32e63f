package audit

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// summaryKeys are the fields a person reads first, per event, in order.
// The command goes last, after "$ ".
var summaryKeys = map[string][]string{
	EventPolicyDecision:    {"origin", "allowed", "level", "segment", "rule", "reason", "outsideSandbox", "outsideSandboxIgnored", "sandbox"},
	EventApprovalRequested: {"id", "level", "outsideSandbox", "faces", "reasons"},
	EventApprovalPending:   {"id", "outsideSandbox", "expiresAt"},
	EventApprovalDecided:   {"id", "decision", "by", "scope", "downgradedFrom", "reason", "outsideSandbox"},
	EventAnswerRefused:     {"id", "by", "reason", "file"},
	EventCommandTyped:      {"exitCode", "outsideSandbox", "sandboxRefusal", "sandboxPaths"},
	EventCommandOutcome:    {"origin", "exitCode", "timedOut", "canceled", "sandbox", "outsideSandbox", "sandboxRefusal", "sandboxPaths", "unprotected"},
}

// Summary renders the record's main fields on one line for a person:
// key=value pairs, then "$ " and the command. Fields that are absent, false
// or empty are left out (but a denial shows allowed=false); an event this wisp does not know shows all of its
// fields. Control characters are escaped, so a command cannot move the
// terminal's cursor or end the line.
func (r Record) Summary() string {
	keys, known := summaryKeys[r.Event]
	if !known {
		keys = otherKeys(r.Fields)
	}
	var parts []string
	for _, k := range keys {
		if v, ok := showValue(r.Fields[k]); ok || (k == "allowed" && v == "false") {
			parts = append(parts, k+"="+v)
		}
	}
	if cmd, ok := r.Fields["command"].(string); ok {
		parts = append(parts, "$ "+escapeControls(cmd))
	}
	return strings.Join(parts, " ")
}

func otherKeys(fields map[string]any) []string {
	var keys []string
	for k := range fields {
		if k != "command" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// showValue renders one field's value, quoted when it has spaces; false,
// null and empty values are not shown.
func showValue(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "", false
	case bool:
		return strconv.FormatBool(v), v
	case string:
		return quoteIfNeeded(v), v != ""
	case json.Number:
		return v.String(), true
	case []any:
		items := make([]string, 0, len(v))
		for _, item := range v {
			s, _ := showValue(item)
			items = append(items, s)
		}
		return strings.Join(items, ","), len(items) > 0
	}
	b, _ := json.Marshal(v)
	return escapeControls(string(b)), true
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == ',' }) {
		return escapeControls(strconv.Quote(s))
	}
	return escapeControls(s)
}

// escapeControls writes control characters (C0, DEL, C1), format
// characters (bidi overrides, zero-width ones) and bytes that are not UTF-8
// as Go escapes, so that what a person reads is what the line holds.
func escapeControls(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && strings.HasPrefix(s[i:], string(utf8.RuneError)):
			b.WriteRune(r) // a real U+FFFD
		case r == utf8.RuneError:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case hidden(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hidden(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }
