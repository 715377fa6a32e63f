package cli

import (
	"encoding/json"
	"testing"
)

// On a terminal, --json shows what a terminal would obey or hide as \u
// escapes, and the line reads back as the same JSON.
func TestLogsJSONOnATerminalShowsHiddenCharacters(t *testing.T) {
	raw := `{"event":"command.outcome","command":"ls ` + "\u009b2J \u202eexe \U000E0041" + `"}`
	got := jsonVisible(raw)
	want := `{"event":"command.outcome","command":"ls \u009b2J \u202eexe \udb40\udc41"}`
	if got != want {
		t.Errorf("jsonVisible = %s\nwant          %s", got, want)
	}
	if indented := "[\n  {\n\t\"a\": \"\u202e\"\r\n}]"; jsonVisible(indented) != "[\n  {\n\t\"a\": \"\\u202e\"\r\n}]" {
		t.Errorf("JSON's whitespace was escaped: %q", jsonVisible(indented))
	}
	var a, b map[string]string
	if json.Unmarshal([]byte(raw), &a) != nil || json.Unmarshal([]byte(got), &b) != nil || a["command"] != b["command"] {
		t.Errorf("the line no longer reads as the same JSON: %q vs %q", a, b)
	}
}
