// Package agenttest is what the tests of the agent and of its faces share:
// a world to run the agent in (a real runner with no kernel sandbox, and
// the model's tools over it), a face that records what it is shown, and
// the model's side of a scripted turn. It does not import agent, so that
// agent's own tests, in its package, can use it.
package agenttest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/policy"
)

// World is a runner with no kernel sandbox: with the sandbox on, confined
// commands fail closed and !! runs outside; with it off, all run plainly.
type World struct {
	Tools *tools.Toolbox
	Home  config.Home
}

// NewWorld makes a world from wisp's default configuration, changed by
// mutate (nil: as it is), with its own home and project folders.
func NewWorld(t testing.TB, mutate func(*config.Config)) *World {
	t.Helper()
	cfg := config.Default()
	if mutate != nil {
		mutate(&cfg)
	}
	home := config.Home{Dir: t.TempDir()}
	pol, err := policy.New(cfg.CommandPolicy.Deny, cfg.CommandPolicy.Allow)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner.Runner{Config: cfg, Home: home, Dir: t.TempDir(), Policy: pol,
		BackendErr: errors.New("this test has no sandbox"),
		Store:      &runner.Store{Dir: home.OutputsDir(), FileBytes: 1 << 20, MaxBytes: 1 << 24, Now: time.Now}}
	tb := &tools.Toolbox{Runner: r, Folders: tools.Folders{Project: r.Dir, UserHome: t.TempDir(), WispHome: home.Dir}}
	return &World{Tools: tb, Home: home}
}

// SandboxOff is a mutate for NewWorld: every command runs plainly.
func SandboxOff(c *config.Config) { c.CommandPolicy.Sandbox.Enabled = false }

// Recorder is a face that keeps every event (E is the agent's Event: this
// package cannot name it).
type Recorder[E any] struct {
	mu     sync.Mutex
	events []E
	// OnEmit, when set, sees each event after it is kept.
	OnEmit func(E)
}

// Emit keeps ev.
func (r *Recorder[E]) Emit(ev E) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	fn := r.OnEmit
	r.mu.Unlock()
	if fn != nil {
		fn(ev)
	}
}

// Events is every event kept so far, in order.
func (r *Recorder[E]) Events() []E {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]E(nil), r.events...)
}

// Where is every event kept so far for which keep is true, in order.
func (r *Recorder[E]) Where(keep func(E) bool) []E {
	var out []E
	for _, ev := range r.Events() {
		if keep(ev) {
			out = append(out, ev)
		}
	}
	return out
}

// RunCall is the model's run_command call, its arguments streamed in the
// pieces given.
func RunCall(id string, args ...string) modeltest.ToolCallScript {
	return modeltest.ToolCallScript{ID: id, Name: "run_command", Arguments: args}
}

// LastOf is the last message with role in a recorded request.
func LastOf(req modeltest.Request, role string) model.Message {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == role {
			return req.Messages[i]
		}
	}
	return model.Message{}
}

// ConfigModel is the model configuration that talks to srv.
func ConfigModel(srv *modeltest.Server) config.Model {
	return config.Model{Name: "granite4.1:8b", BaseURL: srv.URL()}
}
