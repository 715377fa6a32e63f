package bar

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

func TestBannerFor(t *testing.T) {
	outside := request("0123456789abcdef", "brew upgrade", true)
	command := request("00000000000000e1", "rm -rf build\nin /elsewhere", false, scopes("session"))
	tests := []struct {
		p       pending.Pending
		title   string
		body    []string
		actions []BannerAction
	}{
		{outside, "wisp: approve OUTSIDE the sandbox",
			[]string{"brew upgrade", "in ~/src/wisp", pending.OutsideReason, "digest " + pending.Digest(outside.Binding)},
			[]BannerAction{{"approve", "Approve once"}, {"deny", "Deny"}, {"default", "Details"}}},
		{command, "wisp: approve a command (high risk)",
			[]string{`rm -rf build\nin /elsewhere`, "in ~/src/wisp", "deletes files", "digest " + pending.Digest(command.Binding)},
			// Approve once is not offered by this request, so the banner has no such button.
			[]BannerAction{{"deny", "Deny"}, {"default", "Details"}}},
	}
	for _, tt := range tests {
		b := BannerFor(tt.p, "/home/ada")
		if b.ID != tt.p.Request.ID || b.Title != tt.title {
			t.Errorf("banner %q titled %q, want %q titled %q", b.ID, b.Title, tt.p.Request.ID, tt.title)
		}
		if got := strings.Split(b.Body, "\n"); !slices.Equal(got, tt.body) {
			t.Errorf("body lines %q, want %q", got, tt.body)
		}
		if !slices.Equal(b.Actions, tt.actions) {
			t.Errorf("actions %v, want %v", b.Actions, tt.actions)
		}
	}
}

func TestDetailsShowEverything(t *testing.T) {
	p := request("0123456789abcdef", "brew upgrade --greedy", true, func(r *pending.Request) {
		r.Reasons = append(r.Reasons, "asked by the model: the sandbox refused it")
	})
	d := DetailsFor(p, t0.Add(90*time.Second), "/home/ada")
	for _, want := range []string{"brew upgrade --greedy", "in ~/src/wisp", pending.OutsideReason, "asked by the model: the sandbox refused it",
		"risk moderate · asked by wisp chat (process 4242) · 1m ago", "offers once", "request 0123456789abcdef", "binding " + p.Binding} {
		if !strings.Contains(d.Text, want) {
			t.Errorf("details lack %q:\n%s", want, d.Text)
		}
	}
	if d.Title != "wisp: approve OUTSIDE the sandbox" || len(d.Actions) != 3 {
		t.Errorf("details titled %q with %v", d.Title, d.Actions)
	}
}

func TestPlanBanners(t *testing.T) {
	a := request("00000000000000a1", "make a", true, at(1*time.Second))
	b := request("00000000000000b1", "make b", true, at(2*time.Second))
	aEdited := request("00000000000000a1", "make a --all", true, at(1*time.Second))
	twin := request("00000000000000a2", "make a", true, at(3*time.Second)) // the same as a, from the same requester
	other := request("00000000000000a3", "make a", true, at(4*time.Second), pid(7))
	shown := func(ps ...pending.Pending) map[string]shownBanner {
		m := map[string]shownBanner{}
		for _, p := range ps {
			m[p.Request.ID] = shownBanner{binding: p.Binding, group: group(p.Request)}
		}
		return m
	}
	tests := []struct {
		name      string
		shown     map[string]shownBanner
		dismissed map[string]string
		list      []pending.Pending // newest first
		paused    bool
		raise     []string
		withdraw  []string
	}{
		{"new requests are raised, oldest first", shown(), nil, []pending.Pending{b, a}, false, []string{"00000000000000a1", "00000000000000b1"}, nil},
		{"a banner shown stays", shown(a), nil, []pending.Pending{b, a}, false, []string{"00000000000000b1"}, nil},
		{"a request gone is withdrawn", shown(a, b), nil, []pending.Pending{b}, false, nil, []string{"00000000000000a1"}},
		{"an answered request is withdrawn", shown(a), nil, []pending.Pending{answered(a)}, false, nil, []string{"00000000000000a1"}},
		{"a changed request is raised again", shown(a), nil, []pending.Pending{aEdited}, false, []string{"00000000000000a1"}, []string{"00000000000000a1"}},
		{"paused withdraws all and raises none", shown(a), nil, []pending.Pending{b, a}, true, nil, []string{"00000000000000a1"}},
		{"paused keeps the details asked for", map[string]shownBanner{a.Request.ID: {binding: a.Binding, group: group(a.Request), details: true}}, nil, []pending.Pending{b, a}, true, nil, nil},
		{"a dismissed banner is not raised again", shown(), map[string]string{a.Request.ID: a.Binding}, []pending.Pending{a}, false, nil, nil},
		{"a dismissed request that changed is raised", shown(), map[string]string{a.Request.ID: a.Binding}, []pending.Pending{aEdited}, false, []string{"00000000000000a1"}, nil},
		{"identical requests raise one banner", shown(), nil, []pending.Pending{other, twin, a}, false, []string{"00000000000000a1", "00000000000000a3"}, nil},
		{"the twin waits while the first is shown", shown(a), nil, []pending.Pending{twin, a}, false, nil, nil},
		{"the twin is raised once the first is answered", shown(a), nil, []pending.Pending{twin, answered(a)}, false, []string{"00000000000000a2"}, []string{"00000000000000a1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			plan := planBanners(tt.shown, tt.dismissed, tt.list, tt.paused)
			var raised []string
			for _, p := range plan.raise {
				raised = append(raised, p.Request.ID)
			}
			if fmt.Sprint(raised) != fmt.Sprint(tt.raise) || fmt.Sprint(plan.withdraw) != fmt.Sprint(tt.withdraw) {
				t.Errorf("raise %v withdraw %v, want raise %v withdraw %v", raised, plan.withdraw, tt.raise, tt.withdraw)
			}
		})
	}
}

// A burst of requests raises MaxBanners banners, the first filed first;
// the next is raised when one goes.
func TestPlanBannersCapsABurst(t *testing.T) {
	var list []pending.Pending
	for i := range 8 {
		list = append([]pending.Pending{request(fmt.Sprintf("%016x", i+1), fmt.Sprintf("make %d", i), false, at(time.Duration(i)*time.Second))}, list...)
	}
	plan := planBanners(map[string]shownBanner{}, nil, list, false)
	if len(plan.raise) != MaxBanners || plan.raise[0].Request.ID != "0000000000000001" {
		t.Fatalf("raised %d, first %s", len(plan.raise), plan.raise[0].Request.ID)
	}
	shown := map[string]shownBanner{}
	for _, p := range plan.raise[1:] {
		shown[p.Request.ID] = shownBanner{binding: p.Binding, group: group(p.Request)}
	}
	next := planBanners(shown, nil, list[:7], false) // the first was answered
	if len(next.raise) != 1 || next.raise[0].Request.ID != "0000000000000006" {
		t.Errorf("after one went, raised %v", next.raise)
	}
}
