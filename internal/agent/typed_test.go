package agent

import "testing"

// The parsing of decision D25, exactly.
func TestParseTyped(t *testing.T) {
	for _, tc := range []struct {
		line    string
		typed   bool
		command string
		outside bool
	}{
		{"!!x", true, "x", true},
		{"!! x", true, "x", true},
		{"!!brew upgrade", true, "brew upgrade", true},
		{"!! brew upgrade  ", true, "brew upgrade", true},
		{"! !x", true, "!x", false}, // a space: an ordinary command whose text is !x
		{"!x", true, "x", false},
		{"! x", true, "x", false},
		{"!!!x", true, "!x", true}, // runs !x outside
		{"!", true, "", false},     // runs nothing
		{"!!", true, "", true},     // runs nothing
		{"!!  ", true, "", true},
		{"! ", true, "", false},
		{"x", false, "", false},
		{" !x", false, "", false}, // only a line that starts with the mark
		{"say !!x", false, "", false},
		{"", false, "", false},
	} {
		got, ok := ParseTyped(tc.line)
		if ok != tc.typed || got.Command != tc.command || got.OutsideSandbox != tc.outside {
			t.Errorf("ParseTyped(%q) = %+v, %v; want command %q outside %v typed %v",
				tc.line, got, ok, tc.command, tc.outside, tc.typed)
		}
	}
}
