package freedesktop_test

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// Reach tells doctor what wisp-bar would find, and starts nothing: with no
// bus, an empty bus, then a tray host and a server with buttons.
func TestReachSaysWhatWispBarFinds(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if got := freedesktop.Reach(); !strings.Contains(got, "no D-Bus session bus") || !strings.Contains(got, "wisp-bar cannot run here") {
		t.Errorf("without a bus: %q", got)
	}
	address := dbustest.StartSessionBus(t)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", address)
	got := freedesktop.Reach()
	for _, want := range []string{"session bus DBUS_SESSION_BUS_ADDRESS", "no tray host (org.kde.StatusNotifierWatcher)", "no notification server (org.freedesktop.Notifications)"} {
		if !strings.Contains(got, want) {
			t.Errorf("on an empty bus: %q lacks %q", got, want)
		}
	}
	dbustest.StartWatcher(t, address)
	server := dbustest.StartNotificationServer(t, address)
	if got := freedesktop.Reach(); !strings.Contains(got, "a tray host shows its menu") || !strings.Contains(got, "banners by wisp-test 1, with buttons") {
		t.Errorf("with both: %q", got)
	}
	server.SetServerInformation("dunst", "1.9.0")
	want := "banners by dunst 1.9.0, which draws no buttons: a middle click on a banner opens its details, and Approve once and Deny are in dunst's context menu (dunstctl context); the wisp menu answers too"
	if got := freedesktop.Reach(); !strings.HasSuffix(got, want) {
		t.Errorf("with dunst:\n got  %q\n want it to end %q", got, want)
	}
	server.SetCapabilities("body")
	if got := freedesktop.Reach(); !strings.Contains(got, "without buttons (answer in the menu)") {
		t.Errorf("with a server without buttons: %q", got)
	}
}
