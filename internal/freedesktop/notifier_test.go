package freedesktop_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wisp-sh/wisp/internal/dbustest"
	"github.com/wisp-sh/wisp/internal/freedesktop"
)

// waitLimit guards against a hang; no test measures time with it.
const waitLimit = 10 * time.Second

var approvalActions = []freedesktop.Action{{Key: "approve", Label: "Approve once"}, {Key: "deny", Label: "Deny"}}

func approvalBanner(id string) freedesktop.Banner {
	return freedesktop.Banner{
		ID: id, Title: "wisp: approve OUTSIDE the sandbox", Body: "brew upgrade",
		Actions: approvalActions, Category: "x-wisp.approval",
		Urgency: freedesktop.UrgencyCritical, Resident: true,
	}
}

// start gives a test a private bus with a notification server on it, and a
// Notifier connected to it.
func start(t *testing.T) (*dbustest.NotificationServer, *freedesktop.Notifier, string) {
	t.Helper()
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	return server, connect(t, address), address
}

func connect(t *testing.T, address string) *freedesktop.Notifier {
	t.Helper()
	n, err := freedesktop.Connect(dbustest.Dial(t, address))
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { n.Close() })
	return n
}

func show(t *testing.T, n *freedesktop.Notifier, b freedesktop.Banner) {
	t.Helper()
	if err := n.Show(b); err != nil {
		t.Fatalf("Show(%s): %v", b.ID, err)
	}
}

func lastNotify(t *testing.T, server *dbustest.NotificationServer) dbustest.Recorded {
	t.Helper()
	calls := server.Notifications()
	if len(calls) == 0 {
		t.Fatal("the server received no Notify call")
	}
	return calls[len(calls)-1]
}

func nextEvent(t *testing.T, n *freedesktop.Notifier) freedesktop.Event {
	t.Helper()
	select {
	case ev, ok := <-n.Events():
		if !ok {
			t.Fatal("Events() closed while an event was expected")
		}
		return ev
	case <-time.After(waitLimit):
		t.Fatalf("no event within %v", waitLimit)
	}
	return freedesktop.Event{}
}

func TestShowSendsAnApprovalNotification(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("0123456789abcdef"))

	got := lastNotify(t, server)
	want := []string{"approve", "Approve once", "deny", "Deny"}
	if !slices.Equal(got.Actions, want) {
		t.Errorf("actions = %q, want %q", got.Actions, want)
	}
	checks := []struct {
		what      string
		got, want any
	}{
		{"app_name", got.AppName, "wisp"},
		{"summary", got.Summary, "wisp: approve OUTSIDE the sandbox"},
		{"body", got.Body, "brew upgrade"},
		{"replaces_id", got.ReplacesID, uint32(0)},
		{"expire_timeout", got.ExpireTimeout, int32(0)},
		{"urgency hint", got.Hint("urgency"), byte(2)},
		{"resident hint", got.Hint("resident"), true},
		{"category hint", got.Hint("category"), "x-wisp.approval"},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s = %#v, want %#v", c.what, c.got, c.want)
		}
	}
}

// A notice goes by itself: ordinary urgency, not resident, the server's
// own timeout.
func TestShowANoticeThatExpires(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, freedesktop.Banner{ID: "notice", Title: "wisp: nothing to answer", Urgency: freedesktop.UrgencyNormal, Expire: true})
	got := lastNotify(t, server)
	if got.ExpireTimeout != -1 || got.Hint("urgency") != byte(1) || got.Hint("resident") != nil || len(got.Actions) != 0 {
		t.Errorf("notice sent with timeout %d, urgency %#v, resident %#v, actions %q", got.ExpireTimeout, got.Hint("urgency"), got.Hint("resident"), got.Actions)
	}
}

func TestShowOmitsAnEmptyCategory(t *testing.T) {
	server, n, _ := start(t)
	b := approvalBanner("a1")
	b.Category = ""
	show(t, n, b)
	if got := lastNotify(t, server).Hint("category"); got != nil {
		t.Errorf("category hint = %#v, want none", got)
	}
}

func TestShowAgainReplacesTheBanner(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("a1"))
	first := lastNotify(t, server)
	b := approvalBanner("a1")
	b.Body = "brew upgrade --greedy"
	show(t, n, b)

	second := lastNotify(t, server)
	if second.ReplacesID != first.ID || second.ID != first.ID {
		t.Fatalf("second Show: replaces_id %d, id %d; want both %d", second.ReplacesID, second.ID, first.ID)
	}
	server.Invoke(second.ID, "deny")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "deny"}) {
		t.Errorf("event = %+v, want deny for a1", ev)
	}
}

func TestShowEscapesTheBodyWhereTheServerReadsMarkup(t *testing.T) {
	const line = `echo a <b>hidden</b> && cat <<EOF`
	for _, tc := range []struct {
		caps []string
		want string
	}{
		{[]string{"actions", "body", "body-markup"}, `echo a &lt;b&gt;hidden&lt;/b&gt; &amp;&amp; cat &lt;&lt;EOF`},
		{[]string{"actions", "body"}, line},
	} {
		address := dbustest.StartSessionBus(t)
		server := dbustest.StartNotificationServer(t, address)
		server.SetCapabilities(tc.caps...)
		n := connect(t, address)
		b := approvalBanner("a1")
		b.Body = line
		show(t, n, b)
		if got := lastNotify(t, server).Body; got != tc.want {
			t.Errorf("capabilities %q: body = %q, want %q", tc.caps, got, tc.want)
		}
	}
}

func TestShowRefusesABannerItCannotPost(t *testing.T) {
	server, n, _ := start(t)
	for name, b := range map[string]freedesktop.Banner{
		"no id":          {Title: "t", Actions: approvalActions},
		"empty key":      {ID: "a1", Actions: []freedesktop.Action{{Label: "Approve once"}}},
		"key used twice": {ID: "a1", Actions: []freedesktop.Action{{"approve", "Approve once"}, {"approve", "Yes"}}},
	} {
		if err := n.Show(b); !errors.Is(err, freedesktop.ErrInvalidBanner) {
			t.Errorf("%s: Show = %v, want ErrInvalidBanner", name, err)
		}
	}
	if calls := server.Notifications(); len(calls) != 0 {
		t.Errorf("invalid banners reached the server: %+v", calls)
	}
}

func TestWithdrawClosesTheNotification(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("a1"))
	id := lastNotify(t, server).ID
	if err := n.Withdraw("a1"); err != nil {
		t.Fatalf("Withdraw: %v", err)
	}
	if got := server.Closes(); !slices.Equal(got, []uint32{id}) {
		t.Errorf("CloseNotification calls = %v, want [%d]", got, id)
	}
	for _, unknown := range []string{"a1", "never-shown"} {
		if err := n.Withdraw(unknown); err != nil {
			t.Errorf("Withdraw(%s) again/unknown = %v, want nil", unknown, err)
		}
	}
	if got := server.Closes(); len(got) != 1 {
		t.Errorf("CloseNotification calls after withdrawing unknown ids = %v, want only [%d]", got, id)
	}
}

// The server answers Withdraw with NotificationClosed(id, 3); that is not
// the person closing the banner, so it is not reported. The next event is
// the one after it.
func TestWithdrawnBannerReportsNoClose(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("a1"))
	show(t, n, approvalBanner("b2"))
	calls := server.Notifications()
	if err := n.Withdraw("a1"); err != nil {
		t.Fatalf("Withdraw: %v", err)
	}
	server.Invoke(calls[1].ID, "approve")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "b2", Action: "approve"}) {
		t.Errorf("first event after Withdraw = %+v, want approve for b2", ev)
	}
}

func TestActionsArriveAsEvents(t *testing.T) {
	server, n, _ := start(t)
	b := approvalBanner("a1")
	b.Actions = append(b.Actions, freedesktop.Action{Key: freedesktop.DefaultAction, Label: "Details"})
	show(t, n, b)
	id := lastNotify(t, server).ID

	server.Invoke(id, "approve")
	server.Invoke(id, "approve") // a server that reports one click twice
	server.Invoke(id, freedesktop.DefaultAction)
	want := []freedesktop.Event{{ID: "a1", Action: "approve"}, {ID: "a1", Action: "approve"}, {ID: "a1", Action: "default"}}
	for i, w := range want {
		if ev := nextEvent(t, n); ev != w {
			t.Errorf("event %d = %+v, want %+v", i, ev, w)
		}
	}
}

func TestClosedByThePersonArrivesAsAnEvent(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("a1"))
	id := lastNotify(t, server).ID
	server.CloseByUser(id)
	want := freedesktop.Event{ID: "a1", Closed: true, Reason: freedesktop.ReasonDismissed}
	if ev := nextEvent(t, n); ev != want {
		t.Fatalf("event = %+v, want %+v", ev, want)
	}
	// The banner is gone, so showing the request again posts a new one.
	show(t, n, approvalBanner("a1"))
	if got := lastNotify(t, server).ReplacesID; got != 0 {
		t.Errorf("Show after the person closed the banner: replaces_id = %d, want 0", got)
	}
}

func TestEventsComeOnlyFromThisNotifiersBanners(t *testing.T) {
	server, n, address := start(t)
	server.SetBroadcast(true)
	show(t, n, approvalBanner("a1"))
	ours := lastNotify(t, server).ID
	theirs := notifyAsAnotherClient(t, address)

	server.Invoke(theirs, "approve")
	server.CloseByUser(theirs)
	forge(t, address, ours, "approve") // a program on the bus that is not the server
	server.Invoke(ours, "deny")
	if ev := nextEvent(t, n); ev != (freedesktop.Event{ID: "a1", Action: "deny"}) {
		t.Errorf("first event = %+v, want only the server's deny for a1", ev)
	}
}

// notifyAsAnotherClient posts a notification from a second connection, as
// another program on the desktop would, and returns its id.
func notifyAsAnotherClient(t *testing.T, address string) uint32 {
	t.Helper()
	var id uint32
	err := dbustest.Dial(t, address).Object(dbustest.NotificationsName, dbustest.NotificationsPath).
		Call(dbustest.NotificationsIface+".Notify", 0, "other", uint32(0), "", "mail", "", []string{"approve", "Open"},
			map[string]dbus.Variant{}, int32(0)).Store(&id)
	if err != nil {
		t.Fatalf("Notify from another client: %v", err)
	}
	return id
}

// forge emits ActionInvoked(id, key) from a connection that is not the
// server, then makes a round trip to the bus so that the bus has routed the
// forged signal before the test goes on.
func forge(t *testing.T, address string, id uint32, key string) {
	t.Helper()
	conn := dbustest.Dial(t, address)
	if err := conn.Emit(dbustest.NotificationsPath, dbustest.NotificationsIface+".ActionInvoked", id, key); err != nil {
		t.Fatalf("emit a forged ActionInvoked: %v", err)
	}
	if err := conn.BusObject().Call("org.freedesktop.DBus.GetId", 0).Err; err != nil {
		t.Fatalf("round trip after the forged signal: %v", err)
	}
}

func TestServerWithoutActionsIsReported(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	server := dbustest.StartNotificationServer(t, address)
	server.SetCapabilities("body", "persistence")
	n := connect(t, address)
	err := n.CheckActions()
	if !errors.Is(err, freedesktop.ErrNoActions) {
		t.Fatalf("CheckActions = %v, want ErrNoActions", err)
	}
	for _, want := range []string{"wisp-test", `"actions"`, "wisp menu"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("CheckActions error %q does not mention %s", err, want)
		}
	}
	if got := n.Capabilities(); !slices.Equal(got, []string{"body", "persistence"}) {
		t.Errorf("Capabilities = %q", got)
	}
}

func TestServerWithActionsPassesTheCheck(t *testing.T) {
	_, n, _ := start(t)
	if err := n.CheckActions(); err != nil {
		t.Errorf("CheckActions = %v, want nil", err)
	}
	if got := n.Server().Name; got != "wisp-test" {
		t.Errorf("Server().Name = %q, want wisp-test", got)
	}
}

func TestConnectWithoutANotificationServer(t *testing.T) {
	address := dbustest.StartSessionBus(t)
	_, err := freedesktop.Connect(dbustest.Dial(t, address))
	if !errors.Is(err, freedesktop.ErrNoServer) {
		t.Fatalf("Connect = %v, want ErrNoServer", err)
	}
	if !strings.Contains(err.Error(), "wisp menu") {
		t.Errorf("error %q does not point to the menu", err)
	}
}

// After the server restarts, the ids it gave out mean nothing: showing the
// request again must not replace (nor Withdraw close) the new server's
// notification that happens to carry the same number.
func TestNewServerInstanceGetsNoStaleIDs(t *testing.T) {
	server, n, address := start(t)
	show(t, n, approvalBanner("a1"))
	server.Stop()
	restarted := dbustest.StartNotificationServer(t, address)
	notifyAsAnotherClient(t, address) // id 1 on the new server, somebody else's

	if err := n.Withdraw("a1"); err != nil {
		t.Fatalf("Withdraw after a restart: %v", err)
	}
	if got := restarted.Closes(); len(got) != 0 {
		t.Errorf("Withdraw closed %v on the new server, which never showed wisp's banner", got)
	}
	show(t, n, approvalBanner("a1"))
	if got := lastNotify(t, restarted).ReplacesID; got != 0 {
		t.Errorf("Show after a restart: replaces_id = %d, want 0", got)
	}
}

func TestCloseWithdrawsBannersAndEndsEvents(t *testing.T) {
	server, n, _ := start(t)
	show(t, n, approvalBanner("a1"))
	id := lastNotify(t, server).ID
	if err := n.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if got := server.Closes(); !slices.Equal(got, []uint32{id}) {
		t.Errorf("CloseNotification calls = %v, want [%d]", got, id)
	}
	if _, open := <-n.Events(); open {
		t.Error("Events() still open after Close")
	}
	if err := n.Show(approvalBanner("b2")); !errors.Is(err, freedesktop.ErrClosed) {
		t.Errorf("Show after Close = %v, want ErrClosed", err)
	}
}
