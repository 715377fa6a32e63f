package bar

import (
	"slices"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

func networkPending() pending.Pending {
	command, reasons := pending.NetworkRequest("registry.example.org", 443, "npm install")
	now := time.Now()
	return pending.Pending{Binding: "95f2b581f73da837d616b66aa2d72e3c37c5ad4d33ee35af38f474aa0c1bb4bf", Request: pending.Request{
		Version: 1, ID: "9b1c44e2a07f5d13", Kind: pending.KindNetwork, Command: command, Cwd: "/home/ana/shop",
		Level: pending.LevelModerate, Reasons: reasons, Scopes: pending.AllScopes, Face: pending.FaceChat,
		Requester: pending.Requester{PID: 1, StartTime: "1"}, RequestedAt: now, ExpiresAt: now.Add(time.Minute)}}
}

func TestNetworkBanner(t *testing.T) {
	b := BannerFor(networkPending(), "/home/ana")
	if b.Title != "wisp: allow network to registry.example.org:443?" {
		t.Errorf("title %q", b.Title)
	}
	var labels []string
	for _, a := range b.Actions {
		labels = append(labels, a.Label)
	}
	if !slices.Equal(labels, []string{"Allow once", "Deny", "Details"}) {
		t.Errorf("buttons %q, want Allow once and Deny", labels)
	}
	if want := "network to registry.example.org:443\nin ~/shop\nasked by: npm install\ndigest 95f2b581"; b.Body != want {
		t.Errorf("body %q, want %q", b.Body, want)
	}
}

func TestNetworkMenuOffersTheScopes(t *testing.T) {
	var labels []string
	for _, it := range answerItems(networkPending()) {
		labels = append(labels, it.Label)
	}
	for _, want := range []string{"Allow once", "Allow for this session", "Allow for this project", "Allow always", "Deny"} {
		if !slices.Contains(labels, want) {
			t.Errorf("menu %q lacks %q", labels, want)
		}
	}
}
