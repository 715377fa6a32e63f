package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
)

// /tools off reaches the agent through RunSlash too, the entry the tui
// runs its / commands through, so a person in the tui can go on with a
// model that cannot use tools, as in chat.
func TestToolsOffThroughRunSlash(t *testing.T) {
	w := agenttest.NewWorld(t, nil)
	a := agent.New(agent.Options{Tools: w.Tools})
	var out strings.Builder
	if _, ok := RunSlash(context.Background(), a, nil, nil, "/tools off", &out); !ok || !a.ToolsOff() {
		t.Fatalf("/tools off: handled %v, tools off %v; said %q", ok, a.ToolsOff(), out.String())
	}
	if !strings.Contains(out.String(), "the model is offered no tools from now on") {
		t.Errorf("/tools off said %q", out.String())
	}
	out.Reset()
	if _, ok := RunSlash(context.Background(), a, nil, nil, "/tools on", &out); !ok || a.ToolsOff() {
		t.Errorf("/tools on: handled %v, tools off %v; said %q", ok, a.ToolsOff(), out.String())
	}
}
