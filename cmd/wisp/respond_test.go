package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
)

// Non-interactive respond asks nobody unless approval.outOfBand, and
// --yes never answers a run outside the sandbox (0064 item 6).
func TestRespondApproverChoice(t *testing.T) {
	pol, _ := policy.New(nil, nil)
	touch := pol.Check("touch x") // moderate: asks at the default threshold
	for _, tc := range []struct {
		name           string
		outOfBand, yes bool
		ordinary       string // what the model reads for a command that asks; "" approved
		outside        string
	}{
		{name: "nobody", ordinary: "error: command not approved: " + nobodyToAsk + "; it did not run",
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

func TestRespondPrintsTheAnswerAndTellsTheModelWhyNot(t *testing.T) {
	if sandbox.Nested() {
		t.Skip("wisp runs inside another sandbox here: outsideSandbox changes nothing")
	}
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "brew upgrade", "outsideSandbox": true}))}},
		modeltest.Turn{Text: []string{"I could ", "not run it."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	c := e.cmd("upgrade everything") // the bare wisp "PROMPT" is respond
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Env = append(c.Env, "NO_COLOR=1")
	if err := c.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stdout.String() != "I could not run it.\n" {
		t.Errorf("stdout %q: only the model's words belong there", stdout.String())
	}
	for _, want := range []string{"● brew upgrade  (asks to run OUTSIDE the sandbox)", "· not approved: running outside the sandbox is asked of a person every time"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
	if got := toolResults(srv, 1); !strings.Contains(got, "no one can be asked here; run it without outsideSandbox") {
		t.Errorf("the model read %q", got)
	}
	if srv.Requests()[0].Messages[1].Content != "upgrade everything" {
		t.Errorf("the prompt sent was %q", srv.Requests()[0].Messages[1].Content)
	}
}
