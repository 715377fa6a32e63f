package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// Real local models' ways (issue 27), as a person meets them through
// wisp respond, with --json and without, against the recorded bytes of
// the servers (the replay corpus). wisp chat and wisp tui on a
// pseudo-terminal are in local_models_screen_e2e_test.go.

// replayCase starts a replay of the corpus cases named, one after the
// other as one server's answers (a second turn after a recorded one), and
// points the home's model at it, named as the first case names it.
func (e *e2e) replayCase(names ...string) *modeltest.ReplayServer {
	e.t.Helper()
	var all *modeltest.Case
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "internal", "model", "modeltest", "testdata", "replay", name+".txt"))
		if err != nil {
			e.t.Fatal(err)
		}
		c, err := modeltest.ParseCase(name, data)
		if err != nil {
			e.t.Fatal(err)
		}
		if all == nil {
			all = c
			continue
		}
		all.Responses = append(all.Responses, c.Responses...)
	}
	srv := modeltest.NewReplayServer(e.t, all)
	e.wisp("config", "set", "model.baseURL", srv.URL())
	e.wisp("config", "set", "model.name", all.Get("model"))
	return srv
}

type jsonEvent struct {
	Type     string   `json:"type"`
	Text     string   `json:"text"`
	Level    string   `json:"level"`
	Hints    []string `json:"hints"`
	Command  string   `json:"command"`
	FromText bool     `json:"fromText"`
}

// respondJSON runs wisp respond --json and returns its events and exit code.
func (e *e2e) respondJSON(prompt string) ([]jsonEvent, int) {
	e.t.Helper()
	c := e.cmd("respond", "--json", prompt)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Run()
	var events []jsonEvent
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var ev jsonEvent
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			e.t.Fatalf("stdout line %q is not an event: %v\nstderr: %s", line, err, stderr.String())
		}
		events = append(events, ev)
	}
	return events, c.ProcessState.ExitCode()
}

func TestRespondJSONLocalModels(t *testing.T) {
	for _, tc := range []struct {
		name   string
		exit   int
		want   jsonEvent // the first event of want.Type must hold want.Text
		hint   string    // one of its hints holds this
		absent string    // no text or message event holds this
	}{
		{name: "ollama/reasoning-inline-think", want: jsonEvent{Type: "reasoning"}, absent: "<think>"},
		{name: "vllm/reasoning-split", want: jsonEvent{Type: "reasoning"}},
		{name: "ollama/think-only-empty", exit: 1,
			want: jsonEvent{Type: "note", Text: "· the model thought but answered nothing"}, hint: "ask again"},
		{name: "ollama/does-not-support-tools", exit: 1,
			want: jsonEvent{Type: "error", Text: "the model gemma3:4b cannot use tools"}, hint: "/tools off"},
		{name: "ollama/length", exit: 1,
			want: jsonEvent{Type: "note", Text: "· the model hit its output limit"}, hint: "num_predict"},
		{name: "ollama/repeating-line", exit: 1,
			want: jsonEvent{Type: "note", Text: `· the model repeated the line "- main.go" 16 times`}, absent: "- main.go\n- main.go"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newE2E(t)
			e.replayCase(tc.name)
			events, code := e.respondJSON("hi")
			if code != tc.exit {
				t.Errorf("exit %d, want %d", code, tc.exit)
			}
			if last := events[len(events)-1]; last.Type != "turnEnd" {
				t.Errorf("the last event is %+v, not turnEnd", last)
			}
			var found *jsonEvent
			for i, ev := range events {
				if ev.Type == tc.want.Type && strings.HasPrefix(ev.Text, tc.want.Text) && found == nil {
					found = &events[i]
				}
				if tc.absent != "" && (ev.Type == "text" || ev.Type == "message") && strings.Contains(ev.Text, tc.absent) {
					t.Errorf("%s event holds %q: %q", ev.Type, tc.absent, ev.Text)
				}
			}
			if found == nil {
				t.Fatalf("no %s event starting %q in %+v", tc.want.Type, tc.want.Text, events)
			}
			if tc.hint != "" && !strings.Contains(strings.Join(found.Hints, "\n"), tc.hint) {
				t.Errorf("hints %q lack %q", found.Hints, tc.hint)
			}
		})
	}
}

// A call written as text is run as a call, marked so on the event and in
// the audit log.
func TestRespondJSONRunsACallWrittenAsText(t *testing.T) {
	e := newE2E(t)
	e.wisp("config", "set", "commandPolicy.sandbox.enabled", "false")
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{"<tool_call>\n", `{"name": "run_command", "arguments": {"command": "echo written-as-text"}}`, "\n</tool_call>"}},
		modeltest.Turn{Text: []string{"Done."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	events, code := e.respondJSON("go")
	if code != 0 {
		t.Fatalf("exit %d: %+v", code, events)
	}
	var call *jsonEvent
	for i := range events {
		if events[i].Type == "toolCall" {
			call = &events[i]
		}
	}
	if call == nil || !call.FromText || call.Command != "echo written-as-text" {
		t.Fatalf("the call event %+v", call)
	}
	log, _ := os.ReadFile(filepath.Join(e.home, "logs", "audit.jsonl"))
	if !strings.Contains(string(log), `"event":"toolCall.fromText"`) || !strings.Contains(string(log), `"event":"command.outcome"`) {
		t.Errorf("the audit log:\n%s", log)
	}
}

// respond without --json: the words alone on stdout (none here), the
// thinking folded and the empty answer said on stderr, and a failure's
// exit code.
func TestRespondSaysTheModelAnsweredNothing(t *testing.T) {
	e := newE2E(t)
	e.replayCase("ollama/think-only-empty")
	c := e.cmd("respond", "hi")
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	c.Env = append(c.Env, "NO_COLOR=1")
	err := c.Run()
	if err == nil || c.ProcessState.ExitCode() != 1 {
		t.Errorf("exit %v, want 1", err)
	}
	if stdout.Len() != 0 {
		t.Errorf("stdout %q", stdout.String())
	}
	want := "· thinking …\n· the model thought but answered nothing\n  · ask again, or in other words\n"
	if !strings.HasPrefix(stderr.String(), want) {
		t.Errorf("stderr:\n%s\nwant it to start:\n%s", stderr.String(), want)
	}
}
