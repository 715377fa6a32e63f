package tools_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/testenv"
	"github.com/wisp-sh/wisp/internal/tools"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
)

type world struct {
	tb               *tools.Toolbox
	project, outside string
	repo, repoSub    string
	asked            []approval.Request
	answer           approval.Answer
}

// newWorld is a confined runner in a project, a git repository outside the
// roots with a subfolder, and a toolbox whose person answers w.answer.
func newWorld(t *testing.T, offerGrants bool) *world {
	t.Helper()
	userHome, _ := os.UserHomeDir()
	outside, err := os.MkdirTemp(userHome, "wisp-tools-outside-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outside) })
	w := &world{project: t.TempDir(), outside: outside, repo: filepath.Join(outside, "repo")}
	w.repoSub = filepath.Join(w.repo, "pkg", "sub")
	os.MkdirAll(filepath.Join(w.repo, ".git"), 0o755)
	os.MkdirAll(w.repoSub, 0o755)
	wispHome := filepath.Join(outside, "wisp-home")
	opts := sandbox.SpecOptions{LaunchDir: w.project, WispHome: wispHome, UserHome: userHome, AllowNetwork: true, Getenv: os.Getenv}
	spec, err := sandbox.NewSpec(opts)
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	backend, berr := sandbox.Detect(exe)
	testenv.NeedKernel(t, berr == nil, "no Landlock here")
	pol, _ := policy.New(nil, nil)
	home := config.Home{Dir: wispHome}
	r := &runner.Runner{Config: config.Default(), Home: home, Dir: w.project, Policy: pol, Spec: spec, Backend: backend,
		Store: &runner.Store{Dir: home.OutputsDir(), FileBytes: 1 << 20, MaxBytes: 1 << 24, Now: time.Now},
		Gate:  &approval.Gate{Threshold: "never", Held: approval.NewHeld(home), Approvers: []approval.Approver{approval.Auto{}}}}
	w.tb = &tools.Toolbox{Runner: r, Folders: tools.Folders{Project: w.project, UserHome: userHome, WispHome: wispHome},
		Spec: func(granted []string) (sandbox.Spec, error) {
			o := opts
			o.Granted = granted
			return sandbox.NewSpec(o)
		}}
	if offerGrants {
		w.tb.Ask = func(_ context.Context, req approval.Request) (approval.Answer, error) {
			w.asked = append(w.asked, req)
			return w.answer, nil
		}
	}
	return w
}

func (w *world) call(t *testing.T, name, args string) string {
	t.Helper()
	out, err := w.tb.Call(context.Background(), name, args)
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return out.Text
}

func TestDefinitionsOfferAddDirectoryOnlyWhereSomeoneCanBeAsked(t *testing.T) {
	with := (&tools.Toolbox{Ask: func(context.Context, approval.Request) (approval.Answer, error) { return approval.Answer{}, nil }}).Definitions()
	without := (&tools.Toolbox{}).Definitions()
	if len(with) != 3 || with[1].Name != "add_directory" || len(without) != 2 {
		t.Errorf("with %d tools, without %d", len(with), len(without))
	}
	desc := tools.RunCommand().Parameters["properties"].(map[string]any)["outsideSandbox"].(map[string]any)["description"].(string)
	if !strings.HasPrefix(desc, "Set true only for a command the sandbox refuses, such as brew upgrade or cargo install; the person must approve it.") ||
		!strings.Contains(desc, "add_directory once") {
		t.Errorf("outsideSandbox guidance: %q", desc)
	}
}

func TestMalformedArgumentsComeBackAsText(t *testing.T) {
	w := newWorld(t, false)
	for _, args := range []string{`{"command": `, `{"cmd": "ls"}`, `{}`} {
		if got := w.call(t, "run_command", args); !strings.HasPrefix(got, "error: the arguments of run_command are not valid") {
			t.Errorf("%s: %q", args, got)
		}
	}
	if got := w.call(t, "no_such_tool", "{}"); !strings.Contains(got, `there is no tool "no_such_tool"`) {
		t.Errorf("unknown tool: %q", got)
	}
}

func TestDenialIsToolOutput(t *testing.T) {
	w := newWorld(t, false)
	if got := w.call(t, "run_command", `{"command": "sudo rm -rf /"}`); !strings.HasPrefix(got, "error: command denied by policy: ") {
		t.Errorf("%q", got)
	}
}

func TestRefusalNudgesTowardAddDirectoryOncePerTurn(t *testing.T) {
	w := newWorld(t, true)
	w.tb.NewTurn()
	line := `{"command": "touch ` + filepath.Join(w.repoSub, "f") + `"}`
	first := w.call(t, "run_command", line)
	if !strings.Contains(first, "sandbox: refused writing to ") || !strings.Contains(first, "note: the work writes in "+w.repo+", outside the writable roots") {
		t.Fatalf("no nudge naming the repository root after a refusal:\n%s", first)
	}
	if second := w.call(t, "run_command", line); strings.Contains(second, "note: the work writes in") {
		t.Errorf("the folder was named twice in one turn:\n%s", second)
	}
	w.tb.NewTurn()
	if third := w.call(t, "run_command", line); !strings.Contains(third, "note: the work writes in") {
		t.Errorf("a new turn did not name it again:\n%s", third)
	}
}

func TestNoNudgeWithoutAddDirectoryOrForAPlainFailure(t *testing.T) {
	w := newWorld(t, false)
	if got := w.call(t, "run_command", `{"command": "touch `+filepath.Join(w.repoSub, "f")+`"}`); strings.Contains(got, "note:") {
		t.Errorf("nudged where add_directory is not offered:\n%s", got)
	}
	w = newWorld(t, true)
	if got := w.call(t, "run_command", `{"command": "grep -q nothing /etc/hosts"}`); strings.Contains(got, "note:") || strings.Contains(got, "sandbox:") {
		t.Errorf("a plain failure got a note:\n%s", got)
	}
}

func TestSecondOutsideRequestForOneFolderNudges(t *testing.T) {
	w := newWorld(t, true)
	w.tb.Runner.Gate = &approval.Gate{Threshold: "never", Held: approval.NewHeld(w.tb.Runner.Home)} // nobody: refused
	line := `{"command": "cd ` + w.repoSub + ` && make", "outsideSandbox": true}`
	if first := w.call(t, "run_command", line); strings.Contains(first, "note:") {
		t.Errorf("the first outside request was nudged:\n%s", first)
	}
	if second := w.call(t, "run_command", line); !strings.Contains(second, "note: the work writes in "+w.repo) {
		t.Errorf("the second outside request for one folder was not nudged:\n%s", second)
	}
}

func TestAddDirectoryGrantsTheRepositoryRoot(t *testing.T) {
	w := newWorld(t, true)
	w.answer = approval.Answer{Approve: true, Scope: approval.Once, By: "terminal"}
	got := w.call(t, "add_directory", `{"path": "`+w.repoSub+`", "reason": "the fix is there"}`)
	if got != "added "+w.repo+" to the writable roots for this session" {
		t.Fatalf("%q", got)
	}
	if len(w.asked) != 1 || w.asked[0].Line != "add_directory "+w.repo || w.asked[0].Grant != w.repo {
		t.Errorf("asked %+v", w.asked)
	}
	if out := w.call(t, "run_command", `{"command": "touch `+filepath.Join(w.repoSub, "now")+`"}`); !strings.Contains(out, "[exit status 0]") {
		t.Errorf("a write in the granted folder failed:\n%s", out)
	}
	// The granted repository's hooks stay protected: a planted hook would
	// run at the person's next commit.
	os.MkdirAll(filepath.Join(w.repo, ".git", "hooks"), 0o755)
	hook := filepath.Join(w.repo, ".git", "hooks", "pre-commit")
	w.call(t, "add_directory", `{"path": "`+w.repo+`", "reason": "again"}`)
	out := w.call(t, "run_command", `{"command": "touch `+hook+`"}`)
	if _, err := os.Stat(hook); err == nil {
		t.Errorf("a hook was planted in a granted repository:\n%s", out)
	}
}

func TestAddDirectoryRefusals(t *testing.T) {
	w := newWorld(t, true)
	userHome, _ := os.UserHomeDir()
	for _, path := range []string{"/", userHome, "/etc", "/usr/local/bin", filepath.Join(w.outside, "wisp-home", "..")} {
		got := w.call(t, "add_directory", `{"path": "`+path+`", "reason": "x"}`)
		if !strings.HasPrefix(got, "error: add_directory refuses this folder") {
			t.Errorf("%s: %q", path, got)
		}
	}
	if len(w.asked) != 0 {
		t.Errorf("the person was asked about a refused folder: %+v", w.asked)
	}
	w.answer = approval.Answer{Approve: false, By: "terminal"}
	if got := w.call(t, "add_directory", `{"path": "`+w.repo+`", "reason": "x"}`); !strings.Contains(got, "the person did not add") {
		t.Errorf("denied grant: %q", got)
	}
	w.tb.NewTurn()
	if got := w.call(t, "run_command", `{"command": "touch `+filepath.Join(w.repo, "f")+`"}`); strings.Contains(got, "note:") {
		t.Errorf("nudged toward a folder the person refused:\n%s", got)
	}
}

func TestInspect(t *testing.T) {
	w := newWorld(t, false)
	if got := w.call(t, "inspect", `{"what": "limits"}`); !strings.Contains(got, "may write only under: "+w.project) ||
		!strings.Contains(got, "outsideSandbox: asks the person") {
		t.Errorf("limits:\n%s", got)
	}
	w.tb.Runner.Config.CommandPolicy.Sandbox.AllowOutsideSandbox = false
	if got := w.call(t, "inspect", `{"what": "limits"}`); !strings.Contains(got, "outsideSandbox: turned off here") {
		t.Errorf("limits with the switch off:\n%s", got)
	}
	cfg := w.call(t, "inspect", `{"what": "config"}`)
	if len(cfg) > 4096 || !strings.Contains(cfg, "\n  ") {
		t.Errorf("config view: %d bytes, pretty=%v", len(cfg), strings.Contains(cfg, "\n  "))
	}
	big := config.Default()
	for i := range 140 {
		big.CommandPolicy.Deny = append(big.CommandPolicy.Deny, strings.Repeat("x", 19)+string(rune('a'+i%26)))
	}
	if v := tools.ConfigView(big); len(v) > 4096 || strings.Contains(v, "\n  ") {
		t.Errorf("a config over 4 KiB pretty should be compact and bounded: %d bytes", len(v))
	}
	run, _ := w.tb.Call(context.Background(), "run_command", `{"command": "seq 1 20000"}`)
	more := w.call(t, "inspect", `{"what": "output", "id": "`+run.Result.OutputID+`", "offset": 100}`)
	if !strings.Contains(more, "[bytes 100 to 4196 of output "+run.Result.OutputID) {
		t.Errorf("output view:\n%.300s", more)
	}
}
