package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/testenv"
)

// bannerWindow waits for dunst's window on the display and returns its id
// and the middle of its first line, where a person clicks a banner.
func (d *realDesk) bannerWindow(t *testing.T) (id, x, y string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for {
		cmd := exec.Command("xdotool", "search", "--onlyvisible", "--class", "Dunst")
		cmd.Env = d.env
		out, _ := cmd.Output()
		if ids := strings.Fields(string(out)); len(ids) > 0 {
			id = ids[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("dunst's window never showed on the display")
		}
		time.Sleep(20 * time.Millisecond)
	}
	// WIDTH=300 HEIGHT=... lines, as --shell prints them.
	geometry := map[string]int{}
	for _, line := range strings.Split(d.run(t, "xdotool", "getwindowgeometry", "--shell", id), "\n") {
		k, v, _ := strings.Cut(line, "=")
		geometry[k], _ = strconv.Atoi(v)
	}
	if geometry["WIDTH"] == 0 || geometry["HEIGHT"] == 0 {
		t.Fatalf("dunst's window %s has no size: %v", id, geometry)
	}
	return id, strconv.Itoa(geometry["WIDTH"] / 2), "10"
}

// A real middle click on dunst's banner (issue 28, stumble 14): dunst
// sends the body's "default" action and then closes the banner, and gives
// the Details wisp-bar posts in its place the same id. The Details come up
// and stay up, with the request's line and binding; Approve once in
// dunst's context menu, offered for the Details, answers the request; and
// then nothing of wisp's stays on screen.
func TestDunstMiddleClickOnTheBannerShowsTheDetails(t *testing.T) {
	_, err := exec.LookPath("xdotool")
	testenv.NeedKernel(t, err == nil, "xdotool is not installed (install the xdotool package): the middle click needs a mouse on the display")
	d := newRealDesk(t)
	d.startBar(t)

	r := fileRequest(t, d.home, "brew upgrade", true)
	d.nextSent(t, "brew upgrade")
	d.waitDisplayed(t, 1)
	window, x, y := d.bannerWindow(t)
	d.run(t, "xdotool", "mousemove", "--window", window, x, y, "click", "2")

	details := d.nextSent(t, "binding ")
	if details["urgency"].Value() != byte(2) {
		t.Errorf("the Details of an outside-sandbox request went with hints %v, want urgency 2 (critical)", details)
	}
	// The close of the banner comes after the click's action: once the
	// Details' Approve once is offered in the menu, that close has been
	// taken as the banner's or as the Details' for good.
	d.waitDisplayed(t, 1)
	d.pick(t, "Approve once")
	if e := r.decided(t); !e.Approved || e.Scope != "once" || e.By != "wisp-bar" {
		t.Fatalf("Approve once on the Details after a middle click: decision %+v\ndunst offered:\n%s", e, d.offered(t))
	}
	if offered := d.offered(t); !strings.Contains(offered, "#Approve once (") {
		t.Errorf("dunst's context menu did not offer the Details' Approve once:\n%s", offered)
	}
	d.waitDisplayed(t, 0)
	history := d.dunstctl(t, "history")
	for _, want := range []string{"wisp: approve OUTSIDE the sandbox", "brew upgrade", "binding "} {
		if !strings.Contains(history, want) {
			t.Errorf("what dunst showed (its history) lacks %q:\n%s", want, history)
		}
	}
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
}

// offered is what dunst's context menu last offered the person.
func (d *realDesk) offered(t *testing.T) string {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(filepath.Dir(d.want), "offered"))
	return string(data)
}
