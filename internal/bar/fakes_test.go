package bar

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// guard bounds every wait in these tests; it catches a hang, it measures
// nothing.
const guard = 20 * time.Second

// fakeTray records each menu the Bar hands it.
type fakeTray struct {
	menus chan Menu
	mu    sync.Mutex
	last  Menu
}

func newFakeTray() *fakeTray { return &fakeTray{menus: make(chan Menu, 256)} }

func (f *fakeTray) SetMenu(m Menu) {
	f.mu.Lock()
	f.last = m
	f.mu.Unlock()
	f.menus <- m
}

// waitMenu returns the first menu handed over that satisfies ok.
func (f *fakeTray) waitMenu(t *testing.T, what string, ok func(Menu) bool) Menu {
	t.Helper()
	deadline := time.After(guard)
	for {
		select {
		case m := <-f.menus:
			if ok(m) {
				return m
			}
		case <-deadline:
			f.mu.Lock()
			defer f.mu.Unlock()
			t.Fatalf("no menu with %s; the last:\n%s", what, menuText(f.last))
		}
	}
}

func withCount(n int) func(Menu) bool { return func(m Menu) bool { return m.Count == n } }

func withNotice(part string) func(Menu) bool {
	return func(m Menu) bool { return len(m.Items) > 1 && strings.Contains(m.Items[1].Tooltip, part) }
}

// fakeFace records what the Bar raised and withdrew, and sends the
// person's clicks.
type fakeFace struct {
	events  chan BannerEvent
	calls   chan string // "show ID", "withdraw ID", "details ID"
	mu      sync.Mutex
	shows   map[string]Banner
	serials map[string]uint64
}

func newFakeFace() *fakeFace {
	return &fakeFace{events: make(chan BannerEvent, 16), calls: make(chan string, 256), shows: map[string]Banner{}, serials: map[string]uint64{}}
}

func (f *fakeFace) Show(b Banner) error {
	f.mu.Lock()
	f.shows[b.ID] = b
	f.serials[b.ID] = b.Serial
	f.mu.Unlock()
	f.calls <- "show " + b.ID
	return nil
}

func (f *fakeFace) Withdraw(id string) error { f.calls <- "withdraw " + id; return nil }

func (f *fakeFace) ShowDetails(d Details) error {
	f.mu.Lock()
	f.serials[d.ID] = d.Serial
	f.mu.Unlock()
	f.calls <- "details " + d.ID
	return nil
}

// serial is the Serial of the last banner or details shown for id.
func (f *fakeFace) serial(id string) uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.serials[id]
}
func (f *fakeFace) Events() <-chan BannerEvent { return f.events }

func (f *fakeFace) banner(id string) Banner {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.shows[id]
}

// expect waits for the call want, failing on any other call before it
// that is not in allowed.
func (f *fakeFace) expect(t *testing.T, want string, allowed ...string) {
	t.Helper()
	deadline := time.After(guard)
	for {
		select {
		case call := <-f.calls:
			if call == want {
				return
			}
			if !contains(allowed, call) {
				t.Fatalf("the face was asked to %q while waiting for %q", call, want)
			}
		case <-deadline:
			t.Fatalf("the face was never asked to %q", want)
		}
	}
}

// quiet checks that nothing was asked of the face since the last expect.
func (f *fakeFace) quiet(t *testing.T) {
	t.Helper()
	select {
	case call := <-f.calls:
		t.Errorf("the face was asked to %q", call)
	default:
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

type fakeDesktop struct{ opened chan string }

func (d fakeDesktop) OpenAuditLog(path string) error  { d.opened <- path; return nil }
func (d fakeDesktop) OpenNotificationSettings() error { d.opened <- "settings"; return nil }

// harness is a Bar running over a real pending folder.
type harness struct {
	t       *testing.T
	dir     string
	ch      *pending.Channel
	bar     *Bar
	tray    *fakeTray
	face    *fakeFace
	desktop fakeDesktop
	stop    func()
}

func start(t *testing.T, dir string, withFace bool) *harness {
	t.Helper()
	h := &harness{t: t, dir: dir, ch: pending.New(dir), tray: newFakeTray(), face: newFakeFace(), desktop: fakeDesktop{make(chan string, 4)}}
	cfg := Config{Channel: h.ch, Tray: h.tray, Desktop: h.desktop, AuditFile: "/w/logs/audit.jsonl", Home: "/home/ada", Log: func(string) {}}
	if withFace {
		cfg.Face = h.face
	} else {
		cfg.BannersOff = "no notification server"
	}
	h.bar = New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.bar.Run(ctx) }()
	h.stop = func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Run: %v", err)
		}
	}
	t.Cleanup(func() {
		if h.stop != nil {
			h.stop()
		}
	})
	return h
}

func (h *harness) shutdown() { h.stop(); h.stop = nil }

// file files a request from this process, as a waiting wisp does.
func (h *harness) file(command string, outside bool) *pending.Filed {
	h.t.Helper()
	f, err := h.ch.File(context.Background(), pending.Request{
		Command: command, Cwd: "/home/ada/src/wisp", Level: pending.LevelHigh, OutsideSandbox: outside,
		Reasons: []string{"asked by the model"}, Face: pending.FaceChat,
	})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { f.Withdraw() })
	return f
}

// wait waits for f's decision.
func wait(t *testing.T, f *pending.Filed) pending.Decision {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	d, err := f.Wait(ctx)
	if err != nil {
		t.Fatalf("the request was not decided: %v", err)
	}
	return d
}

// itemKey finds the key of a request's submenu item labelled label.
func itemKey(t *testing.T, m Menu, id, label string) string {
	t.Helper()
	for _, it := range m.Items {
		for _, child := range it.Children {
			if child.Label == label && strings.Contains(child.Key, id) {
				return child.Key
			}
		}
	}
	t.Fatalf("no %q item for request %s in:\n%s", label, id, menuText(m))
	return ""
}
