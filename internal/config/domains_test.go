package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestSetDomainListsAsJSONArrays(t *testing.T) {
	h := Home{Dir: filepath.Join(t.TempDir(), "wisp")}
	if err := Set(h, "commandPolicy.sandbox.allowedDomains", `["github.com","*.npmjs.org","proxy.golang.org:443"]`); err != nil {
		t.Fatal(err)
	}
	if err := Set(h, "commandPolicy.sandbox.deniedDomains", `["gist.github.com"]`); err != nil {
		t.Fatal(err)
	}
	if err := Set(h, "approval.askForHosts", "false"); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(h)
	if err != nil {
		t.Fatal(err)
	}
	sb := cfg.CommandPolicy.Sandbox
	if !slices.Equal(sb.AllowedDomains, []string{"github.com", "*.npmjs.org", "proxy.golang.org:443"}) || !slices.Equal(sb.DeniedDomains, []string{"gist.github.com"}) || cfg.Approval.AskForHosts {
		t.Errorf("after set: allowed %q, denied %q, askForHosts %v", sb.AllowedDomains, sb.DeniedDomains, cfg.Approval.AskForHosts)
	}
	for _, bad := range []string{"github.com", `"github.com"`, `[1]`, `null`, `{"a":1}`} {
		if err := Set(h, "commandPolicy.sandbox.allowedDomains", bad); err == nil || !strings.Contains(err.Error(), "takes a JSON array of strings") {
			t.Errorf("Set(allowedDomains, %s) = %v, want a refusal", bad, err)
		}
	}
}

func TestAskForHostsDefaultsOn(t *testing.T) {
	if d := Default(); !d.Approval.AskForHosts || d.CommandPolicy.Sandbox.AllowedDomains != nil {
		t.Errorf("defaults: askForHosts %v, allowedDomains %q", d.Approval.AskForHosts, d.CommandPolicy.Sandbox.AllowedDomains)
	}
}
