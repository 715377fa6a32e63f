package mcp

import (
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
)

func TestHostDialog(t *testing.T) {
	d := HostDialog(approval.HostRequest{Host: "registry.example.org", Port: 443, Line: "npm install\x1b[2J", Scopes: approval.AllScopes})
	if !strings.HasPrefix(d.Message, "allow network to registry.example.org:443? asked by: npm install") || strings.Contains(d.Message, "\x1b") {
		t.Errorf("message %q", d.Message)
	}
	s := d.RequestedSchema.(formSchema)
	if s.Title != "wisp: allow network to registry.example.org:443?" || len(s.Properties["scope"].Enum) != 4 {
		t.Errorf("schema %+v", s)
	}
}
