package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
)

func TestSystemPromptSaysWhereToWriteAndHowToAsk(t *testing.T) {
	w := newWorld(t, nil)
	w.tb.Runner.Spec.Roots = []string{w.tb.Runner.Dir, "/tmp"}
	w.tb.Ask = func(context.Context, approval.Request) (approval.Answer, error) { return approval.Answer{}, nil }
	p := SystemPrompt(w.tb)
	for _, want := range []string{
		"project folder " + w.tb.Runner.Dir,
		"- " + w.tb.Runner.Dir + "\n- /tmp\n",
		"The sandbox refuses every write anywhere else",
		"call add_directory once with that folder",
		"call run_command with outsideSandbox true. The person approves each such run",
		"after ! (in the sandbox) or !! (outside it)",
		"Limits:\n" + w.tb.Limits(),
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the system prompt lacks %q:\n%s", want, p)
		}
	}
}

func TestSystemPromptWhereLeavingIsOffOrMeaningless(t *testing.T) {
	off := newWorld(t, func(c *config.Config) { c.CommandPolicy.Sandbox.AllowOutsideSandbox = false })
	if p := SystemPrompt(off.tb); !strings.Contains(p, "turned off here: do not ask for it") || strings.Contains(p, "add_directory once") {
		t.Errorf("switch off, no grants offered:\n%s", p)
	}
	plain := newWorld(t, agenttest.SandboxOff)
	if p := SystemPrompt(plain.tb); !strings.Contains(p, "The sandbox is off here") || strings.Contains(p, "outsideSandbox true") {
		t.Errorf("sandbox off:\n%s", p)
	}
}
