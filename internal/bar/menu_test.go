package bar

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

func TestBuildMenu(t *testing.T) {
	now := t0.Add(3 * time.Minute)
	many := make([]pending.Pending, 0, 12)
	for i := range 12 { // newest first, as pending lists them
		many = append(many, request(fmt.Sprintf("%016x", 100-i), fmt.Sprintf("make target%d", 12-i), false, at(time.Duration(12-i)*time.Second)))
	}
	tests := []struct {
		name string
		view View
	}{
		{"empty", View{Now: now}},
		{"outside", View{Now: now, Home: "/home/ada", Pending: []pending.Pending{request("0123456789abcdef", "brew upgrade", true)}}},
		{"scopes", View{Now: now, Home: "/home/ada", Pending: []pending.Pending{
			request("00000000000000a1", "rm -rf build", false, scopes("once", "project"), at(2*time.Minute)),
			request("00000000000000a2", "git push --force", false, scopes("session"), cwd("/srv/deploy/a/very/long/path/to/the/project/folder")),
		}}},
		{"answered", View{Now: now, Pending: []pending.Pending{answered(request("00000000000000b1", "cargo install ripgrep", true))}}},
		{"answered-elsewhere", View{Now: now, Pending: []pending.Pending{
			answered(request("00000000000000b2", "cargo install ripgrep", true)),
			answered(request("00000000000000b3", "make deploy", false)),
		}, Answers: map[string]pending.Answer{
			"00000000000000b2": {Decision: pending.DecisionApprove, Scope: pending.ScopeOnce, By: "wisp approvals", AnsweredAt: now.Add(-time.Minute)},
			"00000000000000b3": {Decision: pending.DecisionDeny, Scope: pending.ScopeOnce, By: "wisp-bar", AnsweredAt: now},
		}}},
		{"many", View{Now: now, Pending: many}},
		{"prefix", View{Now: now, Pending: []pending.Pending{request("00000000000000d1", "go test ./pkg/a", false,
			scopes("once", "session", "project", "session-prefix", "project-prefix"), func(r *pending.Request) {
				r.Level, r.Reasons = pending.LevelModerate, []string{"go test builds and runs the tests", pending.PrefixReason + "go test …"}
			})}}},
		{"escaped", View{Now: now, Pending: []pending.Pending{
			request("00000000000000c1", "echo hi\nin /safe/folder\u202e", true),
			request("00000000000000c2", strings.Repeat("x", 100), false),
		}}},
		{"paused-off-notice", View{Now: now, Paused: true, BannersOff: "notifications are turned off for Wisp Bar in System Settings", CanEnable: true,
			Notice: "nothing to answer: request 0123456789abcdef is no longer waiting"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			golden(t, "menu-"+tt.name+".txt", menuText(BuildMenu(tt.view)))
		})
	}
}

// Every approve key the menu offers is one the request offered, and every
// key of a request carries that request's binding.
func TestMenuKeysCarryTheBinding(t *testing.T) {
	p := request("00000000000000d1", "make deploy", false, scopes("once", "always"))
	m := BuildMenu(View{Now: t0, Pending: []pending.Pending{p}})
	var keys []click
	for _, it := range m.Items[1].Children {
		if c, ok := parseKey(it.Key); ok {
			keys = append(keys, c)
		}
	}
	want := []click{
		{verbApprove, p.Request.ID, p.Binding, "once"}, {verbApprove, p.Request.ID, p.Binding, "always"},
		{verbDeny, p.Request.ID, p.Binding, ""}, {verbDetails, p.Request.ID, p.Binding, ""},
	}
	if fmt.Sprint(keys) != fmt.Sprint(want) {
		t.Errorf("keys %v, want %v", keys, want)
	}
}

func TestParseKeyRefusesWhatTheMenuNeverSends(t *testing.T) {
	for _, key := range []string{"", "quit", "approve:id:binding", "deny:id:binding:once", "details:a:b:c", "open:a:b", "approve:a:b:c:d"} {
		if c, ok := parseKey(key); ok {
			t.Errorf("parseKey(%q) = %+v, want refused", key, c)
		}
	}
}

func TestVisible(t *testing.T) {
	tests := map[string]string{
		"ls -la":           "ls -la",
		"a\nb\tc":          `a\nb\tc`,
		"rm \u202eexe.txt": `rm \u202eexe.txt`,
		"bell\a":           `bell\a`,
		"bad\xffbyte":      `bad\xffbyte`,
		"ünïcode � ok":     "ünïcode � ok",
		"zero\u200bwidth":  `zero\u200bwidth`,
	}
	for in, want := range tests {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFolderAndAge(t *testing.T) {
	folders := map[[2]string]string{
		{"/home/ada/src", "/home/ada"}: "~/src",
		{"/home/ada", "/home/ada"}:     "~",
		{"/home/adam/x", "/home/ada"}:  "/home/adam/x",
		{"/srv", ""}:                   "/srv",
		{"/srv", "/"}:                  "/srv",
	}
	for in, want := range folders {
		if got := Folder(in[0], in[1]); got != want {
			t.Errorf("Folder(%q, %q) = %q, want %q", in[0], in[1], got, want)
		}
	}
	ages := map[time.Duration]string{0: "just now", 42 * time.Second: "42s ago", 5 * time.Minute: "5m ago", 3 * time.Hour: "3h ago"}
	for d, want := range ages {
		if got := age(t0.Add(d), t0); got != want {
			t.Errorf("age(%v) = %q, want %q", d, got, want)
		}
	}
}
