package bar

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// A malformed file never shows as approvable, and a request whose
// requester has died is removed; neither stops the menu.
func TestMalformedAndStaleFilesAreNeverApprovable(t *testing.T) {
	dir := pendingDir(t)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	junk := map[string]string{
		"00000000000000f1.request.json": "{not json",
		"00000000000000f2.request.json": `{"version":1,"id":"00000000000000f2","kind":"command","command":"ls"}`,
		"00000000000000f3.request.json": strings.Repeat("x", 70<<10),
		"notes.txt":                     "hello",
	}
	for name, data := range junk {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stale := staleRequest(t, dir)
	h := start(t, dir, true)
	f := h.file("make", false)
	m := h.tray.waitMenu(t, "the one valid request", withCount(1))
	h.face.expect(t, "show "+f.Request.ID)
	h.face.quiet(t)
	if len(m.Items) != 6 || !strings.HasPrefix(m.Items[1].Label, "make · ") {
		t.Errorf("the menu lists more than the valid request:\n%s", menuText(m))
	}
	if _, err := os.Lstat(stale); !os.IsNotExist(err) {
		t.Errorf("the stale request is still there (%v)", err)
	}
}

// staleRequest plants a well-formed request whose requester has ended.
func staleRequest(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	r := pending.Request{Version: 1, ID: "00000000000000e0", Kind: pending.KindCommand, Command: "make stale", Cwd: "/tmp",
		Level: pending.LevelLow, Reasons: []string{}, Scopes: []string{"once"}, Face: pending.FaceChat,
		Requester:   pending.Requester{PID: cmd.Process.Pid, StartTime: "1"},
		RequestedAt: now, ExpiresAt: now.Add(time.Hour)}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, r.ID+".request.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestPauseBanners(t *testing.T) {
	h := start(t, pendingDir(t), true)
	a := h.file("make a", false)
	h.face.expect(t, "show "+a.Request.ID)
	h.bar.Click(KeyPause)
	h.face.expect(t, "withdraw "+a.Request.ID)
	m := h.tray.waitMenu(t, "paused", func(m Menu) bool { return pauseItem(m).Checked })

	b := h.file("make b", false)
	h.tray.waitMenu(t, "two requests", withCount(2))
	h.face.quiet(t)
	h.bar.Click(KeyPause)
	h.face.expect(t, "show "+a.Request.ID, "show "+b.Request.ID)
	if pauseItem(m).Label != "Pause banners" {
		t.Errorf("pause item %+v", pauseItem(m))
	}
}

func pauseItem(m Menu) Item {
	i := slices.IndexFunc(m.Items, func(it Item) bool { return it.Key == KeyPause })
	return m.Items[i]
}

// A banner the person dismissed is not raised again; the request stays in
// the menu.
func TestDismissedBannerStaysDismissed(t *testing.T) {
	h := start(t, pendingDir(t), true)
	a := h.file("make a", false)
	h.face.expect(t, "show "+a.Request.ID)
	h.face.events <- BannerEvent{ID: a.Request.ID, Closed: true}
	b := h.file("make b", false)
	h.face.expect(t, "show "+b.Request.ID)
	h.tray.waitMenu(t, "both in the menu", withCount(2))
	h.face.quiet(t)
}

// wisp-bar restarted while requests wait shows them again and raises their
// banners anew.
func TestRestartShowsWaitingRequestsAgain(t *testing.T) {
	dir := pendingDir(t)
	first := start(t, dir, true)
	a, b := first.file("make a", true), first.file("make b", false)
	first.tray.waitMenu(t, "two requests", withCount(2))
	first.shutdown()

	second := start(t, dir, true)
	m := second.tray.waitMenu(t, "two requests again", withCount(2))
	second.face.expect(t, "show "+a.Request.ID, "show "+b.Request.ID)
	second.face.expect(t, "show "+b.Request.ID, "show "+a.Request.ID)
	second.bar.Click(itemKey(t, m, a.Request.ID, "Approve once"))
	if d := wait(t, a); !d.Approved {
		t.Errorf("decision %+v", d)
	}
}

// Without banners the menu alone answers, and says why there are none.
func TestMenuAloneWithoutBanners(t *testing.T) {
	h := start(t, pendingDir(t), false)
	f := h.file("npm publish", false)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	if !slices.ContainsFunc(m.Items, func(it Item) bool { return it.Label == "Banners off: no notification server" }) {
		t.Errorf("the menu does not say banners are off:\n%s", menuText(m))
	}
	h.bar.Click(itemKey(t, m, f.Request.ID, "Approve for this project"))
	if d := wait(t, f); !d.Approved || d.Scope != "project" {
		t.Errorf("decision %+v", d)
	}
}

func TestAuditLogAndQuit(t *testing.T) {
	dir := pendingDir(t)
	h := start(t, dir, true)
	h.tray.waitMenu(t, "the first menu", withCount(0))
	h.bar.Click(KeyAuditLog)
	if got := <-h.desktop.opened; got != "/w/logs/audit.jsonl" {
		t.Errorf("opened %q", got)
	}
	quit := make(chan bool, 1)
	h.bar.cfg.Quit = func() { quit <- true }
	h.bar.Click(KeyQuit)
	select {
	case <-quit:
	case <-time.After(guard):
		t.Fatal("Quit was never called")
	}
}

// Many requests filed at once: the menu shows the newest first, the rest
// counted in one item.
func TestManyRequestsNewestFirst(t *testing.T) {
	h := start(t, pendingDir(t), false)
	for i := range 15 {
		h.file(fmt.Sprintf("make step%02d", i), false)
		time.Sleep(2 * time.Millisecond) // distinct requestedAt, so newest-first is observable
	}
	m := h.tray.waitMenu(t, "fifteen requests", withCount(15))
	if got := m.Items[1].Label; !strings.HasPrefix(got, "make step14 ") {
		t.Errorf("first request item %q, want the newest (step14)", got)
	}
	if got := m.Items[DefaultMaxShown+1].Label; got != "… and 5 more" {
		t.Errorf("item after the requests %q", got)
	}
}

// A folder that cannot be watched is said in the menu and tried again; once
// it can be, requests show.
func TestUnwatchableFolderIsRetried(t *testing.T) {
	dir := pendingDir(t)
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), dir); err != nil { // a symlinked folder is refused
		t.Fatal(err)
	}
	tray := newFakeTray()
	b := New(Config{Channel: pending.New(dir), Tray: tray, Desktop: fakeDesktop{make(chan string, 1)}, WatchRetry: 20 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- b.Run(ctx) }()
	defer func() { cancel(); <-done }()
	tray.waitMenu(t, "the problem", withNotice("wisp-bar cannot watch the pending folder (it tries again every 20ms)"))

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	f, err := pending.New(dir).File(context.Background(), pending.Request{Command: "make", Cwd: "/tmp", Level: pending.LevelLow, Face: pending.FaceRun})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Withdraw()
	m := tray.waitMenu(t, "the request once watched", withCount(1))
	if strings.Contains(menuText(m), "cannot watch") {
		t.Errorf("the problem is still shown:\n%s", menuText(m))
	}
}
