package approval

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/policy"
)

// An operator's threshold is used as set, in every mode; unset, it is high
// only while commands are confined.
func TestResolveThreshold(t *testing.T) {
	modes := map[Confinement]string{Confined: "confined", SandboxOff: "sandbox off", Nested: "nested"}
	unset := map[Confinement]string{Confined: "high", SandboxOff: "moderate", Nested: "moderate"}
	for c, name := range modes {
		t.Run(name+"/unset", func(t *testing.T) {
			got := ResolveThreshold("", c)
			if got.Level != unset[c] {
				t.Errorf("unset, %s: %q, want %q", name, got.Level, unset[c])
			}
			if got.Why == "" || !strings.Contains(got.Why, "unset") {
				t.Errorf("unset, %s: the reason %q does not say the key is unset", name, got.Why)
			}
		})
		for _, set := range []string{"low", "moderate", "high", "never"} {
			t.Run(name+"/"+set, func(t *testing.T) {
				got := ResolveThreshold(set, c)
				if got.Level != set {
					t.Errorf("set to %s, %s: %q applies", set, name, got.Level)
				}
				if !strings.Contains(got.Why, "set to "+set) {
					t.Errorf("set to %s, %s: the reason %q does not say so", set, name, got.Why)
				}
			})
		}
	}
}

// Under each resolved default, what asks: confined, a moderate line runs
// without a person and a high one asks; unconfined, the moderate one asks.
func TestResolvedDefaultAsksByLevel(t *testing.T) {
	for _, tc := range []struct {
		c             Confinement
		moderateAsks  bool
		highAsks, low bool
	}{
		{Confined, false, true, false},
		{SandboxOff, true, true, false},
		{Nested, true, true, false},
	} {
		person := &scripted{name: "terminal", person: true, answer: Answer{Approve: false, By: "terminal"}}
		g, _ := newGate(t, ResolveThreshold("", tc.c).Level, person)
		for line, want := range map[string]bool{"ls": tc.low, "go test ./...": tc.moderateAsks, "rm -r build": tc.highAsks} {
			before := person.asked.Load()
			c := ask(t, g, line, false)
			if asked := person.asked.Load() > before; asked != want {
				t.Errorf("confinement %d, %q: asked %v, want %v", tc.c, line, asked, want)
			}
			if c.Approved == want {
				t.Errorf("confinement %d, %q: approved %v with a denying person", tc.c, line, c.Approved)
			}
		}
	}
}

// Decision D16 is unchanged by the default: a request to run outside the
// sandbox asks a person every time, whatever threshold applies, low lines
// and held lines included.
func TestOutsideAsksUnderEveryResolvedThreshold(t *testing.T) {
	for _, set := range []string{"", "low", "moderate", "high", "never"} {
		for _, c := range []Confinement{Confined, SandboxOff, Nested} {
			person := &scripted{name: "terminal", person: true, answer: Answer{Approve: true, Scope: Always, By: "terminal"}}
			g, _ := newGate(t, ResolveThreshold(set, c).Level, person)
			for i := range 2 {
				if cl := ask(t, g, "ls", true); !cl.Approved {
					t.Fatalf("threshold %q, confinement %d: %+v", set, c, cl)
				}
				if n := person.asked.Load(); n != int32(i+1) {
					t.Errorf("threshold %q, confinement %d: outside run %d asked %d times in all", set, c, i+1, n)
				}
			}
		}
	}
}

// devSession is a scripted agent session of 40 ordinary development
// commands: reading, editing, building, testing, committing, three
// `rm -r build` and one `git push`.
var devSession = []string{
	"ls", "cat main.go", "git status",
	"mkdir -p internal/store", "touch internal/store/store.go",
	"printf 'package store\\n' > internal/store/store.go",
	"sed -i 's/Open/OpenStore/' main.go", "echo '// TODO: close' >> notes.txt",
	"gofmt -w main.go", "go build ./...", "go vet ./...", "go test ./...",
	"go test ./internal/store", "rm -r build", "make", "make build",
	"./build/app --version", "git diff", "git add main.go internal/store",
	"git commit -m 'store: open the store at start-up'",
	"cp main.go main.go.orig", "sed -i 's/OpenStore/Open/' main.go",
	"go test -run TestOpen ./internal/store", "mv main.go.orig main_old.go",
	"rm main_old.go", "go mod tidy", "go build ./...", "go test ./...",
	"rm -r build", "make", "grep -rn TODO .", "head -20 main.go",
	"git add -u", "git commit -m 'store: close the store on exit'",
	"go run . --help", "rm -r build", "make build", "go test ./...",
	"git log --oneline -5", "git push",
}

// dialogs drives the real gate with the real default policy over the
// session and counts the dialogs a person answering with scope sees.
func dialogs(t *testing.T, threshold string, scope Scope) (n int, asked []string) {
	return dialogsAnswering(t, threshold, Answer{Approve: true, Scope: scope, By: "terminal"})
}

// dialogsAnswering is dialogs with the person's whole answer: Prefix holds
// the prefix wherever a dialog offers one.
func dialogsAnswering(t *testing.T, threshold string, answer Answer) (n int, asked []string) {
	person := &scripted{name: "terminal", person: true, answer: answer}
	g, _ := newGate(t, threshold, person)
	for _, line := range devSession {
		before := person.asked.Load()
		if c := ask(t, g, line, false); !c.Approved {
			t.Fatalf("%q was not cleared: %+v", line, c)
		}
		if person.asked.Load() > before {
			asked = append(asked, line)
		}
	}
	return len(asked), asked
}

// The figure of issue 14: dialogs over the 40-line session under the old
// default (moderate) and the new one (high, confined). The new default
// asks for the high lines and nothing else.
func TestDialogsOverADevSession(t *testing.T) {
	if len(devSession) != 40 {
		t.Fatalf("the session has %d lines, not 40", len(devSession))
	}
	p, _ := policy.New(nil, nil)
	var high []string
	for _, line := range devSession {
		if p.Check(line).Risk.Level >= policy.High {
			high = append(high, line)
		}
	}
	newDefault := ResolveThreshold("", Confined).Level
	oldDefault := ResolveThreshold("", SandboxOff).Level // moderate, the old default everywhere
	for _, scope := range []Scope{Once, Session} {
		oldN, _ := dialogs(t, oldDefault, scope)
		newN, newAsked := dialogs(t, newDefault, scope)
		t.Logf("answering %s: old default (%s) %d dialogs, new default (%s) %d dialogs, over %d commands",
			scope, oldDefault, oldN, newDefault, newN, len(devSession))
		if scope == Once && !equal(newAsked, high) {
			t.Errorf("answering once, the new default asked for %q, want the high lines %q", newAsked, high)
		}
		if newN >= oldN {
			t.Errorf("answering %s: the new default asks %d times, the old %d", scope, newN, oldN)
		}
	}
	if len(high) != 4 {
		t.Errorf("the session's high lines are %q, want three rm -r build and one git push", high)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
