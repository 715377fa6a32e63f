package runner_test

import (
	"testing"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox"
)

// Whether commands reach the network, as every face says it. With
// --unsafe and allowNetwork false they do: nothing confines them, so
// chat's /status and the tui's status line both say on.
func TestNetworkOn(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		sandboxOn, allow, unsafe bool
		nested                   bool
		domains                  []string
		want                     bool
	}{
		{"confined, allowNetwork true", true, true, false, false, nil, true},
		{"confined, allowNetwork false", true, false, false, false, nil, false},
		{"confined, only the proxy's hosts", true, false, false, false, []string{"registry.test"}, false},
		{"--unsafe, allowNetwork false", true, false, true, false, nil, true},
		{"the sandbox off, allowNetwork false", false, false, false, false, nil, true},
		{"nested, allowNetwork false", true, false, false, true, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := config.Default()
			cfg.CommandPolicy.Sandbox.Enabled = tc.sandboxOn
			cfg.CommandPolicy.Sandbox.AllowNetwork = tc.allow
			cfg.CommandPolicy.Sandbox.AllowedDomains = tc.domains
			spec := sandbox.Spec{Roots: []string{"/p"}, Network: tc.allow}
			r := &runner.Runner{Config: cfg, Spec: runner.PlannedNetwork(cfg, spec), Unsafe: tc.unsafe, Nested: tc.nested}
			if got := r.NetworkOn(); got != tc.want {
				t.Errorf("NetworkOn() = %v, want %v", got, tc.want)
			}
		})
	}
}
