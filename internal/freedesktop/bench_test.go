package freedesktop_test

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// BenchmarkNotifier measures the Notifier against a private bus. The first
// sub-benchmark, a bare method call to the bus daemon, is the baseline: the
// others are read as multiples of it.
//
//	go test -run '^$' -bench Notifier -benchtime 2000x ./freedesktop/
func BenchmarkNotifier(b *testing.B) {
	address := dbustest.StartSessionBus(b)
	server := dbustest.StartNotificationServer(b, address)
	n, err := freedesktop.Connect(dbustest.Dial(b, address))
	if err != nil {
		b.Fatal(err)
	}
	defer n.Close()
	b.Run("baseline-bus-roundtrip", func(b *testing.B) { benchRoundTrip(b, address) })
	b.Run("show-replace", func(b *testing.B) {
		for b.Loop() {
			mustShow(b, n, approvalBanner("a1"))
		}
	})
	b.Run("show-withdraw", func(b *testing.B) {
		for b.Loop() {
			mustShow(b, n, approvalBanner("a2"))
			if err := n.Withdraw("a2"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("click-to-event", func(b *testing.B) { benchClick(b, n, server) })
}

func benchRoundTrip(b *testing.B, address string) {
	bus := dbustest.Dial(b, address).BusObject()
	for b.Loop() {
		if err := bus.Call("org.freedesktop.DBus.GetId", 0).Err; err != nil {
			b.Fatal(err)
		}
	}
}

func benchClick(b *testing.B, n *freedesktop.Notifier, server *dbustest.NotificationServer) {
	mustShow(b, n, approvalBanner("a3"))
	calls := server.Notifications()
	id := calls[len(calls)-1].ID
	for b.Loop() {
		server.Invoke(id, "approve")
		if ev := <-n.Events(); ev.Action != "approve" {
			b.Fatalf("event %+v", ev)
		}
	}
}

func mustShow(b *testing.B, n *freedesktop.Notifier, banner freedesktop.Banner) {
	if err := n.Show(banner); err != nil {
		b.Fatal(err)
	}
}
