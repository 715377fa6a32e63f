package agentcli

import (
	"context"
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
)

// Non-interactive respond asks nobody unless approval.outOfBand, and
// --yes never answers a run outside the sandbox (docs/decisions.md, D18).
func TestRespondApproverChoice(t *testing.T) {
	pol, _ := policy.New(nil, nil)
	touch := pol.Check("touch x") // moderate: asks at the default threshold
	for _, tc := range []struct {
		name           string
		outOfBand, yes bool
		ordinary       string // what the model reads for a command that asks; "" approved
		outside        string
	}{
		{name: "nobody", ordinary: "error: command not approved: " + NobodyToAsk + "; it did not run",
			outside: "error: command not approved: running outside the sandbox is asked of a person every time, and no one can be asked here; " +
				"run it without outsideSandbox, or ask the person to run it themselves"},
		{name: "--yes", yes: true,
			outside: "error: command not approved: running outside the sandbox is asked of a person every time, and no one can be asked here " +
				"(--yes does not answer it); run it without outsideSandbox, or ask the person to run it themselves"},
		{name: "out of band", outOfBand: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			extra := respondApprovers(tc.outOfBand, tc.yes)
			if tc.outOfBand || tc.yes {
				if len(extra) != 0 {
					t.Fatalf("respond adds %v where the pending channel or --yes answers", extra)
				}
				if tc.outOfBand {
					return // the pending channel's own tests cover its asking
				}
			}
			g := &approval.Gate{Threshold: "moderate", Held: approval.NewHeld(config.Home{Dir: t.TempDir()}), Approvers: extra}
			if tc.yes {
				g.Approvers = append([]approval.Approver{approval.Auto{}}, g.Approvers...)
			}
			ctx := context.Background()
			ord, _ := g.Clear(ctx, runner.GateRequest{Line: "touch x", Dir: t.TempDir(), Origin: runner.Model, Decision: touch})
			out, _ := g.Clear(ctx, runner.GateRequest{Line: "touch x", Dir: t.TempDir(), Origin: runner.Model, OutsideSandbox: true, Decision: touch})
			if ord.Message != tc.ordinary || ord.Approved != (tc.ordinary == "") {
				t.Errorf("ordinary: %+v, want %q", ord, tc.ordinary)
			}
			if out.Approved || out.Message != tc.outside {
				t.Errorf("outside:\n got %q\nwant %q", out.Message, tc.outside)
			}
		})
	}
}
