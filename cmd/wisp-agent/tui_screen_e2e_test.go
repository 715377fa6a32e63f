package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/pending"

	"github.com/wisp-sh/wisp/internal/cli"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

const ctrlO = "\x0f"

// A model's command the default list refuses shows on its card, the
// rule named; the model is told, and nothing ran.
func TestTUIModelCommandRefusedAndNamed(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{"Starting another."}, ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "wisp tui"}))}},
		modeltest.Turn{Text: []string{"It was refused."}})
	c := e.tuiWith(srv, false)
	c.typeText("start another wisp", "› start another wisp")
	c.send("\r")
	c.waitFor("It was refused.")
	for _, want := range []string{"● wisp tui", "· blocked by policy:", "nested-wisp"} {
		if !c.shows(want) {
			t.Errorf("the screen lacks %q:\n%s", want, c.screen().Text())
		}
	}
	if got := toolResults(srv, 1); !strings.Contains(got, "nested-wisp") {
		t.Errorf("the model was not told the rule:\n%s", got)
	}
	c.send("\x04") // Ctrl-D in the empty box leaves
	c.exited()
}

// The model asks to run a command OUTSIDE the sandbox: the dialog says
// so; y Enter runs it, once; the next time n denies it.
func TestTUIOutsideRequestApprovedThenDenied(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	e.wisp("config", "set", "approval.outOfBand", "false")
	made, denied := filepath.Join(e.outside, "made"), filepath.Join(e.outside, "denied")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "touch " + made, "outsideSandbox": true}))}},
		modeltest.Turn{Text: []string{"Made it."}},
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_2", jsonArgs(map[string]any{"command": "touch " + denied, "outsideSandbox": true}))}},
		modeltest.Turn{Text: []string{"Not made."}})
	c := e.tuiWith(srv, true)
	c.typeText("make it", "› make it")
	c.send("\r")
	c.waitFor("⚠ approve OUTSIDE the sandbox")
	for _, want := range []string{"runs OUTSIDE the sandbox: it may write anywhere you can", "never remembered: this run only"} {
		c.waitFor(want)
	}
	c.waitFor("[y] once, then Enter")
	c.send("y")
	c.waitFor("y: Enter runs it")
	if _, err := os.Stat(made); err == nil {
		t.Fatal("y alone ran the command outside the sandbox")
	}
	c.send("\r")
	c.waitFor("Made it.")
	if _, err := os.Stat(made); err != nil {
		t.Fatalf("the approved run outside did not write: %v", err)
	}
	c.waitFor("you approved once, outside the sandbox")

	c.typeText("again", "› again")
	c.send("\r")
	c.waitFor("[y] once, then Enter")
	c.send("n")
	c.waitFor("Not made.")
	if _, err := os.Stat(denied); err == nil {
		t.Error("the denied command ran")
	}
	if !c.shows("you denied: touch " + denied) {
		t.Errorf("the denial is not on the screen:\n%s", c.screen().Text())
	}
}

// ! runs a command in the sandbox, which refuses a write outside; !!
// runs it outside, marked before it starts; each comes back to the
// screen as a card under its sent line.
func TestTUITypedCommandsInAndOutsideTheSandbox(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	target := filepath.Join(e.outside, "typed")
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Noted."}})
	c := e.tuiWith(srv, false)
	c.typeText("!", "\n!\n")
	c.typeText("touch "+target, "! touch /")
	c.send("\r")
	c.waitFor("the sandbox refused writing to " + target)
	if _, err := os.Stat(target); err == nil {
		t.Fatal("a write outside was made after a single !")
	}
	c.typeText("!!", "\n!!\n")
	c.typeText("touch "+target, "!! touch /")
	c.send("\r")
	c.waitFor("! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can")
	c.waitFor("exit 0")
	if _, err := os.Stat(target); err != nil {
		t.Fatalf("the write outside was not made after !!: %v", err)
	}
	c.typeText("what did I do?", "› what did I do?")
	c.send("\r")
	c.waitFor("Noted.")
	told := lastUser(srv, 0)
	for _, want := range []string{"themselves, in the sandbox,", "themselves, outside the sandbox,", "$ touch " + target} {
		if !strings.Contains(told, want) {
			t.Errorf("the model's notice lacks %q:\n%s", want, told)
		}
	}
}

// A request another wisp filed shows in the list with its digest, and
// is answered there: the other process runs its command.
func TestTUIAnswersAnotherProcessFromTheList(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	os.MkdirAll(filepath.Join(e.project, "build"), 0o755)
	srv := modeltest.NewServer(t)
	c := e.tuiWith(srv, false)
	wait := e.start("run", "--ask", "--", "rm -r build && echo removed")
	req := e.waitPending(1)[0]
	c.waitFor("1 waiting")
	c.send(ctrlO)
	c.waitFor("wisp: 1 request waits for an answer")
	c.waitFor("digest " + req.Digest)
	c.waitFor("[y] once")
	c.send("y")
	c.waitFor("· approved once: rm -r build && echo removed")
	out, code := wait()
	if code != 0 || !strings.Contains(out, "removed") {
		t.Fatalf("the other wisp: exit %d, output:\n%s", code, out)
	}
	c.waitFor("0 waiting")
	c.send("\x1b")
	c.waitGone("wisp: 1 request waits")
}

// The screen follows a resize: laid out again at the new size.
func TestTUIResize(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{strings.Repeat("wrapped words ", 30)}})
	c := e.tuiWith(srv, false)
	c.typeText("talk", "› talk")
	c.send("\r")
	c.waitFor("wrapped words")
	c.resize(120, 40)
	c.waitFor("sandbox: Landlock ABI")
	lines := c.screen().Lines()
	if len(lines) < 30 {
		t.Errorf("after the resize to 120x40 the screen has %d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if !strings.Contains(lines[len(lines)-1], "network on") {
		t.Errorf("the status line is not the last of the 40:\n%s", strings.Join(lines, "\n"))
	}
}

// A typed command that needs the terminal gets it: the full screen steps
// aside, the command reads the person's keys, and the screen comes back
// with the command's card.
func TestTUITypedCommandGetsTheTerminal(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	c := e.tuiWith(modeltest.NewServer(t), false)
	c.typeText("!", "\n!\n")
	c.typeText(`sh -c 'printf "name? "; read x; echo "got $x"'`, "! sh -c")
	c.send("\r")
	c.waitFor("\nname?")                // the prompt, at the start of a line of its own
	c.waitGone("sandbox: Landlock ABI") // the status line is gone: the command has the screen
	c.send("ana\r")
	c.waitFor("│ name? ana\n  │ got ana")
	c.waitFor("exit 0")
	c.waitFor("sandbox: Landlock ABI")
}

// With approval.outOfBand on, the question waits in the dialog and in
// the pending channel together: answered from another process first, the
// dialog goes and says who answered; the command runs once.
func TestTUIDialogAnsweredElsewhereFirst(t *testing.T) {
	needSandbox(t)
	e := newE2E(t) // approval.outOfBand is on
	target := filepath.Join(e.outside, "made")
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "touch " + target, "outsideSandbox": true}))}},
		modeltest.Turn{Text: []string{"Made it."}})
	c := e.tuiWith(srv, false)
	c.typeText("make the file", "› make the file")
	c.send("\r")
	c.waitFor("⚠ approve OUTSIDE the sandbox")
	req := e.waitPending(1)[0]
	if !req.OutsideSandbox || req.Command != "touch "+target || req.Face != pending.FaceTUI {
		t.Fatalf("filed %+v, want an outside request from the tui face", req)
	}
	c.waitFor("1 waiting")
	e.wisp("approvals", "approve", req.ID)
	c.waitFor("· answered elsewhere: approved once by wisp approvals")
	c.waitGone("⚠ approve OUTSIDE the sandbox")
	c.waitFor("Made it.")
	if _, err := os.Stat(target); err != nil {
		t.Errorf("the run approved elsewhere did not write: %v", err)
	}
	c.waitFor("0 waiting")
}

// Ctrl-C stops the model's command and its turn; the card says it was
// stopped, and the box takes a message again.
func TestTUICtrlCStopsTheModelsCommand(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{
			runCall("call_1", jsonArgs(map[string]any{"command": "echo started; sleep 60"}))}},
		modeltest.Turn{Text: []string{"Hello again."}})
	c := e.tuiWith(srv, false)
	c.typeText("wait a minute", "› wait a minute")
	c.send("\r")
	c.waitFor("│ started")
	c.send("\x03")
	c.waitFor("· stopped")
	c.waitFor("granite4.1:8b: ready")
	c.typeText("hello", "› hello")
	c.send("\r")
	c.waitFor("Hello again.")
}

// Without a terminal there is no full screen: wisp tui says what to use
// instead, and starts nothing.
func TestTUINeedsATerminal(t *testing.T) {
	e := newE2E(t)
	out, err := e.cmd("tui").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "wisp tui needs a terminal on stdin and stdout; from a pipe or a program, use wisp chat --json") {
		t.Errorf("wisp tui without a terminal: %v\n%s", err, out)
	}
}

// chat's / commands work here too: /approvals deny ID answers another
// wisp's request, /status says where commands run.
func TestTUIChatsSlashCommands(t *testing.T) {
	needSandbox(t)
	e := newE2E(t)
	c := e.tuiWith(modeltest.NewServer(t), false)
	wait := e.start("run", "--ask", "--", "rm -r build")
	req := e.waitPending(1)[0]
	c.typeText("/approvals deny "+req.ID, "› /approvals deny")
	c.send("\r")
	c.waitFor("· denied: rm -r build")
	if out, code := wait(); code != cli.ExitNotApproved {
		t.Errorf("the other wisp: exit %d\n%s", code, out)
	}
	c.typeText("/status", "› /status")
	c.send("\r")
	c.waitFor("folder:    " + e.project)
}
