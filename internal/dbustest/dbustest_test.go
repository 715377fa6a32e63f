package dbustest_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wisp-sh/wisp/internal/dbustest"
)

func TestBusIsPrivateAndActivatesNothing(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	var activatable []string
	err := dbustest.Dial(t, address).BusObject().Call("org.freedesktop.DBus.ListActivatableNames", 0).Store(&activatable)
	if err != nil {
		t.Fatalf("ListActivatableNames: %v", err)
	}
	if slices.Contains(activatable, dbustest.NotificationsName) {
		t.Errorf("the private bus would start a real notification daemon: %q", activatable)
	}
}

func TestBusStopsWithTheTest(t *testing.T) {
	var address string
	t.Run("inner", func(t *testing.T) { address = dbustest.StartSessionBus(t) })
	if _, err := dbus.Connect(address); err == nil {
		t.Errorf("the bus at %s still answers after its test ended", address)
	}
}

func notify(t *testing.T, conn *dbus.Conn, actions ...string) uint32 {
	t.Helper()
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(2))}
	var id uint32
	err := conn.Object(dbustest.NotificationsName, dbustest.NotificationsPath).Call(dbustest.NotificationsIface+".Notify", 0,
		"app", uint32(0), "icon", "summary", "body", actions, hints, int32(-1)).Store(&id)
	if err != nil {
		t.Fatalf("Notify: %v", err)
	}
	return id
}

func TestServerRecordsNotify(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	client := dbustest.Dial(t, address)
	id := notify(t, client, "approve", "Approve once")

	got := server.WaitNotify(t, 10*time.Second)
	if got.ID != id || got.Sender != client.Names()[0] || got.Summary != "summary" || got.ExpireTimeout != -1 {
		t.Errorf("recorded %+v, want id %d from %s", got, id, client.Names()[0])
	}
	if !slices.Equal(got.Actions, []string{"approve", "Approve once"}) || got.Hint("urgency") != byte(2) {
		t.Errorf("recorded actions %q, urgency %#v", got.Actions, got.Hint("urgency"))
	}
}

// Signals go to the poster only, as dunst sends them: a bystander listening
// with the same match rule sees nothing until the server broadcasts.
func TestServerSignalsThePosterOnly(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	poster, bystander := listen(t, address), listen(t, address)
	id := notify(t, poster.conn)

	server.Invoke(id, "approve")
	server.SetBroadcast(true)
	server.Invoke(id, "deny")
	server.CloseByUser(id)
	want := []string{"ActionInvoked approve", "ActionInvoked deny", "NotificationClosed 2"}
	if got := poster.take(t, 3); !slices.Equal(got, want) {
		t.Errorf("poster got %q, want %q", got, want)
	}
	if got := bystander.take(t, 2); !slices.Equal(got, want[1:]) {
		t.Errorf("bystander got %q, want only the broadcast %q", got, want[1:])
	}
}

func TestCloseNotificationTellsThePoster(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	poster := listen(t, address)
	id := notify(t, poster.conn)
	obj := poster.conn.Object(dbustest.NotificationsName, dbustest.NotificationsPath)
	for _, close := range []uint32{id, 999} {
		if err := obj.Call(dbustest.NotificationsIface+".CloseNotification", 0, close).Err; err != nil {
			t.Fatalf("CloseNotification(%d): %v", close, err)
		}
	}
	if got := server.Closes(); !slices.Equal(got, []uint32{id, 999}) {
		t.Errorf("Closes = %v", got)
	}
	if got := poster.take(t, 1); !slices.Equal(got, []string{"NotificationClosed 3"}) {
		t.Errorf("poster got %q", got)
	}
}

type listener struct {
	conn    *dbus.Conn
	signals chan *dbus.Signal
}

func listen(t *testing.T, address string) listener {
	t.Helper()
	l := listener{dbustest.Dial(t, address), make(chan *dbus.Signal, 16)}
	err := l.conn.AddMatchSignal(dbus.WithMatchInterface(dbustest.NotificationsIface), dbus.WithMatchObjectPath(dbustest.NotificationsPath))
	if err != nil {
		t.Fatalf("AddMatchSignal: %v", err)
	}
	l.conn.Signal(l.signals)
	return l
}

// take reads the next n signals. The server sends them in order, so a
// signal that should not have come shows up in place of one that should.
func (l listener) take(t *testing.T, n int) []string {
	t.Helper()
	var got []string
	for len(got) < n {
		select {
		case sig := <-l.signals:
			got = append(got, describe(sig))
		case <-time.After(10 * time.Second):
			t.Fatalf("got %q, then nothing", got)
		}
	}
	return got
}

func describe(sig *dbus.Signal) string {
	member := sig.Name[len(dbustest.NotificationsIface)+1:]
	return fmt.Sprint(member, " ", sig.Body[1])
}
