package agent

import (
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/tools"
)

// recorder is a face that keeps every event.
type recorder struct {
	agenttest.Recorder[Event]
}

func (r *recorder) of(typ string) []Event {
	return r.Where(func(ev Event) bool { return ev.Type == typ })
}

// said is every note and error, one a line.
func (r *recorder) said() string {
	var lines []string
	for _, ev := range append(r.of(EventNote), r.of(EventError)...) {
		lines = append(lines, ev.Text)
	}
	return strings.Join(lines, "\n")
}

// world is agenttest's, with a face that records.
type world struct {
	tb   *tools.Toolbox
	home config.Home
	face *recorder
}

func newWorld(t testing.TB, mutate func(*config.Config)) *world {
	t.Helper()
	w := agenttest.NewWorld(t, mutate)
	return &world{tb: w.Tools, home: w.Home, face: &recorder{}}
}

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
	return New(o), th
}

func (w *world) records(t *testing.T, th *Thread) []Record {
	t.Helper()
	recs, err := ReadThread(w.home.ThreadsDir(), th.ID)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
