package pending

import "testing"

func TestStartTimeIsField22OfProcStat(t *testing.T) {
	rest := " 1 1 1 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 8812345 1000 200"
	for _, tc := range []struct {
		stat, want string
		gone       bool
	}{
		{"42 (wisp) S" + rest, "8812345", false},
		{"42 (a (b) c) S" + rest, "8812345", false}, // a command name with spaces and parentheses
		{"42 (wisp) Z" + rest, "", true},
	} {
		got, err := startTimeFromStat([]byte(tc.stat))
		if got != tc.want || (err == errProcessGone) != tc.gone {
			t.Errorf("startTimeFromStat(%q) = %q, %v", tc.stat, got, err)
		}
	}
	if _, err := startTimeFromStat([]byte("42 (wisp) S 1 2")); err == nil {
		t.Error("a short line gives no error")
	}
}
