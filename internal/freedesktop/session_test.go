package freedesktop_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

func TestConnectSessionSaysWhatIsMissing(t *testing.T) {
	dead := filepath.Join(t.TempDir(), "no-bus-here")
	for _, tc := range []struct {
		name, address, runtimeDir string
		mentions                  []string
	}{
		{"address of a dead bus", "unix:path=" + dead, t.TempDir(),
			[]string{"cannot reach", dead, "DBUS_SESSION_BUS_ADDRESS", "desktop session"}},
		{"no address and no default socket", "", t.TempDir(),
			[]string{"DBUS_SESSION_BUS_ADDRESS is not set", "bus is not a bus socket", "dbus-run-session"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DBUS_SESSION_BUS_ADDRESS", tc.address)
			t.Setenv("XDG_RUNTIME_DIR", tc.runtimeDir)
			n, err := freedesktop.ConnectSession()
			if !errors.Is(err, freedesktop.ErrNoSessionBus) {
				t.Fatalf("ConnectSession = %v, %v; want ErrNoSessionBus", n, err)
			}
			for _, want := range tc.mentions {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
		})
	}
}

func TestConnectSessionUsesTheAddressGiven(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", address)
	n, err := freedesktop.ConnectSession()
	if err != nil {
		t.Fatalf("ConnectSession: %v", err)
	}
	show(t, n, approvalBanner("a1"))
	id := lastNotify(t, server).ID
	server.Invoke(id, "approve")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "approve"}) {
		t.Errorf("event = %+v, want approve for a1", ev)
	}
	if err := n.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestConnectSessionFindsTheDefaultSocket(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	socket, ok := strings.CutPrefix(address, "unix:path=")
	if !ok {
		t.Fatalf("the private bus's address %q is not a unix:path address", address)
	}
	socket, _, _ = strings.Cut(socket, ",") // dbus-daemon appends ",guid=..."
	dbustest.StartNotificationServer(t, address)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", filepath.Dir(socket))
	n, err := freedesktop.ConnectSession()
	if err != nil {
		t.Fatalf("ConnectSession with only $XDG_RUNTIME_DIR/bus: %v", err)
	}
	n.Close()
}
