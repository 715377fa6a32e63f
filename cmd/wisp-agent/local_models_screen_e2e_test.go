package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// screenFace is a face on a real pseudo-terminal, as a person uses it:
// wisp chat or wisp tui, read back through the terminal emulator.
type screenFace interface {
	say(msg string)    // type a message and send it
	waitFor(s string)  // wait until s shows
	lines() []string   // the screen now, the scrollback first
	ctrlC()            // press Ctrl-C
	settled()          // wait until the turn is over and a message may be typed
	paste(text string) // paste text, bracketed, and send it with a typed Enter
}

type chatScreen struct{ c *ptyChat }

func (f chatScreen) say(msg string)  { f.c.typeLine(msg) }
func (f chatScreen) lines() []string { return f.c.shown() }
func (f chatScreen) ctrlC()          { f.c.key(0x03) }
func (f chatScreen) waitFor(s string) {
	f.c.t.Helper()
	waitShown(f.c.t, f.lines, s)
}

func (f chatScreen) settled() {
	f.c.t.Helper()
	waitUntil(f.c.t, "the prompt to come back", f.lines, func(l []string) bool {
		return len(l) > 0 && strings.TrimSpace(l[len(l)-1]) == "›"
	})
}

func (f chatScreen) paste(text string) {
	f.c.t.Helper()
	f.c.tty.Write([]byte("\x1b[200~" + strings.ReplaceAll(text, "\n", "\r") + "\x1b[201~"))
	f.c.expect("[pasted ")
	f.c.key('\r')
}

type tuiScreen struct {
	c     *ptyTUI
	model string
}

func (f tuiScreen) say(msg string) {
	f.c.t.Helper()
	f.c.typeText(msg, "› "+msg)
	f.c.send("\r")
}
func (f tuiScreen) lines() []string { return f.c.screen().Lines() }
func (f tuiScreen) ctrlC()          { f.c.send("\x03") }
func (f tuiScreen) waitFor(s string) {
	f.c.t.Helper()
	waitShown(f.c.t, f.lines, s)
}

func (f tuiScreen) settled() {
	f.c.t.Helper()
	f.c.waitFor(f.model + ": ready")
}

func (f tuiScreen) paste(text string) {
	f.c.t.Helper()
	f.c.send("\x1b[200~" + text + "\x1b[201~")
	f.c.waitFor(text[strings.LastIndex(text, "\n")+1:])
	f.c.send("\r")
}

// waitShown waits until s shows, on a line or wrapped over several. The
// wait guards against a hang; it is not a timed assertion.
func waitShown(t *testing.T, lines func() []string, s string) {
	t.Helper()
	waitUntil(t, fmt.Sprintf("to see %q", s), lines, func(l []string) bool { return onScreen(l, s) })
}

func waitUntil(t *testing.T, what string, lines func() []string, ok func([]string) bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if ok(lines()) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("waited in vain %s; the screen:\n%s", what, strings.Join(lines(), "\n"))
}

// openScreen starts the face kind ("chat" or "tui") on a pty against
// srv. The tui gets a tall terminal, so that a turn shows whole.
func (e *e2e) openScreen(kind string, srv *modeltest.ReplayServer) screenFace {
	e.t.Helper()
	if kind == "chat" {
		return chatScreen{e.startChat(false)}
	}
	c := e.tuiWith(srv, false)
	c.resize(100, 60)
	name := strings.Trim(strings.TrimSpace(e.wisp("config", "get", "model.name")), `"`)
	f := tuiScreen{c: c, model: name}
	f.settled()
	return f
}

// chatRequests are the chat requests the server read, in order.
func chatRequests(srv *modeltest.ReplayServer) []modeltest.ReplayRequest {
	var chats []modeltest.ReplayRequest
	for _, r := range srv.Requests() {
		if r.Path == "/v1/chat/completions" {
			chats = append(chats, r)
		}
	}
	return chats
}

// sentMessages are the messages of chat request i (from the end when
// negative) and how many tools it offered.
func sentMessages(t *testing.T, srv *modeltest.ReplayServer, i int) (msgs []model.Message, tools int) {
	t.Helper()
	chats := chatRequests(srv)
	if i < 0 {
		i += len(chats)
	}
	if i < 0 || i >= len(chats) {
		t.Fatalf("the server read %d chat requests, not a request %d", len(chats), i)
	}
	var body struct {
		Messages []model.Message   `json:"messages"`
		Tools    []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(chats[i].Body, &body); err != nil {
		t.Fatalf("request %d: %v", i, err)
	}
	return body.Messages, len(body.Tools)
}

// A pasted build log of about 30 kB: some 7,500 tokens, more than
// Ollama's default context holds.
func longLog() string {
	var b strings.Builder
	for i := 0; b.Len() < 30000; i++ {
		fmt.Fprintf(&b, "build step %d: compiled package number %d without error\n", i, i)
	}
	return b.String() + "END OF LOG"
}

// A step of a person's session: a message typed or pasted and sent,
// then the turn's end awaited.
type screenStep struct {
	say, paste string
	during     string // shown while the turn goes on
	ctrlC      bool   // pressed once during shows
	until      string // shown once more than before when the turn ends
}

// run takes the step. The turn's end is until shown once more, then the
// face ready for a message: the tui's status line says ready before a
// fast turn as after it.
func (s screenStep) run(t *testing.T, f screenFace) {
	t.Helper()
	before := strings.Count(strings.Join(f.lines(), "\n"), s.until)
	switch {
	case s.paste != "":
		f.paste(s.paste)
	default:
		f.say(s.say)
	}
	if s.during != "" {
		f.waitFor(s.during)
	}
	if s.ctrlC {
		f.ctrlC()
	}
	waitUntil(t, fmt.Sprintf("to see %q once more", s.until), f.lines, func(l []string) bool {
		return strings.Count(strings.Join(l, "\n"), s.until) > before
	})
	f.settled()
}

// Every way of a real local model the issue names (27), as a person sees
// it in wisp chat and in wisp tui on a pseudo-terminal, against the
// recorded bytes of the servers; and, where it is about what the model
// is told, what the next request held.
func TestLocalModelsOnTheScreen(t *testing.T) {
	needSandbox(t)
	hi := func(until string) []screenStep { return []screenStep{{say: "hi", until: until}} }
	twice := func(first, second string) []screenStep {
		return []screenStep{{say: "hi", until: first}, {say: "and then?", until: second}}
	}
	const files = "There are three files"
	for _, tc := range []struct {
		name     string
		cases    []string // replayed one after the other
		config   []string // key, value, … set first
		steps    []screenStep
		shows    []string // on both faces, once the steps are done
		hides    []string // on neither face
		chat     []string // shown by chat alone
		tui      []string // shown by the tui alone
		tuiHides []string // not shown by the tui
		check    func(t *testing.T, srv *modeltest.ReplayServer)
	}{
		// 1. Thinking: folded into one line, never the answer, never sent back.
		{name: "think-tags", cases: []string{"ollama/reasoning-inline-think", "ollama/text-plain"}, steps: twice("Run ls to list them.", files),
			shows: []string{"· thinking …", "Run ls to list them.", "There are three files"}, hides: []string{"<think>", "user wants"},
			check: thinkingNotSentBack},
		{name: "thinking-tags", cases: []string{"lmstudio/thinking-tag-inline", "ollama/text-plain"}, steps: twice("Run ls in the project.", files),
			shows: []string{"· thinking …", "Run ls in the project.", "There are three files"}, hides: []string{"<thinking>", "user wants"},
			check: thinkingNotSentBack},
		{name: "think-split", cases: []string{"vllm/reasoning-split", "ollama/text-plain"}, steps: twice("shall I run ls?", files),
			shows: []string{"· thinking …", "I can't see your files yet", "There are three files"},
			check: thinkingNotSentBack},
		// A distill's </think> without its <think>: the words came as the
		// answer; the tui folds them, chat (whose lines are out) says so.
		{name: "think-close-only", cases: []string{"vllm/reasoning-close-tag-only", "ollama/text-plain"}, steps: twice("Run ls -la.", files),
			shows: []string{"Run ls -la.", "There are three files"}, hides: []string{"</think>"},
			chat: []string{"Okay, so the user wants the files.", "· the words above were the model's thinking, not its answer"},
			tui:  []string{"· thinking …"}, tuiHides: []string{"user wants"},
			check: thinkingNotSentBack},
		{name: "think-never-closed", cases: []string{"ollama/think-never-closed"}, steps: hi("· or ask for less at a time"),
			shows: []string{"· thinking …", "· the model hit its output limit in the middle of its thinking", "num_predict"},
			hides: []string{"<think>"}},
		// 2. An empty answer ends the turn and says so.
		{name: "think-only-empty", cases: []string{"ollama/think-only-empty"}, steps: hi("· a model that thinks may need"),
			shows: []string{"· thinking …", "· the model thought but answered nothing", "  · ask again, or in other words"},
			hides: []string{"user wants", "waiting for the model", "thinking ·"}},
		{name: "reasoning-only", cases: []string{"lmstudio/reasoning-only-no-content"}, steps: hi("· a model that thinks may need"),
			shows: []string{"· thinking …", "· the model thought but answered nothing"}, hides: []string{"user wants"}},
		// 3. Tools refused: what it means, what to do, and /tools off.
		{name: "tools-refused", cases: []string{"ollama/does-not-support-tools", "ollama/text-plain"},
			steps: []screenStep{{say: "hi", until: "runs and reads nothing"}, {say: "/tools off", until: "/tools on offers them again"}, {say: "hi again", until: files}},
			shows: []string{"wisp: error: the model gemma3:4b cannot use tools",
				"· /model NAME with a model that can use tools; this server has: qwen3:8b", "· or talk to this model without tools", "/tools off",
				"· the model is offered no tools from now on", "There are three files"},
			check: func(t *testing.T, srv *modeltest.ReplayServer) {
				if _, tools := sentMessages(t, srv, 0); tools == 0 {
					t.Error("the first request offered no tools")
				}
				if _, tools := sentMessages(t, srv, -1); tools != 0 {
					t.Errorf("after /tools off the request offered %d tools", tools)
				}
			}},
		{name: "tools-need-jinja", cases: []string{"llama.cpp/tools-need-jinja"}, steps: hi("runs and reads nothing"),
			shows: []string{"was started without tool calling", "· restart the server with --jinja", "/tools off"}},
		{name: "tools-need-flag", cases: []string{"vllm/auto-tool-choice-not-enabled"}, steps: hi("runs and reads nothing"),
			shows: []string{"was started without tool calling", "· restart the server with --enable-auto-tool-choice"}},
		// 4. A call written as text runs as a call, through the gate, marked;
		// a call only mentioned beside prose runs nothing.
		{name: "call-in-json-fence", cases: []string{"ollama/tool-call-in-json-fence", "ollama/text-plain"}, steps: hi(files),
			shows: []string{"● ls -la", "(the model wrote this call as text; it runs as any call would)", "There are three files"},
			hides: []string{"```"}, check: ranAsCall},
		{name: "call-hermes", cases: []string{"llama.cpp/tool-call-hermes-text", "ollama/text-plain"}, steps: hi(files),
			shows: []string{"● ls -la", "(the model wrote this call as text", "There are three files"},
			hides: []string{"<tool_call>"}, check: ranAsCall},
		{name: "call-qwen3-coder", cases: []string{"llama.cpp/tool-call-qwen3-coder-text", "ollama/text-plain"}, steps: hi(files),
			shows: []string{"● ls -la", "(the model wrote this call as text", "There are three files"},
			hides: []string{"<tool_call>", "<function="}, check: ranAsCall},
		{name: "call-after-think", cases: []string{"lmstudio/tool-call-hermes-after-think", "ollama/text-plain"}, steps: hi(files),
			shows: []string{"· thinking …", "● ls -la", "(the model wrote this call as text", "There are three files"},
			hides: []string{"<tool_call>", "user wants"}, check: ranAsCall},
		{name: "call-in-prose", cases: []string{"ollama/tool-call-as-bare-json"}, steps: hi(`"ls -la"}}`),
			shows: []string{"I'll list the files for you.", `{"name": "run_command", "parameters": {"command": "ls -la"}}`},
			hides: []string{"● ls", "wrote this call as text"},
			check: func(t *testing.T, srv *modeltest.ReplayServer) {
				if n := len(chatRequests(srv)); n != 1 {
					t.Errorf("the server was asked %d times: a call mentioned in prose ran", n)
				}
			}},
		// 5. The output limit is said.
		{name: "length", cases: []string{"ollama/length"}, steps: hi("· or ask for less at a time"),
			shows: []string{"Here is the plan: first I will read main.go and then update the",
				"· the model hit its output limit in the middle of its answer", "· raise the server's output limit", "· or ask for less at a time"}},
		{name: "length-llama.cpp", cases: []string{"llama.cpp/length"}, steps: hi("· or ask for less at a time"),
			shows: []string{"· the model hit its output limit in the middle of its answer", "--n-predict"}},
		// 6. Loops are stopped and said; a looping answer is not sent back.
		{name: "repeating-line", cases: []string{"ollama/repeating-line", "ollama/text-plain"}, steps: twice("loops less", files),
			shows: []string{`· the model repeated the line "- main.go" 16 times in a row in its answer; wisp stopped it`,
				"· ask again in other words", "There are three files"},
			check: func(t *testing.T, srv *modeltest.ReplayServer) {
				msgs, _ := sentMessages(t, srv, -1)
				for _, m := range msgs {
					if strings.Contains(m.Content, "- main.go\n- main.go") {
						t.Errorf("the loop was sent back to the model: %q", m.Content)
					}
				}
			}},
		{name: "repeated-call", cases: []string{"ollama/repeated-tool-call"}, steps: hi("loops less"),
			shows: []string{"● ls", `· the model asked for the same call (run_command "ls") 3 times in a row, with the same arguments; wisp stopped it`},
			tui:   []string{"not run: you asked for this same call 3 times in a row"},
			check: func(t *testing.T, srv *modeltest.ReplayServer) {
				if n := len(chatRequests(srv)); n != 3 {
					t.Errorf("the model was asked %d times, want 3: the loop was not stopped at the third call", n)
				}
			}},
		// 7. The server read less than was sent: said, and compacted.
		{name: "context-truncated", config: []string{"model.contextTokens", "16384"},
			cases: []string{"ollama/text-plain", "ollama/prompt-truncated-usage", "ollama/text-plain", "ollama/text-plain"},
			steps: []screenStep{{paste: longLog(), until: files}, {say: "and now?", until: "· the conversation was compacted"}, {say: "thanks", until: files}},
			shows: []string{"· the model server read only 4096 of about", "dropped the oldest part",
				"· wisp plans for the smaller context from now on and compacts the conversation",
				"· the conversation was compacted: the 2 oldest messages were summarised by the model into one note"},
			check: func(t *testing.T, srv *modeltest.ReplayServer) {
				msgs, _ := sentMessages(t, srv, -1)
				var sent strings.Builder
				for _, m := range msgs {
					sent.WriteString(m.Content + "\n")
				}
				if !strings.Contains(sent.String(), "[Summary of the earlier conversation") || strings.Contains(sent.String(), "build step 1:") {
					t.Errorf("after the compaction the model read:\n%.2000s", sent.String())
				}
			}},
		// 8. A model that loads: the wait says so, and Ctrl-C ends it.
		{name: "loading", cases: []string{"llama.cpp/loading-503-then-ok"},
			steps: []screenStep{{say: "hi", during: "loading the model · ", until: "Done."}}, shows: []string{"Done."}},
		{name: "loading-stopped", cases: []string{"llama.cpp/loading-503-long"},
			steps: []screenStep{{say: "hi", during: "loading the model · ", ctrlC: true, until: "· stopped"}}, shows: []string{"· stopped"},
			hides: []string{"Done."}},
	} {
		for _, kind := range []string{"chat", "tui"} {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				t.Parallel()
				e := newE2E(t)
				srv := e.replayCase(tc.cases...)
				for i := 0; i+1 < len(tc.config); i += 2 {
					e.wisp("config", "set", tc.config[i], tc.config[i+1])
				}
				f := e.openScreen(kind, srv)
				for _, s := range tc.steps {
					s.run(t, f)
				}
				want := append([]string(nil), tc.shows...)
				if kind == "chat" {
					want = append(want, tc.chat...)
				} else {
					want = append(want, tc.tui...)
				}
				lines := f.lines()
				for _, s := range want {
					if !onScreen(lines, s) {
						t.Errorf("the screen lacks %q", s)
					}
				}
				hide := tc.hides
				if kind == "tui" {
					hide = append(append([]string(nil), hide...), tc.tuiHides...)
				}
				for _, s := range hide {
					if onScreen(lines, s) {
						t.Errorf("the screen shows %q", s)
					}
				}
				if t.Failed() {
					t.Logf("the screen:\n%s", strings.Join(lines, "\n"))
				}
				if tc.check != nil {
					tc.check(t, srv)
				}
			})
		}
	}
}

// onScreen reports whether s shows, on a line or wrapped over several.
func onScreen(lines []string, s string) bool {
	spaced := strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
	return strings.Contains(strings.Join(lines, "\n"), s) || strings.Contains(strings.Join(lines, ""), s) ||
		strings.Contains(spaced, strings.Join(strings.Fields(s), " "))
}

// thinkingNotSentBack: the answer went back to the model in the history,
// its thinking did not.
func thinkingNotSentBack(t *testing.T, srv *modeltest.ReplayServer) {
	t.Helper()
	msgs, _ := sentMessages(t, srv, -1)
	answered := false
	for _, m := range msgs {
		if m.Role != model.RoleAssistant {
			continue
		}
		answered = answered || m.Content != ""
		if strings.Contains(m.Content, "user wants") || strings.Contains(m.Content, "think>") {
			t.Errorf("the thinking was sent back to the model: %q", m.Content)
		}
	}
	if !answered {
		t.Errorf("the answer was not sent back in the history: %+v", msgs)
	}
}

// ranAsCall: the model read the result of the call it wrote as text.
func ranAsCall(t *testing.T, srv *modeltest.ReplayServer) {
	t.Helper()
	msgs, _ := sentMessages(t, srv, -1)
	for _, m := range msgs {
		if m.Role == model.RoleTool && strings.Contains(m.Content, "total ") {
			return
		}
	}
	t.Errorf("the model was not given the output of ls -la: %+v", msgs)
}
