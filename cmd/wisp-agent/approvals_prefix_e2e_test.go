package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A real waiting `wisp run --ask` offers its prefix out of band; another
// process approves it for the project holding the prefix, the command
// runs, and the prefix then holds the next such line: it runs asking no one.
func TestApprovePrefixFromAnotherProcess(t *testing.T) {
	e := newE2E(t)
	e.wisp("config", "set", "approval.threshold", "moderate")
	wait := e.start("run", "--ask", "--", "touch first")
	req := e.waitPending(1)[0]
	if listing := e.wisp("approvals", "pending", "--json"); !strings.Contains(listing, `"project-prefix"`) ||
		!strings.Contains(listing, "its prefix may be held in place of the line: touch …") {
		t.Fatalf("the request does not offer the prefix:\n%s", listing)
	}
	if said := e.wisp("approvals", "approve", req.Digest, "--scope", "project-prefix"); !strings.Contains(said, "approved project, holding touch …: touch first") {
		t.Errorf("approve said %q", said)
	}
	if out, code := wait(); code != 0 {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	if list := e.wisp("approvals", "list"); !strings.Contains(list, "project prefix touch …  ("+e.project+")") {
		t.Errorf("approvals list:\n%s", list)
	}
	// Held: the next touch runs with nobody to ask (--ask, and no answer comes).
	if out, code := e.start("run", "--ask", "--", "touch second")(); code != 0 {
		t.Fatalf("the held prefix did not cover touch second: exit %d\n%s", code, out)
	}
	for _, f := range []string{"first", "second"} {
		if _, err := os.Stat(filepath.Join(e.project, f)); err != nil {
			t.Errorf("%s was not made: %v", f, err)
		}
	}
}
