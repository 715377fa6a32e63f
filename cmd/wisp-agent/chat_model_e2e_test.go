package main

import (
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// The model, checked (issue 17): the prompt beside a hanging check, a
// missing model, retries, /model and /status, doctor's model line, and
// wisp respond's two outputs.

// without a model.
func TestDoctorChecksTheModelServer(t *testing.T) {
	e := newE2E(t)
	doctor := func() string {
		out, _ := e.cmd("doctor").CombinedOutput()
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, " model ") {
				return l
			}
		}
		t.Fatalf("no model line in doctor:\n%s", out)
		return ""
	}
	srv := modeltest.NewServer(t)
	e.wisp("config", "set", "model.baseURL", srv.URL())
	if got := doctor(); got != "ok   model    Ollama answers at "+srv.URL()+" (1 model) and has granite4.1:8b" {
		t.Errorf("a good server: %q", got)
	}
	srv.SetOllama(false)
	srv.SetModels("qwen3:8b")
	if got := doctor(); !strings.HasPrefix(got, "WARN model    the model granite4.1:8b is not on the server at "+srv.URL()+"; it has qwen3:8b; set model.name") ||
		strings.Contains(got, "ollama pull") {
		t.Errorf("a server without the model: %q", got)
	}
	e.wisp("config", "set", "model.baseURL", "http://127.0.0.1:9/v1")
	if got := doctor(); got != "WARN model    the model server at http://127.0.0.1:9/v1 is not answering; start it (ollama serve) or set model.baseURL" {
		t.Errorf("a server that is down: %q", got)
	}
	out, err := e.cmd("config", "set", "model.baseURL", "127.0.0.1:11434").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "such as http://127.0.0.1:11434/v1") {
		t.Errorf("a base URL without a scheme was taken: %s", out)
	}
}

// the check's note comes later above the line being typed, which stays.
func TestChatPromptComesAtOnceWhileTheModelIsChecked(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accepts and never answers
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { conn.Close() })
		}
	}()
	e.wisp("config", "set", "model.baseURL", "http://"+ln.Addr().String()+"/v1")
	c := e.startChat(false)
	if strings.Contains(c.screen(), "cannot be reached") {
		t.Fatalf("the check's note came before the prompt:\n%s", c.screen())
	}
	c.typeKeys("hel")
	c.expect("· the model cannot be reached: the model server at http://" + ln.Addr().String() + "/v1 did not answer within 5s")
	c.expect("› hel")
	lines := c.shown()
	if last := lines[len(lines)-1]; last != "› hel" {
		t.Errorf("the line typed was not drawn again under the note: %q\n%s", last, strings.Join(lines, "\n"))
	}
	c.typeKeys("\x15") // Ctrl-U: the line goes
	c.typeLine("/status")
	c.expect("server:    http://" + ln.Addr().String() + "/v1 · the model server at")
}

// /model switches the model for the session, /status says the state.
func TestChatModelFailuresAndSwitch(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Status: 429, RetryAfter: "1", ErrorBody: "busy"},
		modeltest.Turn{Text: []string{"Finally."}}, modeltest.Turn{Text: []string{"From qwen."}})
	srv.SetOllama(false)
	srv.SetModels("qwen3:8b")
	c := e.chatWith(srv, false)
	c.expect("· the model cannot be reached: the model granite4.1:8b is not on the server at " + srv.URL() +
		"; it has qwen3:8b; set model.name to one of them (wisp config set model.name NAME)")
	if strings.Contains(c.screen(), "ollama pull") {
		t.Errorf("the ollama pull hint on a server that is not Ollama:\n%s", c.screen())
	}
	c.typeLine("hello")
	c.expect("· the model server failed (the model server answered HTTP 429: busy); retry 1 of 3 in 1s")
	c.expect("Finally.")
	c.typeLine("/model qwen3:8b")
	c.expect("· the model is qwen3:8b for this session (model.name is unchanged)")
	c.typeLine("again")
	c.expect("From qwen.")
	if got := srv.Requests()[2].Model; got != "qwen3:8b" {
		t.Errorf("after /model the request named %q", got)
	}
	c.typeLine("/status")
	c.expect("context:   about ")
	for _, want := range []string{"model:     qwen3:8b", "folder:    " + e.project, "network:   on", "threshold: high",
		"waiting:   0 requests"} {
		if !strings.Contains(c.screenVT.Text(), want) {
			t.Errorf("/status lacks %q:\n%s", want, c.screenVT.Text())
		}
	}
}

// and nothing else on stdout.
func TestRespondJSONWritesTheEventLines(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", `{"command":"echo hi"}`)}},
		modeltest.Turn{Text: []string{"It ", "said hi."}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	cmd := e.cmd("respond", "--json", "say hi")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("respond --json: %v\n%s\n%s", err, out, stderr.String())
	}
	var types []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var ev struct {
			Type, Text, Command, Origin string
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("a line that is not JSON: %q", line)
		}
		if ev.Type == "message" && ev.Text != "It said hi." {
			t.Errorf("message %q", ev.Text)
		}
		if len(types) == 0 || types[len(types)-1] != ev.Type {
			types = append(types, ev.Type)
		}
	}
	want := "ready toolCall commandStart output commandOutcome toolResult text message turnEnd"
	if got := strings.Join(types, " "); got != want {
		t.Errorf("events %s\nwant   %s", got, want)
	}
}

// the source is what a script keeps.
func TestRespondIntoAPipeKeepsTheMarkdown(t *testing.T) {
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"# Title\n\nSome **bold** ", "text.\n"}})
	e.wisp("config", "set", "model.baseURL", srv.URL())
	out, err := e.cmd("respond", "write it").Output()
	if err != nil || string(out) != "# Title\n\nSome **bold** text.\n" {
		t.Errorf("respond wrote %q, %v", out, err)
	}
}
