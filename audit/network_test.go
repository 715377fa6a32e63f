package audit

import (
	"strings"
	"testing"
)

func TestNetworkDecisionLoggedAndRead(t *testing.T) {
	if err := CheckEventName(EventNetworkDecision); err != nil {
		t.Fatal(err)
	}
	home := testHome(t)
	l := New(home, "s1", 42, nil)
	if err := l.Log(NetworkDecision{Host: "registry.npmjs.org", Port: 443, Allowed: false, By: "terminal", Scope: "once",
		Reason: "not in allowedDomains; the person declined", CommandID: "o-1", Command: "npm install"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	var got []Record
	if err := Read(home, Filter{Event: EventNetworkDecision}, func(r Record) error { got = append(got, r); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 {
		t.Fatalf("read %d network.decision records, want 1", len(got))
	}
	want := "host=registry.npmjs.org port=443 allowed=false by=terminal scope=once reason="
	if s := got[0].Summary(); !strings.Contains(s, want) || !strings.HasSuffix(s, "$ npm install") {
		t.Errorf("summary %q, want it to start with %q and end with the command", s, want)
	}
}
