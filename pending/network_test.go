package pending

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
)

func TestNetworkRequestFiledAndRead(t *testing.T) {
	c := New(t.TempDir() + "/pending")
	command, reasons := NetworkRequest("registry.example.org", 443, "npm install")
	f, err := c.File(context.Background(), Request{Kind: KindNetwork, Command: command, Cwd: "/work/shop",
		Level: LevelModerate, Reasons: reasons, Face: FaceChat})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Withdraw()
	if !strings.Contains(string(f.Bytes), `"kind": "network"`) || !strings.Contains(string(f.Bytes), `"command": "network to registry.example.org:443"`) {
		t.Errorf("request file:\n%s", f.Bytes)
	}
	p, err := c.Get(f.Request.ID)
	if err != nil {
		t.Fatal(err)
	}
	host, port, by, ok := NetworkTarget(p.Request)
	if !ok || host != "registry.example.org" || port != 443 || by != "npm install" {
		t.Fatalf("NetworkTarget = %q %d %q %v", host, port, by, ok)
	}
	if p.Binding != f.Binding {
		t.Errorf("the face's binding %s is not the requester's %s", p.Binding, f.Binding)
	}
}

func TestNetworkRequestRulesHold(t *testing.T) {
	for _, c := range []struct {
		name    string
		edit    func(*Request)
		wantErr string
	}{
		{"no target", func(r *Request) { r.Command = "network to " }, "HOST:PORT"},
		{"another command", func(r *Request) { r.Command = "rm -rf /" }, "must be"},
		{"port zero", func(r *Request) { r.Command = "network to a.org:0" }, "port"},
		{"port with a sign", func(r *Request) { r.Command = "network to a.org:+443" }, "port"},
		{"escape in the host", func(r *Request) { r.Command = "network to a\x1bc.org:443" }, "host name"},
		{"upper case", func(r *Request) { r.Command = "network to A.org:443" }, "host name"},
		{"who asked missing", func(r *Request) { r.Reasons = []string{} }, "asked by"},
		{"who asked empty", func(r *Request) { r.Reasons = []string{NetworkAskedBy} }, "asked by"},
		{"outside the sandbox", func(r *Request) { r.OutsideSandbox = true }, "outside"},
	} {
		t.Run(c.name, func(t *testing.T) {
			command, reasons := NetworkRequest("a.org", 443, "curl a.org")
			r := Request{Version: 1, ID: "0123456789abcdef", Kind: KindNetwork, Command: command, Cwd: "/p", Level: LevelModerate,
				Reasons: reasons, Scopes: AllScopes, Face: FaceChat, Requester: Requester{PID: 1, StartTime: "1"}}
			r.RequestedAt = time.Now().UTC()
			r.ExpiresAt = r.RequestedAt.Add(1e9)
			if err := validateRequest(r); err != nil {
				t.Fatalf("the valid request is refused: %v", err)
			}
			c.edit(&r)
			err := validateRequest(r)
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("validateRequest = %v, want an error saying %q", err, c.wantErr)
			}
			if _, _, _, ok := NetworkTarget(r); ok {
				t.Error("NetworkTarget reads a malformed request")
			}
		})
	}
}

// TestNetworkExampleParses: the network request docs/pending.md shows
// is a valid request, read back as its host, port and command.
func TestNetworkExampleParses(t *testing.T) {
	data, err := os.ReadFile("testdata/network.request.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/pending.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```json\n"+string(data)+"```") {
		t.Error("docs/pending.md does not show testdata/network.request.json as it is")
	}
	r, err := ParseRequest(data)
	if err != nil {
		t.Fatal(err)
	}
	host, port, by, ok := NetworkTarget(r)
	if !ok || host != "registry.example.org" || port != 443 || by != "npm install" {
		t.Errorf("NetworkTarget = %q %d %q %v", host, port, by, ok)
	}
}
