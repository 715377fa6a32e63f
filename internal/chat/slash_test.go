package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/pending"
)

func TestSlashApprovalsListsAndAnswers(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	ch := pending.New(home.PendingDir())
	a := &Approvals{Channel: ch, Held: approval.NewHeld(home)}
	filed, err := ch.File(context.Background(), pending.Request{Kind: pending.KindOutsideSandbox, Command: "brew upgrade",
		Cwd: "/p", OutsideSandbox: true, Level: pending.LevelModerate, Reasons: []string{pending.OutsideReason},
		Scopes: []string{pending.ScopeOnce}, Face: pending.FaceRespond})
	if err != nil {
		t.Fatal(err)
	}
	defer filed.Withdraw()
	var said []string
	say := func(s string) { said = append(said, s) }
	if quit, ok := slash("/approvals", a, say); quit || !ok {
		t.Fatalf("/approvals: quit %v ok %v", quit, ok)
	}
	id := filed.Request.ID
	if got := strings.Join(said, "\n"); !strings.Contains(got, id+"  "+pending.Digest(filed.Binding)+"  moderate  OUTSIDE THE SANDBOX: brew upgrade  (in /p, from respond)") {
		t.Errorf("/approvals listed:\n%s", got)
	}
	said = nil
	slash("/approvals approve "+id+" always", a, say)
	if said[0] != "· approved once, outside the sandbox (always is taken as once): brew upgrade" {
		t.Errorf("approve said %q", said)
	}
	d, err := filed.Wait(context.Background())
	if err != nil || !d.Approved {
		t.Errorf("the requester read %+v, %v", d, err)
	}
}

func TestSlashCommandsAndMessages(t *testing.T) {
	var said []string
	say := func(s string) { said = append(said, s) }
	for _, tc := range []struct {
		line     string
		quit, ok bool
	}{
		{"/quit", true, true},
		{"/exit", true, true},
		{"/help", false, true},
		{"/etc/hosts looks wrong", false, false}, // a message for the model
		{"/approvals", false, true},              // not offered here: said so
	} {
		quit, ok := slash(tc.line, nil, say)
		if quit != tc.quit || ok != tc.ok {
			t.Errorf("slash(%q) = %v, %v", tc.line, quit, ok)
		}
	}
	if got := strings.Join(said, "\n"); !strings.Contains(got, "!COMMAND ") || !strings.Contains(got, "!!COMMAND ") {
		t.Errorf("/help said %q", got)
	}
}

// A request's command comes from a file: /approvals shows its newline and
// escapes on its line, so it cannot forge another row.
func TestSlashApprovalsShowsARequestOnItsLine(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	ch := pending.New(home.PendingDir())
	a := &Approvals{Channel: ch, Held: approval.NewHeld(home)}
	filed, err := ch.File(context.Background(), pending.Request{Kind: pending.KindCommand, Command: "ls\n  forged  low  rm -rf /\x1b[8m",
		Cwd: "/p", Level: pending.LevelModerate, Scopes: []string{pending.ScopeOnce}, Face: pending.FaceRespond})
	if err != nil {
		t.Fatal(err)
	}
	defer filed.Withdraw()
	var said []string
	slash("/approvals", a, func(s string) { said = append(said, s) })
	got := strings.Join(said, "\n")
	if strings.ContainsAny(got, "\x1b") || !strings.Contains(got, `ls\n  forged  low  rm -rf /\x1b[8m  (in /p`) {
		t.Errorf("/approvals listed:\n%s", got)
	}
}
