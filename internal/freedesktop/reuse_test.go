package freedesktop_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// detailsAfterAClickOnTheBody is issue 28's stumble 14 on a server that
// reuses a closed banner's id, as dunst does: a middle click on the body
// sends "default" and closes the banner; the Details posted in its place
// get the same id, and the close, which reached wisp-bar first, is the old
// banner's. It returns the Details' id.
func detailsAfterAClickOnTheBody(t *testing.T, server *dbustest.NotificationServer, n *freedesktop.Notifier) uint32 {
	t.Helper()
	b := approvalBanner("a1")
	b.Actions = append(b.Actions, freedesktop.Action{Key: freedesktop.DefaultAction, Label: "Details"})
	show(t, n, b)
	id := lastNotify(t, server).ID
	server.ClickBody(id)
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "default"}) {
		t.Fatalf("the click on the body came as %+v", ev)
	}
	details := approvalBanner("a1")
	details.Body = "brew upgrade\n\nrequest a1, binding 0123abcd"
	show(t, n, details)
	if got := lastNotify(t, server); got.ReplacesID != id || got.ID != id {
		t.Fatalf("the Details: replaces_id %d, id %d; want both %d, as dunst gives them", got.ReplacesID, got.ID, id)
	}
	// Signals are handled in order: once this one is, so is the close.
	server.Invoke(id, "x-hover")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "x-hover"}) {
		t.Fatalf("the close of the banner the Details replaced was taken for theirs: %+v", ev)
	}
	return id
}

// Approve once on the Details approves: the close of the banner they
// replaced is not taken for theirs.
func TestDetailsInAReusedIdAnswer(t *testing.T) {
	server, n, _ := start(t)
	id := detailsAfterAClickOnTheBody(t, server, n)
	server.Invoke(id, "approve")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "approve"}) {
		t.Errorf("Approve once on the Details came as %+v, want the approval", ev)
	}
}

// The Details in a reused id are withdrawn when the request is answered
// elsewhere, and by Close (Quit, SIGTERM).
func TestDetailsInAReusedIdAreWithdrawn(t *testing.T) {
	for _, how := range []string{"answered elsewhere", "quit"} {
		t.Run(how, func(t *testing.T) {
			server, n, _ := start(t)
			id := detailsAfterAClickOnTheBody(t, server, n)
			if !slices.Contains(server.Open(), id) {
				t.Fatalf("the Details are not on screen: %v", server.Open())
			}
			var err error
			if how == "quit" {
				err = n.Close()
			} else {
				err = n.Withdraw("a1")
			}
			if err != nil || len(server.Open()) != 0 {
				t.Errorf("after %s: %v; on screen still %v, want nothing", how, err, server.Open())
			}
		})
	}
}

// The Details in a reused id are in the record: a wisp-bar that ends
// without Close leaves them to the next, which closes them.
func TestDetailsInAReusedIdAreRecorded(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	record := filepath.Join(t.TempDir(), "banners.json")
	killedConn := dbustest.Dial(t, address)
	killed, err := freedesktop.Attach(killedConn, freedesktop.Options{Record: record})
	if err != nil {
		t.Fatal(err)
	}
	id := detailsAfterAClickOnTheBody(t, server, killed)
	killedConn.Close() // as if the process died: no Close, no withdrawing
	attach(t, address, record)
	if got := server.Open(); len(got) != 0 || !slices.Contains(server.Closes(), id) {
		t.Errorf("the next start left the Details %d on screen: open %v, closes %v", id, got, server.Closes())
	}
}
