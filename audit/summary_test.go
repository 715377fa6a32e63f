package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestSummaries pins the one-line form of each sample event and of the
// damaged fixture's readable lines (an unknown event shows every field).
func TestSummaries(t *testing.T) {
	var b strings.Builder
	for _, src := range []string{"testdata/events.jsonl", "testdata/damaged.jsonl"} {
		home := homeWith(t, map[string]string{"audit.jsonl": src})
		Read(home, Filter{}, func(r Record) error {
			fmt.Fprintf(&b, "%-22s %s\n", r.Event, r.Summary())
			return nil
		})
	}
	golden(t, "testdata/summaries.golden", []byte(b.String()))
}

// TestSummaryEscapesControls: a command cannot write escape sequences or
// line breaks to the person's terminal through wisp logs.
func TestSummaryEscapesControls(t *testing.T) {
	r := Record{Event: EventCommandOutcome, Fields: map[string]any{
		"command": "echo hi\x1b[2J\nrm -rf ~\u202e",
		"reason":  "a\tb",
		"origin":  "model\u009b31m",
		"sandbox": "bad\xffbyte",
	}}
	got := r.Summary()
	want := `origin=model\u009b31m sandbox=bad\xffbyte $ echo hi\x1b[2J\nrm -rf ~\u202e`
	if got != want {
		t.Errorf("summary %q\nwant    %q", got, want)
	}
	r.Event = EventPolicyDecision
	if got := r.Summary(); !strings.Contains(got, `reason="a\tb"`) {
		t.Errorf("summary %q lacks the escaped, quoted reason", got)
	}
}
