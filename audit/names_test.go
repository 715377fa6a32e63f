package audit

import (
	"errors"
	"testing"
)

func TestCheckEventName(t *testing.T) {
	for _, tc := range []struct {
		name, closest string
		known         bool
	}{
		{"policy.decision", "", true},
		{"approval.answerRefused", "", true},
		{"polcy.decision", "policy.decision", false},
		{"Command.Outcome", "command.outcome", false},
		{"decided", "approval.decided", false},
		{"approval", "", false}, // four events hold it: no one guess
		{"bogus", "", false},
		{"", "", false},
	} {
		err := CheckEventName(tc.name)
		if tc.known {
			if err != nil {
				t.Errorf("%q: %v", tc.name, err)
			}
			continue
		}
		var unknown *UnknownEventError
		if !errors.As(err, &unknown) || unknown.Closest != tc.closest {
			t.Errorf("%q: %v, want an UnknownEventError suggesting %q", tc.name, err, tc.closest)
		}
	}
}
