package chat

import (
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/config"
)

// /status says what the tui's status line says of the network, from the
// runner's one answer: with --unsafe and allowNetwork false, commands run
// unconfined and reach it, so it is on; confined with it off, off.
func TestStatusNetwork(t *testing.T) {
	for _, tc := range []struct {
		name   string
		unsafe bool
		want   string
	}{
		{"--unsafe, allowNetwork false", true, "network:   on"},
		{"confined, allowNetwork false", false, "network:   off"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := agenttest.NewWorld(t, func(c *config.Config) { c.CommandPolicy.Sandbox.AllowNetwork = false })
			w.Tools.Runner.Unsafe = tc.unsafe
			a := agent.New(agent.Options{Tools: w.Tools, NoModel: "none configured"})
			if lines := status(TerminalOptions{Agent: a}); !slices.Contains(lines, tc.want) {
				t.Errorf("/status says %q, want the line %q", lines, tc.want)
			}
		})
	}
}
