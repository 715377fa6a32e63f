package main

import (
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/dbustest"
)

// bareDesk is a session bus with nothing on it yet: no tray host, no
// notification server, as a login session is while its panel starts.
func bareDesk(t *testing.T) (*desk, *dbustest.Bus) {
	t.Helper()
	bus := dbustest.StartBus(t)
	return &desk{address: bus.Address, home: wispHome(t), client: trayClient{conn: dbustest.Dial(t, bus.Address)}}, bus
}

// waitLog waits for wisp-bar's log to say want.
func (p *barProcess) waitLog(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(guard)
	for !strings.Contains(p.stderr.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("wisp-bar never said %q; it said:\n%s", want, p.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// With neither a tray host nor a notification server, wisp-bar says so
// once and keeps running; a tray host that starts later (one that took its
// name before its object, too) shows its menu, and a notification server
// that starts later shows the banner of the request that waits.
func TestTrayHostAndServerThatStartLate(t *testing.T) {
	d, _ := bareDesk(t)
	p := startBar(t, d.home, d.address)
	p.waitLog(t, "nothing on the session bus shows wisp-bar yet")
	r := fileRequest(t, d.home, "brew upgrade", true)

	d.watcher = dbustest.StartWatcher(t, d.address, dbustest.NotReadyFor(2))
	d.client.dest = d.watcher.Registered(t, guard)
	m := d.client.waitMenu(t, "the request", has("OUTSIDE THE SANDBOX: brew upgrade"))
	mustFind(t, m, "Banners off: no notification server")
	if title := d.client.property(t, "Title"); title != "wisp: 1 waiting" {
		t.Errorf("title %q", title)
	}

	d.server = dbustest.StartNotificationServer(t, d.address)
	banner := d.server.WaitNotify(t, guard)
	checkBanner(t, banner, "brew upgrade")
	d.client.waitMenu(t, "banners on", func(m []entry) bool { _, off := find(m, "Banners off"); return !off })
	d.server.Invoke(banner.ID, "approve")
	if e := r.decided(t); !e.Approved {
		t.Errorf("decision %+v", e)
	}
	if n := strings.Count(p.stderr.String(), "nothing on the session bus shows wisp-bar yet"); n != 1 {
		t.Errorf("wisp-bar said it waits %d times, want once:\n%s", n, p.stderr.String())
	}
}

// A tray host that restarts gets the item again, with the menu as it is.
func TestTrayHostThatRestarts(t *testing.T) {
	d := newDesk(t, false)
	d.startBar(t)
	fileRequest(t, d.home, "make deploy", false)
	d.client.waitMenu(t, "the request", has("make deploy"))
	d.watcher.Stop()
	d.watcher = dbustest.StartWatcher(t, d.address)
	d.client.dest = d.watcher.Registered(t, guard)
	d.client.waitMenu(t, "the request after the restart", has("make deploy"))
}

// A notification server that leaves takes its banners; the next one shows
// the request's banner again, and its buttons answer.
func TestNotificationServerThatRestarts(t *testing.T) {
	d := newDesk(t, true)
	d.startBar(t)
	r := fileRequest(t, d.home, "cargo install ripgrep", true)
	d.server.WaitNotify(t, guard)
	d.server.Stop()
	d.client.waitMenu(t, "banners off", has("Banners off"))
	d.server = dbustest.StartNotificationServer(t, d.address)
	again := d.server.WaitNotify(t, guard)
	if again.ReplacesID != 0 {
		t.Errorf("the new server was asked to replace %d", again.ReplacesID)
	}
	d.server.Invoke(again.ID, "deny")
	if e := r.decided(t); e.Approved {
		t.Errorf("decision %+v, want denied", e)
	}
}

// A request whose requester dies, or that expires, takes its banner with
// it, Details included.
func TestBannerEndsWithItsRequest(t *testing.T) {
	d := newDesk(t, true)
	d.startBar(t)
	dying := fileRequest(t, d.home, "make dying", false)
	banner := d.server.WaitNotify(t, guard)
	details := d.openDetails(t, banner, closedBefore)
	d.waitOpen(t, "the details", details.ID)
	dying.cmd.Process.Signal(syscall.SIGKILL)
	d.waitOpen(t, "the details of a request whose requester died")

	expiring := fileRequest(t, d.home, "make expiring", false, "PENDING_TIMEOUT=2s")
	d.server.WaitNotify(t, guard)
	expiring.next(t, "failed")
	d.waitOpen(t, "the banner of an expired request")
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
}

// A wisp-bar killed outright leaves its banners; the next one closes them
// and shows the request afresh.
func TestNextStartClosesWhatAKilledBarLeft(t *testing.T) {
	d := newDesk(t, true)
	first := d.startBar(t)
	fileRequest(t, d.home, "make deploy", false)
	left := d.server.WaitNotify(t, guard)
	d.client.waitMenu(t, "the request", has("make deploy")) // drawn once the banner is recorded
	first.cmd.Process.Signal(syscall.SIGKILL)
	<-first.done
	d.startBar(t)
	again := d.server.WaitNotify(t, guard)
	d.waitOpen(t, "only the new banner", again.ID)
	if !slices.Contains(d.server.Closes(), left.ID) {
		t.Errorf("the killed wisp-bar's banner %d was not closed (closes %v)", left.ID, d.server.Closes())
	}
}

// When its session bus goes, wisp-bar ends and says why, rather than run
// on with nothing to show: as it starts, and while its menu shows.
func TestSessionBusGoneEndsWispBar(t *testing.T) {
	for _, when := range []string{"starting", "running"} {
		t.Run(when, func(t *testing.T) {
			d, bus := bareDesk(t)
			if when == "running" {
				d.watcher = dbustest.StartWatcher(t, d.address)
			}
			p := startBar(t, d.home, d.address)
			if when == "running" {
				d.client.dest = d.watcher.Registered(t, guard)
				d.client.waitMenu(t, "the menu", has("wisp: nothing waits for an answer"))
			} else {
				p.waitLog(t, "nothing on the session bus shows wisp-bar yet")
			}
			bus.Kill()
			select {
			case <-p.done:
			case <-time.After(guard):
				t.Fatal("wisp-bar ran on after its session bus went")
			}
			if code := p.cmd.ProcessState.ExitCode(); code != 1 || !strings.Contains(p.stderr.String(), "the session bus went away") || strings.Contains(p.stderr.String(), "panic") {
				t.Errorf("exit %d; stderr:\n%s", code, p.stderr.String())
			}
		})
	}
}

// A tray host already there that refuses the first registrations (its
// object not yet exported) still gets the item: systray tries once,
// wisp-bar again until the host takes it.
func TestTrayHostNotReadyAtStart(t *testing.T) {
	d, _ := bareDesk(t)
	d.watcher = dbustest.StartWatcher(t, d.address, dbustest.NotReadyFor(2))
	p := d.startBar(t)
	d.client.waitMenu(t, "the empty menu", has("wisp: nothing waits for an answer"))
	if strings.Contains(p.stderr.String(), "failed to register") {
		t.Errorf("wisp-bar passed on systray's registration failure, which it mends itself:\n%s", p.stderr.String())
	}
}
