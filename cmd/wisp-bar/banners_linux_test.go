package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/dbustest"
)

// waitOpen waits until the notifications on screen are exactly want.
func (d *desk) waitOpen(t *testing.T, what string, want ...uint32) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		got := d.server.Open()
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: notifications on screen %v, want %v (closes %v)", what, got, want, d.server.Closes())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// closeOrder is how a server closes the banner whose body was clicked,
// relative to the Details wisp-bar posts in its place.
type closeOrder string

const (
	// closedBefore: the close reaches wisp-bar before it posts the Details.
	closedBefore closeOrder = "closed-before-details"
	// closedAfter: the close reaches it after, and the Details got a new id.
	closedAfter closeOrder = "closed-after-details"
	// reusedID: as dunst does it, the Details get the closed banner's id,
	// and the close, sent before the reply that gives that id, reaches
	// wisp-bar after it posted them (issue 28, 14).
	reusedID closeOrder = "dunst-reuses-the-id"
)

var closeOrders = []closeOrder{closedBefore, closedAfter, reusedID}

// openDetails clicks the banner's body, as dunst does it: the banner is
// closed at once, its NotificationClosed sent after the ActionInvoked, in
// the order how says.
func (d *desk) openDetails(t *testing.T, banner dbustest.Recorded, how closeOrder) dbustest.Recorded {
	t.Helper()
	var sendClosed func()
	if how == reusedID {
		d.server.ClickBody(banner.ID)
	} else {
		sendClosed = d.server.HoldClose(banner.ID)
		d.server.Invoke(banner.ID, "default")
	}
	if how == closedBefore {
		sendClosed()
	}
	details := d.server.WaitNotify(t, guard)
	if !strings.Contains(details.Body, "binding ") {
		t.Fatalf("the click on the body raised %q, not the details", details.Body)
	}
	if how == closedAfter {
		sendClosed()
	}
	if how == reusedID && details.ID != banner.ID {
		t.Fatalf("the details got id %d, not the reused %d", details.ID, banner.ID)
	}
	return details
}

// The Details banner answers: the Closed of the banner it replaced, in
// either order, neither hides the request nor stops its buttons, and the
// menu keeps it waiting until the answer.
func TestDetailsBannerApprovesAfterItsBannerCloses(t *testing.T) {
	for _, how := range closeOrders {
		t.Run(string(how), func(t *testing.T) {
			d := newDesk(t, true)
			d.startBar(t)
			r := fileRequest(t, d.home, "brew upgrade", true)
			details := d.openDetails(t, d.server.WaitNotify(t, guard), how)
			d.waitOpen(t, "the details shown", details.ID)
			m := d.client.waitMenu(t, "the request", has("OUTSIDE THE SANDBOX: brew upgrade"))
			mustFind(t, m, "wisp: 1 request waits")
			d.checkPending(t, r.id, true)
			d.server.Invoke(details.ID, "approve")
			if e := r.decided(t); !e.Approved || e.Scope != "once" || e.By != "wisp-bar" {
				t.Errorf("decision %+v", e)
			}
			d.waitOpen(t, "the details withdrawn once answered")
			d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
			d.checkPending(t, r.id, false)
		})
	}
}

// Answered elsewhere (`wisp approvals`, here the answer file a face
// writes) while the Details banner shows: it is withdrawn, and the menu
// says the request is answered and how.
func TestDetailsWithdrawnWhenAnsweredElsewhere(t *testing.T) {
	for _, how := range []closeOrder{closedAfter, reusedID} {
		t.Run(string(how), func(t *testing.T) {
			d := newDesk(t, true)
			d.startBar(t)
			r := fileRequest(t, d.home, "cargo publish", true)
			details := d.openDetails(t, d.server.WaitNotify(t, guard), how)
			d.waitOpen(t, "the details shown", details.ID)
			answerElsewhere(t, d.home, r.id, "deny")
			if e := r.decided(t); e.Approved {
				t.Errorf("decision %+v, want denied", e)
			}
			d.waitOpen(t, "the details withdrawn")
			d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
		})
	}
}

// checkPending checks that `wisp approvals pending` lists request id, or
// not: what the screen and the menu say, it says too.
func (d *desk) checkPending(t *testing.T, id string, listed bool) {
	t.Helper()
	out, err := runWispApprovals(t, d.home, "pending")
	if err != nil && listed {
		t.Fatalf("wisp approvals pending: %v\n%s", err, out)
	}
	if strings.Contains(string(out), id) != listed {
		t.Errorf("wisp approvals pending lists request %s: %v, want %v:\n%s", id, !listed, listed, out)
	}
}

// answerElsewhere answers request id as `wisp approvals` does.
func answerElsewhere(t *testing.T, home, id, verb string) {
	t.Helper()
	out, err := runWispApprovals(t, home, verb, id)
	if err != nil {
		t.Fatalf("wisp approvals %s %s: %v\n%s", verb, id, err, out)
	}
}

func runWispApprovals(t *testing.T, home string, args ...string) ([]byte, error) {
	t.Helper()
	cmd := wispCommand(t, home, append([]string{"approvals"}, args...)...)
	return cmd.CombinedOutput()
}

// Quit and SIGTERM withdraw every banner wisp-bar shows: a request's
// banner, a Details banner and the notice of a click that came too late.
func TestQuitAndSignalWithdrawEveryBanner(t *testing.T) {
	for _, how := range []string{"quit", "sigterm"} {
		for _, order := range []closeOrder{closedAfter, reusedID} {
			t.Run(how+"/"+string(order), func(t *testing.T) { quitWithDetails(t, how, order) })
		}
	}
}

func quitWithDetails(t *testing.T, how string, order closeOrder) {
	d := newDesk(t, true)
	p := d.startBar(t)
	fileRequest(t, d.home, "make deploy", false)
	fileRequest(t, d.home, "make release", false)
	first, second := d.server.WaitNotify(t, guard), d.server.WaitNotify(t, guard)
	details := d.openDetails(t, second, order)
	if details.ReplacesID != second.ID {
		t.Errorf("details replace %d, want %d", details.ReplacesID, second.ID)
	}
	d.waitOpen(t, "a banner and details", first.ID, details.ID)
	switch how {
	case "quit":
		m := d.client.waitMenu(t, "the requests", has("make release"))
		d.client.click(t, mustFind(t, m, "Quit").ID)
		p.wait(t)
	default:
		p.stop(t)
	}
	d.waitOpen(t, "nothing on screen after wisp-bar ended")
}

func wispCommand(t *testing.T, home string, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(wispBinary(t), args...)
	c.Env = append(os.Environ(), "WISP_HOME="+home, "HOME="+filepath.Dir(home))
	return c
}
