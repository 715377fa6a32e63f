package launch

import (
	"slices"
	"testing"
)

func TestBareWispStartsAChatOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		name          string
		args          []string
		stdin, stdout bool
		want          []string
	}{
		{"bare on a terminal", nil, true, true, []string{"chat"}},
		{"bare, stdout piped", nil, true, false, nil},
		{"bare, stdin piped", nil, false, true, nil},
		{"bare in a script", nil, false, false, nil},
		{"--help on a terminal", []string{"--help"}, true, true, []string{"--help"}},
		{"-h on a terminal", []string{"-h"}, true, true, []string{"-h"}},
		{"a command on a terminal", []string{"threads"}, true, true, []string{"threads"}},
		{"tui on a terminal", []string{"tui"}, true, true, []string{"tui"}},
	} {
		if got := BareArgs(tc.args, tc.stdin, tc.stdout); !slices.Equal(got, tc.want) {
			t.Errorf("%s: wisp %q runs %q, want %q", tc.name, tc.args, got, tc.want)
		}
	}
}
