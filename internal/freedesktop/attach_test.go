package freedesktop_test

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// attach makes a Notifier with Attach on a fresh connection; its status
// changes arrive on the channel returned.
func attach(t *testing.T, address, record string) (*freedesktop.Notifier, chan freedesktop.Status) {
	t.Helper()
	statuses := make(chan freedesktop.Status, 16)
	n, err := freedesktop.Attach(dbustest.Dial(t, address), freedesktop.Options{Status: func(s freedesktop.Status) { statuses <- s }, Record: record})
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	t.Cleanup(func() { n.Close() })
	return n, statuses
}

// nextStatus waits for a status for which ok holds.
func nextStatus(t *testing.T, statuses chan freedesktop.Status, what string, ok func(freedesktop.Status) bool) freedesktop.Status {
	t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case s := <-statuses:
			if ok(s) {
				return s
			}
		case <-deadline:
			t.Fatalf("no status %s", what)
		}
	}
}

func on(s freedesktop.Status) bool  { return s.Err == nil }
func off(s freedesktop.Status) bool { return s.Err != nil }

// With no server at start, Attach still gives a Notifier, which says why
// it shows nothing; a server that starts later shows the next banner.
func TestAttachBeforeTheServerStarts(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	n, statuses := attach(t, address, "")
	if s := n.Status(); !errors.Is(s.Err, freedesktop.ErrNoServer) {
		t.Fatalf("status without a server: %+v", s)
	}
	if err := n.Show(approvalBanner("a1")); !errors.Is(err, freedesktop.ErrNoServer) {
		t.Errorf("Show without a server = %v, want ErrNoServer", err)
	}
	server := dbustest.StartNotificationServer(t, address)
	if s := nextStatus(t, statuses, "with the server", on); s.Server.Name != "wisp-test" || s.NoButtons != nil {
		t.Errorf("status %+v", s)
	}
	b := approvalBanner("a1")
	b.Serial = 7
	show(t, n, b)
	server.Invoke(lastNotify(t, server).ID, "approve")
	if ev := nextEvent(t, n); ev.ID != "a1" || ev.Action != "approve" || ev.Serial != 7 {
		t.Errorf("event %+v, want approve of a1 with serial 7", ev)
	}
}

// A server that leaves takes its banners: the Notifier says so and
// forgets them; the next server shows a new banner, replacing nothing.
func TestServerThatLeavesAndComesBack(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	first := dbustest.StartNotificationServer(t, address)
	n, statuses := attach(t, address, "")
	show(t, n, approvalBanner("a1"))
	first.Stop()
	s := nextStatus(t, statuses, "without the server", off)
	if !errors.Is(s.Err, freedesktop.ErrServerLeft) {
		t.Errorf("status after the server left: %v", s.Err)
	}
	second := dbustest.StartNotificationServer(t, address)
	nextStatus(t, statuses, "with the new server", on)
	show(t, n, approvalBanner("a1"))
	if got := lastNotify(t, second); got.ReplacesID != 0 {
		t.Errorf("the new server was asked to replace %d", got.ReplacesID)
	}
}

// A Notifier that ended without Close (killed) left banners on screen;
// the next Notifier on the same bus and server closes them. One whose
// connection still runs keeps its banners.
func TestAttachClosesWhatAKilledNotifierLeft(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	record := filepath.Join(t.TempDir(), "banners.json")

	alive, _ := attach(t, address, record)
	show(t, alive, approvalBanner("a1"))
	kept := lastNotify(t, server).ID
	attach(t, address, record) // reads alive's record, then keeps its own there
	if got := server.Closes(); len(got) != 0 {
		t.Errorf("Attach closed %v while their Notifier still runs", got)
	}

	killedConn := dbustest.Dial(t, address)
	killed, err := freedesktop.Attach(killedConn, freedesktop.Options{Record: record})
	if err != nil {
		t.Fatal(err)
	}
	show(t, killed, approvalBanner("b2"))
	left := lastNotify(t, server).ID
	killedConn.Close() // as if the process died: no Close, no withdrawing
	attach(t, address, record)
	if got := server.Closes(); !slices.Contains(got, left) || slices.Contains(got, kept) {
		t.Errorf("closes %v: want the killed Notifier's %d closed and %d kept", got, left, kept)
	}
}
