package bar

import (
	"strings"
	"testing"
	"time"
)

// The close of a banner that Details replaced, reaching the Bar after the
// Details were shown, changes nothing: the Details stay its banner, their
// buttons answer, and an answer elsewhere withdraws them.
func TestCloseOfAReplacedBannerKeepsTheDetails(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("brew upgrade", true)
	h.face.expect(t, "show "+f.Request.ID)
	first := h.face.serial(f.Request.ID)
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionDetails, Serial: first}
	h.face.expect(t, "details "+f.Request.ID)
	details := h.face.serial(f.Request.ID)
	if details == first || details == 0 {
		t.Fatalf("details serial %d, banner %d: each banner needs its own", details, first)
	}
	h.face.events <- BannerEvent{ID: f.Request.ID, Closed: true, Serial: first}
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionApprove, Serial: details}
	if d := wait(t, f); !d.Approved || d.Scope != "once" {
		t.Errorf("decision %+v", d)
	}
	h.face.expect(t, "withdraw "+f.Request.ID)
}

// The person's own dismissal of the banner standing now still counts: the
// request is not raised again, and stays in the menu.
func TestCloseOfTheStandingBannerIsADismissal(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("make deploy", false)
	h.face.expect(t, "show "+f.Request.ID)
	h.face.events <- BannerEvent{ID: f.Request.ID, Closed: true, Serial: h.face.serial(f.Request.ID)}
	// The loop takes events and clicks as they come: let it take the close
	// before the clicks, or the pause withdraws a banner still standing.
	for len(h.face.events) > 0 {
		time.Sleep(time.Millisecond)
	}
	h.bar.Click(KeyPause)
	h.bar.Click(KeyPause)
	h.tray.waitMenu(t, "unpaused", func(m Menu) bool { return !m.Items[len(m.Items)-2].Checked && m.Count == 1 })
	h.face.quiet(t)
}

// Answered elsewhere while its Details show, the request's Details are
// withdrawn; a late click on them then says what the answer was.
func TestDetailsWithdrawnWhenAnsweredElsewhere(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("cargo publish", false)
	h.face.expect(t, "show "+f.Request.ID)
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionDetails, Serial: h.face.serial(f.Request.ID)}
	h.face.expect(t, "details "+f.Request.ID)
	details := h.face.serial(f.Request.ID)
	p, err := h.ch.Get(f.Request.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.ch.Answer(p, "deny", "", "wisp approvals"); err != nil {
		t.Fatal(err)
	}
	h.face.expect(t, "withdraw "+f.Request.ID)
	h.tray.waitMenu(t, "the answer said", func(m Menu) bool {
		return m.Count == 0 && len(m.Items) > 1 && strings.HasSuffix(m.Items[1].Label, "· denied by wisp approvals")
	})
	if d := wait(t, f); d.Approved {
		t.Errorf("decision %+v", d)
	}
	h.tray.waitMenu(t, "nothing waiting", func(m Menu) bool { return len(m.Items) == 5 })
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionApprove, Serial: details}
	h.tray.waitMenu(t, "what the answer was", withNotice("was denied by wisp approvals, and wisp took that answer"))
}

// A notification server that leaves takes its banners; when banners are
// back, the waiting requests' banners are raised again.
func TestBannersRaisedAgainWhenTheServerReturns(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("make release", false)
	h.face.expect(t, "show "+f.Request.ID)
	h.bar.SetBannerStatus(BannerStatus{Off: "no notification server on the session bus; answer here"})
	h.face.expect(t, "withdraw "+f.Request.ID)
	h.tray.waitMenu(t, "banners off", func(m Menu) bool { return m.Count == 1 && hasItem(m, "Banners off: ") })
	h.bar.SetBannerStatus(BannerStatus{})
	h.face.expect(t, "show "+f.Request.ID)
}

func hasItem(m Menu, prefix string) bool {
	for _, it := range m.Items {
		if strings.HasPrefix(it.Label, prefix) {
			return true
		}
	}
	return false
}
