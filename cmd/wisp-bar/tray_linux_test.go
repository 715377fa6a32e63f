package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/pending"
)

// desk is a desktop session for wisp-bar: a private bus with a tray host's
// watcher and, when asked, a notification server.
type desk struct {
	address string
	server  *dbustest.NotificationServer
	watcher *dbustest.Watcher
	client  trayClient
	home    string
}

func newDesk(t *testing.T, withServer bool) *desk {
	t.Helper()
	d := &desk{address: dbustest.StartSessionBus(t), home: wispHome(t)}
	if withServer {
		d.server = dbustest.StartNotificationServer(t, d.address)
	}
	d.watcher = dbustest.StartWatcher(t, d.address)
	d.client = trayClient{conn: dbustest.Dial(t, d.address)}
	return d
}

// startBar starts wisp-bar and waits until its tray registers.
func (d *desk) startBar(t *testing.T) *barProcess {
	t.Helper()
	p := startBar(t, d.home, d.address)
	d.client.dest = d.watcher.Registered(t, guard)
	return p
}

func TestNoSessionBusSaysWhatIsMissing(t *testing.T) {
	cmd := exec.Command(barBinary)
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=", "XDG_RUNTIME_DIR="+t.TempDir(), "WISP_HOME="+wispHome(t))
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1; output:\n%s", err, out)
	}
	for _, want := range []string{"wisp-bar: error: no D-Bus session bus", "is not a bus socket", "wisp-bar: hint: run wisp-bar inside your desktop session"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// The tray's menu over dbusmenu, as a tray host reads and clicks it: a
// request appears with its line, level, folder and age, Approve once
// answers it, and its banner is withdrawn. A malformed file beside it
// never shows.
func TestTrayMenuApprovesOnce(t *testing.T) {
	d := newDesk(t, true)
	junk := filepath.Join(d.home, "pending", "00000000000000f1.request.json")
	if err := os.WriteFile(junk, []byte(`{"version":1,"id":"00000000000000f1"`), 0o600); err != nil {
		t.Fatal(err)
	}
	d.startBar(t)
	m := d.client.waitMenu(t, "the empty menu", has("wisp: nothing waits for an answer"))
	labels := []string{}
	for _, e := range m {
		labels = append(labels, e.Label)
	}
	if want := []string{"wisp: nothing waits for an answer", "----", "Open audit log", "Pause banners", "Quit"}; !slices.Equal(labels, want) {
		t.Errorf("menu %q, want %q", labels, want)
	}
	if title := d.client.property(t, "Title"); title != "wisp" {
		t.Errorf("title %q", title)
	}

	r := fileRequest(t, d.home, "touch /srv/shared/my_file", true)
	m = d.client.waitMenu(t, "the request", has("OUTSIDE THE SANDBOX: touch"))
	item := mustFind(t, m, "OUTSIDE THE SANDBOX: touch")
	if !strings.HasPrefix(item.Label, "OUTSIDE THE SANDBOX: touch /srv/shared/my_file · moderate · /srv/project · ") || !strings.Contains(item.Raw, "my__file") {
		t.Errorf("request item %q (sent as %q)", item.Label, item.Raw)
	}
	if title := d.client.property(t, "Title"); title != "wisp: 1 waiting" {
		t.Errorf("title %q", title)
	}
	banner := d.server.WaitNotify(t, guard)
	checkBanner(t, banner, "touch /srv/shared/my_file")

	d.client.click(t, mustFind(t, item.Children, "Approve once").ID)
	if e := r.decided(t); !e.Approved || e.Scope != "once" || e.By != "wisp-bar" {
		t.Errorf("decision %+v", e)
	}
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
	if !slices.Contains(d.server.Closes(), banner.ID) {
		t.Errorf("the banner %d was not withdrawn (closes %v)", banner.ID, d.server.Closes())
	}
}

// checkBanner holds a banner to the product's wording and the hints that
// keep it on screen until answered.
func checkBanner(t *testing.T, b dbustest.Recorded, line string) {
	t.Helper()
	if b.Summary != "wisp: approve OUTSIDE the sandbox" || b.AppName != "wisp" {
		t.Errorf("banner %q from %q", b.Summary, b.AppName)
	}
	body := strings.Split(b.Body, "\n")
	if len(body) != 4 || body[0] != line || body[1] != "in /srv/project" || body[2] != pending.OutsideReason || !strings.HasPrefix(body[3], "digest ") {
		t.Errorf("body %q", body)
	}
	if want := []string{"approve", "Approve once", "deny", "Deny", "default", "Details"}; !slices.Equal(b.Actions, want) {
		t.Errorf("actions %q, want %q", b.Actions, want)
	}
	if b.Hint("urgency") != byte(2) || b.Hint("resident") != true || b.ExpireTimeout != 0 {
		t.Errorf("urgency %v resident %v timeout %d", b.Hint("urgency"), b.Hint("resident"), b.ExpireTimeout)
	}
}

// The banner's buttons: a click on the body shows details and approves
// nothing; Approve once answers, even when the server reports it twice.
func TestBannerButtons(t *testing.T) {
	d := newDesk(t, true)
	d.startBar(t)
	r := fileRequest(t, d.home, "brew upgrade", true)
	banner := d.server.WaitNotify(t, guard)

	d.server.Invoke(banner.ID, "default")
	details := d.server.WaitNotify(t, guard)
	if details.ReplacesID != banner.ID || !strings.Contains(details.Body, "binding ") || !strings.Contains(details.Body, "request "+r.id) {
		t.Errorf("details replace %d with %q", details.ReplacesID, details.Body)
	}
	if _, err := os.Lstat(filepath.Join(d.home, "pending", r.id+".answer.json")); !os.IsNotExist(err) {
		t.Fatalf("a click on the body wrote an answer (%v)", err)
	}
	d.server.Invoke(details.ID, "approve")
	d.server.Invoke(details.ID, "approve")
	if e := r.decided(t); !e.Approved || e.Scope != "once" {
		t.Errorf("decision %+v", e)
	}
	d.client.waitMenu(t, "nothing waiting", has("wisp: nothing waits for an answer"))
	if !slices.Contains(d.server.Closes(), details.ID) {
		t.Errorf("the banner was not withdrawn (closes %v)", d.server.Closes())
	}
}

// Restarted while a request waits, wisp-bar closes its old banner as it
// goes, and shows the request again, with a new banner, when it is back.
func TestRestartRaisesBannersAgain(t *testing.T) {
	d := newDesk(t, true)
	first := d.startBar(t)
	r := fileRequest(t, d.home, "cargo install ripgrep", true)
	old := d.server.WaitNotify(t, guard)
	first.stop(t)
	if !slices.Contains(d.server.Closes(), old.ID) {
		t.Errorf("the old banner %d was left on screen (closes %v)", old.ID, d.server.Closes())
	}

	d.startBar(t)
	d.client.waitMenu(t, "the request again", has("OUTSIDE THE SANDBOX: cargo install ripgrep"))
	again := d.server.WaitNotify(t, guard)
	if again.ID == old.ID || again.ReplacesID != 0 || again.Summary != old.Summary {
		t.Errorf("banner after restart %+v, old %+v", again, old)
	}
	d.server.Invoke(again.ID, "deny")
	if e := r.decided(t); e.Approved {
		t.Errorf("decision %+v, want denied", e)
	}
}

// Without a notification server the menu alone answers, and says why no
// banner comes.
func TestMenuAloneWithoutNotificationServer(t *testing.T) {
	d := newDesk(t, false)
	d.startBar(t)
	r := fileRequest(t, d.home, "npm publish", false)
	m := d.client.waitMenu(t, "the request", has("npm publish"))
	mustFind(t, m, "Banners off: no notification server on the session bus")
	d.client.click(t, mustFind(t, mustFind(t, m, "npm publish").Children, "Approve for this session").ID)
	if e := r.decided(t); !e.Approved || e.Scope != "session" {
		t.Errorf("decision %+v", e)
	}
}

// Pause banners withdraws them; Quit ends wisp-bar cleanly.
func TestPauseAndQuit(t *testing.T) {
	d := newDesk(t, true)
	p := d.startBar(t)
	fileRequest(t, d.home, "make deploy", false)
	banner := d.server.WaitNotify(t, guard)
	m := d.client.waitMenu(t, "the request", has("make deploy"))
	d.client.click(t, mustFind(t, m, "Pause banners").ID)
	d.client.waitMenu(t, "banners paused", func(m []entry) bool { e, ok := find(m, "Pause banners"); return ok && e.Checked })
	if !slices.Contains(d.server.Closes(), banner.ID) {
		t.Errorf("pausing left the banner (closes %v)", d.server.Closes())
	}
	d.client.click(t, mustFind(t, m, "Quit").ID)
	p.wait(t)
}
