package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// answer runs `wisp approvals ARGS…` and gives its output and exit code.
func (e *e2e) answer(args ...string) (string, int) {
	e.t.Helper()
	out, err := e.cmd(append([]string{"approvals"}, args...)...).CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return string(out), 0
}

// fileHere files a request in the e2e home from this test process, which
// stays alive as its requester, under an id the test chooses.
func (e *e2e) fileHere(id, line string, outside bool) *pending.Filed {
	e.t.Helper()
	ch := pending.New(filepath.Join(e.home, "pending"))
	f, err := ch.File(context.Background(), pending.Request{ID: id, Command: line, Cwd: e.project,
		Level: pending.LevelHigh, Reasons: []string{"deletes files"}, Face: pending.FaceRun, OutsideSandbox: outside})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { f.Withdraw() })
	return f
}

// A real waiting `wisp run --ask` is approved from another process by the
// first 6 characters of its id; the audit log's approval events all carry
// that id, as the listing shows it.
func TestApproveByIDPrefixFromAnotherProcess(t *testing.T) {
	e := newE2E(t)
	os.MkdirAll(filepath.Join(e.project, "build"), 0o755)
	wait := e.start("run", "--ask", "--", "rm -r build && echo removed")
	req := e.waitPending(1)[0]
	if said := e.wisp("approvals", "approve", req.ID[:6]); !strings.Contains(said, "approved once: rm -r build && echo removed") {
		t.Errorf("approve said %q", said)
	}
	if out, code := wait(); code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
	for _, event := range []string{"approval.requested", "approval.pending", "approval.decided"} {
		logs := e.wisp("logs", "--json", "--event", event)
		if !strings.Contains(logs, `"id":"`+req.ID+`"`) {
			t.Errorf("%s does not carry the id %s that wisp approvals showed:\n%s", event, req.ID, logs)
		}
	}
	if logs := e.wisp("logs", "--json", "--event", "approval.pending"); !strings.Contains(logs, `"digest":"`+req.Digest+`"`) {
		t.Errorf("approval.pending does not carry the digest %s:\n%s", req.Digest, logs)
	}
}

// The digest the banner and the listing show answers the request too; a
// denial by digest ends the real waiting wisp with exit 4. Answered, the
// same digest and id prefix say it is no longer waiting, which is not the
// same as never filed.
func TestDenyByDigestThenAnsweredElsewhere(t *testing.T) {
	e := newE2E(t)
	wait := e.start("run", "--ask", "--", "rm -r build")
	req := e.waitPending(1)[0]
	if len(req.Digest) != 8 {
		t.Fatalf("listed digest %q", req.Digest)
	}
	e.wisp("approvals", "deny", req.Digest)
	if out, code := wait(); code != cli.ExitNotApproved {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, ref := range []string{req.Digest, req.ID[:5], req.ID} {
		out, code := e.answer("approve", ref)
		if code != cli.ExitFailure || !strings.Contains(out, "request "+req.ID+": the request is no longer waiting: it was answered elsewhere, withdrawn or expired") {
			t.Errorf("approve %s after the answer: exit %d\n%s", ref, code, out)
		}
	}
}

// An id no request ever had says so, distinct from one that ended; a
// reference too short or not hex is a usage mistake.
func TestNeverFiledAndMalformedReferences(t *testing.T) {
	e := newE2E(t)
	out, code := e.answer("approve", "0123456789abcdef")
	if code != cli.ExitFailure || !strings.Contains(out, "wisp: error: no request 0123456789abcdef was ever filed") ||
		strings.Contains(out, "answered elsewhere") {
		t.Errorf("never-filed id: exit %d\n%s", code, out)
	}
	for _, ref := range []string{"abc", "not-hex!", "0123456789abcdef0"} {
		if out, code := e.answer("deny", ref); code != cli.ExitUsage || !strings.Contains(out, "is not a request id") {
			t.Errorf("deny %q: exit %d\n%s", ref, code, out)
		}
	}
}

// A prefix that names two waiting requests answers neither: it lists both,
// each command shown through render.Line (an escape in it is not obeyed),
// and exits 2 with a hint. The longer prefix then answers one.
func TestAmbiguousPrefixListsTheCandidates(t *testing.T) {
	e := newE2E(t)
	a := e.fileHere("abcd000000000001", "rm -r a\x1b[2Jforged", false)
	b := e.fileHere("abcd000000000002", "rm -r b", true)
	out, code := e.answer("approve", "abcd")
	if code != cli.ExitUsage {
		t.Fatalf("exit %d\n%s", code, out)
	}
	for _, want := range []string{
		"wisp: error: abcd names 2 waiting requests; give more of the id:",
		"abcd000000000001  " + pending.Digest(a.Binding) + "  " + render.Line("rm -r a\x1b[2Jforged"),
		"abcd000000000002  " + pending.Digest(b.Binding) + "  rm -r b",
		"wisp: hint: give more characters of the id",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b") {
		t.Errorf("the listing carries a raw escape:\n%q", out)
	}
	if _, err := os.Stat(filepath.Join(e.home, "pending", "abcd000000000001.answer.json")); err == nil {
		t.Error("an ambiguous prefix wrote an answer")
	}
	if said := e.wisp("approvals", "deny", "abcd000000000002"); !strings.Contains(said, "denied: rm -r b") {
		t.Errorf("deny said %q", said)
	}
}

// Piped, the listing keeps a column that says a request would run OUTSIDE
// the sandbox; --json carries the reasons and the scopes offered.
func TestPendingPipedAndJSONSayOutsideReasonsAndScopes(t *testing.T) {
	e := newE2E(t)
	e.fileHere("1111000000000001", "rm -r confined", false)
	e.fileHere("2222000000000002", "brew upgrade", true)
	table := e.wisp("approvals", "pending")
	lines := strings.Split(strings.TrimSpace(table), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "SANDBOX") {
		t.Fatalf("table:\n%s", table)
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		want := map[string]string{"1111000000000001": "confined", "2222000000000002": "OUTSIDE"}[f[0]]
		if len(f) < 4 || f[3] != want {
			t.Errorf("row %q: SANDBOX is not %q", l, want)
		}
		if strings.Contains(l, "OUTSIDE THE SANDBOX:") {
			t.Errorf("piped, the command column changed: %q", l)
		}
	}
	var got []struct {
		ID             string   `json:"id"`
		OutsideSandbox bool     `json:"outsideSandbox"`
		Reasons        []string `json:"reasons"`
		Scopes         []string `json:"scopes"`
	}
	if err := json.Unmarshal([]byte(e.wisp("approvals", "pending", "--json")), &got); err != nil || len(got) != 2 {
		t.Fatalf("--json: %v %+v", err, got)
	}
	for _, r := range got {
		switch r.ID {
		case "2222000000000002":
			if !r.OutsideSandbox || strings.Join(r.Scopes, ",") != "once" || len(r.Reasons) != 2 || r.Reasons[0] != pending.OutsideReason {
				t.Errorf("outside request in --json: %+v", r)
			}
		case "1111000000000001":
			if r.OutsideSandbox || strings.Join(r.Scopes, ",") != "once,session,project,always" || strings.Join(r.Reasons, ",") != "deletes files" {
				t.Errorf("confined request in --json: %+v", r)
			}
		}
	}
}
