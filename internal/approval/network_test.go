package approval

import (
	"context"
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/netproxy"
)

var npmQuestion = netproxy.Question{Host: "registry.example.org", Port: 443, Command: "npm install", CommandID: "o-1"}

func TestHostDialogOnTheTerminal(t *testing.T) {
	term, master, screen := openPTY(t)
	home := config.Home{Dir: t.TempDir()}
	h := NewHosts(&Gate{Approvers: []Approver{term}, Held: NewHeld(home), Project: "/proj"})
	got := make(chan netproxy.Answer)
	go func() {
		a, err := h.AskHost(context.Background(), npmQuestion)
		if err != nil {
			t.Error(err)
		}
		got <- a
	}()
	screen.waitFor(t, "allow network to registry.example.org:443? asked by: npm install")
	screen.waitFor(t, "[y]once [s]ession [p]roject [a]lways [n]o")
	master.Write([]byte("x")) // not an answer: ignored
	master.Write([]byte("p"))
	if a := <-got; !a.Allowed || a.Scope != "project" || a.By != "terminal" {
		t.Fatalf("answer %+v, want allowed for the project by the terminal", a)
	}
	screen.waitFor(t, "· network to registry.example.org:443 allowed project")

	// Kept in approvals.json beside the command approvals: asked again, no
	// one is asked, in this project only.
	again := NewHosts(&Gate{Held: NewHeld(home), Project: "/proj"})
	if a, _ := again.AskHost(context.Background(), npmQuestion); !a.Allowed || a.By != "approvals.json" || a.Scope != "project" {
		t.Errorf("asked again in the project: %+v, want it held by approvals.json", a)
	}
	elsewhere := NewHosts(&Gate{Held: NewHeld(home), Project: "/other"})
	if a, _ := elsewhere.AskHost(context.Background(), npmQuestion); a.Allowed || !a.NoOne {
		t.Errorf("asked in another project with no one to ask: %+v, want refused", a)
	}
	entries, err := NewHeld(home).List()
	if err != nil || len(entries) != 1 || entries[0].Line != "network to registry.example.org:443 (host)" || entries[0].Project != "/proj" {
		t.Errorf("approvals.json lists %+v (%v)", entries, err)
	}
	if n, err := NewHeld(home).Forget(HostEntry("registry.example.org", 443), false); n != 1 || err != nil {
		t.Errorf("forget: %d %v", n, err)
	}
}

func TestHostDeclinedOnTheTerminal(t *testing.T) {
	term, master, screen := openPTY(t)
	h := NewHosts(&Gate{Approvers: []Approver{term}, Held: NewHeld(config.Home{Dir: t.TempDir()}), Project: "/proj"})
	got := make(chan netproxy.Answer)
	go func() { a, _ := h.AskHost(context.Background(), npmQuestion); got <- a }()
	screen.waitFor(t, "allow network to registry.example.org:443?")
	master.Write([]byte("n"))
	if a := <-got; a.Allowed || a.NoOne {
		t.Fatalf("answer %+v, want declined by the person", a)
	}
	screen.waitFor(t, "· network to registry.example.org:443 refused")
}

// TestYesNeverAllowsAHost: --yes approves commands by itself, but a host
// needs a person; with only --yes and a face that cannot ask, no one is
// asked and the host is refused.
func TestYesNeverAllowsAHost(t *testing.T) {
	h := NewHosts(&Gate{Approvers: []Approver{Auto{}, Denying{Why: "non-interactive"}}, Held: NewHeld(config.Home{Dir: t.TempDir()}), Project: "/proj"})
	if len(h.Approvers) != 0 {
		t.Fatalf("host approvers %v, want none from --yes and denying", h.Approvers)
	}
	a, err := h.AskHost(context.Background(), npmQuestion)
	if err != nil || a.Allowed || !a.NoOne {
		t.Fatalf("answer %+v %v, want refused with no one to ask", a, err)
	}
}

func TestHostWithdrawnWhenTheCommandEnds(t *testing.T) {
	term, _, screen := openPTY(t)
	h := NewHosts(&Gate{Approvers: []Approver{term}, Project: "/proj"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := h.AskHost(ctx, npmQuestion); done <- err }()
	screen.waitFor(t, "allow network to registry.example.org:443?")
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a withdrawn question returned no error")
	}
	screen.waitFor(t, "· withdrawn")
}
