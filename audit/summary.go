package audit

import (
	"encoding/json"
	"github.com/wisp-sh/wisp/internal/visible"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// summaryKeys are the fields a person reads first, per event, in order.
// The command goes last, after "$ ".
var summaryKeys = map[string][]string{
	EventPolicyDecision:    {"origin", "allowed", "level", "segment", "rule", "reason", "outsideSandbox", "outsideSandboxIgnored", "sandbox"},
	EventApprovalRequested: {"id", "level", "outsideSandbox", "faces", "reasons"},
	EventApprovalPending:   {"id", "digest", "outsideSandbox", "expiresAt"},
	EventApprovalDecided:   {"id", "decision", "by", "scope", "prefixes", "downgradedFrom", "reason", "outsideSandbox"},
	EventAnswerRefused:     {"id", "by", "reason", "file"},
	EventCommandTyped:      {"exitCode", "outsideSandbox", "sandboxRefusal", "sandboxPaths"},
	EventCommandOutcome:    {"origin", "exitCode", "timedOut", "canceled", "sandbox", "outsideSandbox", "sandboxRefusal", "sandboxPaths", "unprotected"},
	EventNetworkDecision:   networkSummaryKeys,
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
		parts = append(parts, "$ "+visible.Line(cmd))
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
	return visible.Line(string(b)), true
}

func quoteIfNeeded(s string) string {
	if s == "" || strings.ContainsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '"' || r == ',' }) {
		return visible.Line(strconv.Quote(s))
	}
	return visible.Line(s)
}
