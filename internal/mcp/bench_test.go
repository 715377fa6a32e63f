package mcp

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/policy"
)

// BenchmarkRunCommand measures what MCP adds to one run_command: the same
// call of `true` through the toolbox directly (the chat's path, the
// baseline) and through an MCP client and server in memory, in one run.
// The sandbox is off so that the command's own cost stays small.
//
//	go test -run '^$' -bench RunCommand ./mcp
func BenchmarkRunCommand(b *testing.B) {
	benchCall(b, "run_command", map[string]any{"command": "true"})
}

// BenchmarkInspect is the protocol's cost alone: inspect what=limits runs
// no process.
//
//	go test -run '^$' -bench Inspect ./mcp
func BenchmarkInspect(b *testing.B) {
	benchCall(b, "inspect", map[string]any{"what": "limits"})
}

func benchCall(b *testing.B, name string, args map[string]any) {
	tb := benchToolbox(b)
	raw, _ := json.Marshal(args)
	b.Run("toolbox", func(b *testing.B) {
		for b.Loop() {
			if _, err := tb.Call(context.Background(), name, string(raw)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		ctx := context.Background()
		st, ct := sdk.NewInMemoryTransports()
		ss, err := NewServer(Options{Version: "bench", Toolbox: tb}).Connect(ctx, st, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer ss.Close()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		defer cs.Close()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
			if err != nil || res.IsError {
				b.Fatal(err, res)
			}
		}
	})
}

func benchToolbox(b *testing.B) *tools.Toolbox {
	cfg := config.Default()
	cfg.CommandPolicy.Sandbox.Enabled = false
	home := config.Home{Dir: b.TempDir()}
	pol, _ := policy.New(nil, nil)
	r := &runner.Runner{Config: cfg, Home: home, Dir: b.TempDir(), Policy: pol,
		Store: &runner.Store{Dir: home.OutputsDir(), FileBytes: 1 << 20, MaxBytes: 1 << 24, Now: time.Now}}
	return &tools.Toolbox{Runner: r}
}
