package chat

import (
	"errors"
	"strings"
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

// recorder is a face that keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
	onEmit func(Event)
}

func (r *recorder) Emit(ev Event) {
	r.mu.Lock()
	r.events = append(r.events, ev)
	fn := r.onEmit
	r.mu.Unlock()
	if fn != nil {
		fn(ev)
	}
}

func (r *recorder) of(typ string) []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Event
	for _, ev := range r.events {
		if ev.Type == typ {
			out = append(out, ev)
		}
	}
	return out
}

// said is every note and error, one a line.
func (r *recorder) said() string {
	var lines []string
	for _, ev := range append(r.of(EventNote), r.of(EventError)...) {
		lines = append(lines, ev.Text)
	}
	return strings.Join(lines, "\n")
}

// world is a runner with no kernel sandbox: with the sandbox on, confined
// commands fail closed and !! runs outside; with it off, all run plainly.
type world struct {
	tb   *tools.Toolbox
	home config.Home
	face *recorder
}

func newWorld(t testing.TB, mutate func(*config.Config)) *world {
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
	return &world{tb: tb, home: home, face: &recorder{}}
}

func sandboxOff(c *config.Config) { c.CommandPolicy.Sandbox.Enabled = false }

// agent talks to srv (nil: no model) and records to a thread in the home.
func (w *world) agent(t testing.TB, srv *modeltest.Server) (*Agent, *Thread) {
	t.Helper()
	th, err := CreateThread(w.home.ThreadsDir(), time.Now, Record{Dir: w.tb.Runner.Dir, Face: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { th.Close() })
	o := Options{Tools: w.tb, Face: w.face, Thread: th, NoModel: "no model in this test"}
	if srv != nil {
		c, err := model.New(config.Model{Name: "granite4.1:8b", BaseURL: srv.URL()}, nil)
		if err != nil {
			t.Fatal(err)
		}
		o.Model = c
	}
	return NewAgent(o), th
}

func (w *world) records(t *testing.T, th *Thread) []Record {
	t.Helper()
	recs, err := ReadThread(w.home.ThreadsDir(), th.ID)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func runCall(id string, args ...string) modeltest.ToolCallScript {
	return modeltest.ToolCallScript{ID: id, Name: "run_command", Arguments: args}
}

// lastOf is the last message with role in a recorded request.
func lastOf(req modeltest.Request, role string) model.Message {
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == role {
			return req.Messages[i]
		}
	}
	return model.Message{}
}

func configModel(srv *modeltest.Server) config.Model {
	return config.Model{Name: "granite4.1:8b", BaseURL: srv.URL()}
}
