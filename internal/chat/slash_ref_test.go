package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/pending"
)

// /approvals answers by what the person sees: a prefix of the id or the
// digest; a reference too short to name one is refused in words.
func TestSlashApprovalsByPrefixAndDigest(t *testing.T) {
	home := config.Home{Dir: t.TempDir()}
	ch := pending.New(home.PendingDir())
	a := &Approvals{Channel: ch, Held: approval.NewHeld(home)}
	file := func(command string) *pending.Filed {
		t.Helper()
		f, err := ch.File(context.Background(), pending.Request{Command: command, Cwd: "/p", Level: pending.LevelModerate, Face: pending.FaceRespond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Withdraw() })
		return f
	}
	first, second := file("make build"), file("go test ./...")
	var said []string
	say := func(s string) { said = append(said, s) }

	slash("/approvals deny "+pending.Digest(second.Binding), a, say)
	if d, err := second.Wait(context.Background()); err != nil || d.Approved {
		t.Fatalf("denied by digest, the requester read %+v, %v (said %q)", d, err, said)
	}
	said = nil
	slash("/approvals approve "+first.Request.ID[:6]+" once", a, say)
	if d, err := first.Wait(context.Background()); err != nil || !d.Approved {
		t.Fatalf("approved by a prefix of the id, the requester read %+v, %v (said %q)", d, err, said)
	}

	// Too short to name one: refused in words, nothing answered.
	said = nil
	slash("/approvals approve ab", a, say)
	if len(said) != 1 || !strings.Contains(said[0], "at least 4 characters") {
		t.Errorf("a two-character ref: %q", said)
	}
}
