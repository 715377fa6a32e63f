package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// A line shaped as a command wisp lacks is refused with the nearest one
// and never reaches the model; a path or a sentence still does.
func TestUnknownCommandIsRefusedWithTheNearest(t *testing.T) {
	for _, tc := range []struct {
		line, said string // said "": the line goes to the model
	}{
		{"/bogus", "· /bogus is not a wisp command (/help lists them; it was not sent to the model)"},
		{"/modle", "· /modle is not a wisp command: did you mean /model? (/help lists them; it was not sent to the model)"},
		{"/modle qwen3:8b", "· /modle is not a wisp command: did you mean /model? (/help lists them; it was not sent to the model)"},
		{"/stauts", "· /stauts is not a wisp command: did you mean /status? (/help lists them; it was not sent to the model)"},
		{"/tmp is full again", ""},
		{"/etc/hosts looks wrong", ""},
		{"/etc/hosts", ""},
		{"/ is read-only?", ""},
	} {
		var said []string
		quit, ok := slash(tc.line, nil, func(s string) { said = append(said, s) })
		if quit {
			t.Errorf("%q quits", tc.line)
		}
		if tc.said == "" {
			if ok || len(said) > 0 {
				t.Errorf("%q was taken as a command (%q), not sent to the model", tc.line, said)
			}
			continue
		}
		if !ok || strings.Join(said, "\n") != tc.said {
			t.Errorf("%q: ok %v, said %q\nwant %q", tc.line, ok, said, tc.said)
		}
	}
}

// /model NAME asks the server first: a name it lacks is said so and the
// model stays; a name it has is switched to.
func TestModelSwitchChecksTheNameFirst(t *testing.T) {
	srv := modeltest.NewServer(t)
	srv.SetOllama(false)
	srv.SetModels("granite4.1:8b", "qwen3:8b")
	c, err := model.New(config.Model{BaseURL: srv.URL(), Name: "granite4.1:8b"}, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	w := agenttest.NewWorld(t, nil)
	a := agent.New(agent.Options{Tools: w.Tools, Model: c})
	var out strings.Builder
	RunSlash(context.Background(), a, nil, nil, "/model qwen3:9b", &out)
	if got := out.String(); !strings.Contains(got, "the model qwen3:9b is not on the server at "+srv.URL()+"; it has granite4.1:8b, qwen3:8b") ||
		!strings.Contains(got, "· the model stays granite4.1:8b") || strings.Contains(got, "the model is qwen3:9b") {
		t.Errorf("/model with a name the server lacks said:\n%s", got)
	}
	if a.ModelName() != "granite4.1:8b" {
		t.Errorf("after a refused /model the agent talks to %q", a.ModelName())
	}
	out.Reset()
	RunSlash(context.Background(), a, nil, nil, "/model qwen3:8b", &out)
	if got := out.String(); strings.TrimSpace(got) != "· the model is qwen3:8b for this session (model.name is unchanged)" {
		t.Errorf("/model with a name the server has said:\n%s", got)
	}
	if a.ModelName() != "qwen3:8b" {
		t.Errorf("after /model qwen3:8b the agent talks to %q", a.ModelName())
	}
}
