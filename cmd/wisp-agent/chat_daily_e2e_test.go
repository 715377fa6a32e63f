package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// The tests of wisp chat as a daily tool (issue 17): what shows while
// the model is silent or its command runs, the Markdown, the project's
// instructions, threads, the bounded context and the model's checks.
// Each runs a real wisp chat on a pty, read back through the emulator.

func noLine(t *testing.T, lines []string, part string) {
	t.Helper()
	for _, l := range lines {
		if strings.Contains(l, part) {
			t.Errorf("the screen still holds %q:\n%s", part, strings.Join(lines, "\n"))
			return
		}
	}
}

// Until the first word, a spinner counts the seconds; when the words
// come it is gone and they take its place.
func TestChatSpinnerCountsUntilTheFirstWordThenGoes(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	gate := filepath.Join(e.outside, "answer")
	srv := modeltest.NewServer(t, modeltest.Turn{WaitFor: gate, Text: []string{"Here ", "it is."}})
	c := e.chatWith(srv, false)
	c.typeLine("hello")
	c.expect("waiting for the model · 1s")
	os.WriteFile(gate, nil, 0o644)
	c.expect("it is.")
	c.expect("› ")
	lines := c.shown()
	noLine(t, lines, "waiting for the model")
	if !hasLine(lines, "Here it is.") {
		t.Errorf("the words are not on a line of their own:\n%s", strings.Join(lines, "\n"))
	}
}

// A model's slow command shows its elapsed time and its last lines as it
// runs; when it ends they go, and the usual result stays.
func TestChatModelsSlowCommandShowsItsLiveLines(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	line := `for i in 1 2 3 4 5; do echo "li"ne$i; done; until test -e go; do sleep 0.05; done; echo "fini"shed`
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", jsonArgs(map[string]any{"command": line}))}},
		modeltest.Turn{Text: []string{"Done."}})
	c := e.chatWith(srv, false)
	c.typeLine("run it")
	c.expect("⋯ running · 1s")
	live := c.shown()
	if !hasLine(live, "  │ line5") || hasLine(live, "  │ line2") {
		t.Errorf("the live rows are not the last three lines:\n%s", strings.Join(live, "\n"))
	}
	os.WriteFile(filepath.Join(e.project, "go"), nil, 0o644)
	c.expect("Done.")
	c.expect("› ")
	lines := c.shown()
	noLine(t, lines, "⋯ running")
	for _, want := range []string{"  │ line1", "  │ finished", "Done."} {
		if !hasLine(lines, want) {
			t.Errorf("no line %q after the run:\n%s", want, strings.Join(lines, "\n"))
		}
	}
}

// The model's Markdown is rendered: heading and emphasis without their
// marks, a bullet, a link with its target, a code line as it is; its
// prose wraps at words. A cut output names its id, and /output ID shows
// it whole.
func TestChatRendersMarkdownAndShowsACutOutput(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	words := strings.Repeat("wisp renders prose ", 20)
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{"## Plan\n", "Run **this** and *that*:\n- see [docs](https://ex", "ample.com/d)\n",
			"```sh\nfor i in a b; do\n  echo \"$i\"\ndone\n```\n", words}},
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{runCall("call_1", `{"command":"seq 1 30"}`)}},
		modeltest.Turn{Text: []string{"Counted."}})
	c := e.chatWith(srv, false)
	c.typeLine("plan")
	c.expect("wisp renders prose")
	c.expect("› ")
	lines := c.shown()
	for _, want := range []string{"Plan", "Run this and that:", "• see docs (https://example.com/d)", "for i in a b; do", `  echo "$i"`} {
		if !hasLine(lines, want) {
			t.Errorf("no line %q:\n%s", want, strings.Join(lines, "\n"))
		}
	}
	noLine(t, lines, "```")
	noLine(t, lines, "**")
	for _, l := range lines {
		if strings.HasPrefix(l, "wisp renders") {
			if last := l[strings.LastIndexByte(l, ' ')+1:]; last != "wisp" && last != "renders" && last != "prose" {
				t.Errorf("a word was cut at the line's end: %q", l)
			}
		}
	}
	c.typeLine("count")
	c.expect("… 22 lines above; /output ")
	c.expect("Counted.")
	c.expect("› ")
	id := regexp.MustCompile(`/output (\S+) shows them all`).FindStringSubmatch(c.screenVT.Text())
	if id == nil {
		t.Fatalf("no output id on the screen:\n%s", c.screenVT.Text())
	}
	c.typeLine("/output " + id[1])
	c.expect("29\r\n30")
	c.expect("› ")
	if !hasLine(c.shown(), "1") || len(srv.Requests()) != 3 {
		t.Errorf("/output did not show the whole output, or went to the model:\n%s", c.screenVT.Text())
	}
}

// AGENTS.md at the repository's root and in the launch folder reach the
// model's first request, the nearest last, framed as the project's text;
// the chat says once that it read them.
func TestChatSendsAGENTSmdToTheModel(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	os.MkdirAll(filepath.Join(e.project, ".git"), 0o755)
	os.WriteFile(filepath.Join(e.project, "AGENTS.md"), []byte("Use make test.\nNever push.\n"), 0o644)
	sub := filepath.Join(e.project, "web")
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "AGENTS.md"), []byte("Format with prettier.\n"), 0o644)
	e.project = sub
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Noted."}}, modeltest.Turn{Text: []string{"Again."}})
	c := e.chatWith(srv, false)
	if n := strings.Count(c.screen(), "· read AGENTS.md (3 lines, from 2 folders)"); n != 1 {
		t.Errorf("the note shows %d times:\n%s", n, c.screen())
	}
	c.typeLine("hello")
	c.expect("Noted.")
	c.typeLine("again")
	c.expect("Again.")
	system := srv.Requests()[0].Messages[0]
	root, near := strings.Index(system.Content, "Use make test."), strings.Index(system.Content, "Format with prettier.")
	if system.Role != "system" || root < 0 || near < root ||
		!strings.Contains(system.Content, "cannot change the command lists, the sandbox, the approvals") {
		t.Errorf("the first request's system prompt:\n%s", system.Content)
	}
	if strings.Count(c.screen(), "read AGENTS.md") != 1 {
		t.Errorf("the note was said again:\n%s", c.screen())
	}
}

// A thread is written from its first message on; /threads and wisp
// threads list them; /new starts another; --resume takes the newest of
// this folder with a message; another folder's thread is refused unless
// --here.
func TestChatThreadsListedAndResumed(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	threads := filepath.Join(e.home, "threads")
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"One."}}, modeltest.Turn{Text: []string{"Two."}})
	c := e.chatWith(srv, false)
	c.key(0x04)
	c.exited()
	if files, _ := filepath.Glob(filepath.Join(threads, "*.jsonl")); len(files) != 0 {
		t.Fatalf("a chat without a message left threads: %v", files)
	}
	c = e.chatWith(srv, false)
	c.typeLine("first question")
	c.expect("One.")
	c.typeLine("/threads")
	c.expect("first question")
	c.typeLine("/new")
	c.expect("· a new conversation: thread ")
	c.typeLine("second one")
	c.expect("Two.")
	c.expect("› ")
	if msgs := srv.Requests()[1].Messages; len(msgs) != 2 || msgs[1].Content != "second one" {
		t.Errorf("after /new the model read %+v", msgs)
	}
	c.key(0x04)
	c.exited()
	list := strings.Split(strings.TrimSpace(e.wisp("threads")), "\n")
	if len(list) != 2 || !strings.Contains(list[0], "second one") || !strings.Contains(list[1], "first question") ||
		!strings.Contains(list[0], e.project) {
		t.Fatalf("wisp threads:\n%s", strings.Join(list, "\n"))
	}
	newest := strings.Fields(list[0])[0]
	c = e.chatWith(srv, false) // an empty chat in between changes nothing
	c.key(0x04)
	c.exited()

	srv.Append(modeltest.Turn{Text: []string{"Three."}})
	// The "› " chatWith waited for may be the resumed transcript's: the
	// header comes after it.
	c = e.chatWith(srv, false, "--resume")
	c.expectFromStart("resumed thread " + newest + " (2 messages)")
	c.expect("› ")
	c.typeLine("third")
	c.expect("Three.")
	c.key(0x04)
	c.exited()

	other := e.cmd("chat", "--resume", newest)
	other.Dir = e.outside
	other.Stdin = strings.NewReader("/quit\n")
	out, err := other.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "thread "+newest+" works in "+e.project+", not in this folder") ||
		!strings.Contains(string(out), "--here") {
		t.Errorf("resuming from another folder: %v\n%s", err, out)
	}
	here := e.cmd("chat", "--resume", newest, "--here")
	here.Dir = e.outside
	here.Stdin = strings.NewReader("/quit\n")
	if out, err := here.CombinedOutput(); err != nil || !strings.Contains(string(out), "resumed thread "+newest) {
		t.Errorf("--here: %v\n%s", err, out)
	}
}

// wisp doctor asks the model server: it answers and has the model, or it
// is down, or it lacks the model and says what it has (the ollama pull
// hint only on Ollama). None of these fails doctor: wisp's commands run
// A server that hangs does not hold up the prompt: it comes at once, and
// A missing model names what the server has, with the ollama pull hint
// only on Ollama; 429 is retried, each retry said, and the answer comes;
// Past model.contextTokens the oldest turn is summarised by the model
// into one note, said on the screen; the newest turn is sent whole, and
// the thread keeps every word.
func TestChatCompactsTheContextAndKeepsTheRecord(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	long := strings.Repeat("a long answer ", 650) + "END."
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{long}},
		modeltest.Turn{Text: []string{"They asked for a long answer and got one."}}, modeltest.Turn{Text: []string{"Short now."}})
	c := e.chatWith(srv, false)
	c.typeLine("first")
	c.expect("END.")
	c.expect("› ")
	c.typeLine("second")
	c.expect("· the conversation was compacted: the 2 oldest messages were summarised by the model into one note; the thread keeps everything")
	c.expect("Short now.")
	reqs := srv.Requests()
	if len(reqs) != 3 || len(reqs[1].Tools) != 0 || !strings.Contains(reqs[1].Messages[1].Content, "a long answer") {
		t.Fatalf("no summary request: %d requests", len(reqs))
	}
	sent := reqs[2].Messages
	if len(sent) != 2 || !strings.Contains(sent[1].Content, "They asked for a long answer") ||
		!strings.HasSuffix(sent[1].Content, "second") || strings.Contains(sent[1].Content, long) {
		t.Errorf("after compaction the model read %d messages: %.300q", len(sent), sent)
	}
	files, _ := filepath.Glob(filepath.Join(e.home, "threads", "*.jsonl"))
	if len(files) != 1 {
		t.Fatalf("threads %v", files)
	}
	data, _ := os.ReadFile(files[0])
	for _, want := range []string{`"text":"first"`, `"text":"second"`, long, `"kind":"compact"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the thread lacks %.60q", want)
		}
	}
}

// wisp respond --json writes chat --json's event lines for one prompt,
// wisp respond into a file or a pipe writes the Markdown the model sent:
// Ctrl-C while the spinner waits stops the request: the spinner goes and
// "· stopped" stands on a line of its own.
func TestChatCtrlCWhileWaitingLandsOnItsOwnLine(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Hang: true})
	c := e.chatWith(srv, false)
	c.typeLine("wait")
	c.expect("waiting for the model")
	c.interruptUntil("· stopped")
	c.expect("› ")
	lines := c.shown()
	noLine(t, lines, "waiting for the model")
	if !hasLine(lines, "· stopped") {
		t.Errorf("· stopped is not on a line of its own:\n%s", strings.Join(lines, "\n"))
	}
}
