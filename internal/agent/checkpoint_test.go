package agent

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/agent/agenttest"
	"github.com/wisp-sh/wisp/internal/checkpoint"
	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
	"github.com/wisp-sh/wisp/internal/testenv"
)

// snapshot is a folder as a person would check it: every entry below it
// but .git, with its kind, permission bits and content or link target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.Name() == ".git" && path != dir {
			return filepath.SkipDir
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			out[rel] = "link -> " + target
		case d.IsDir():
			out[rel] = fmt.Sprintf("folder %o", info.Mode().Perm())
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = fmt.Sprintf("file %o %x", info.Mode().Perm(), sha256.Sum256(data))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffSnapshots(want, got map[string]string) string {
	var b strings.Builder
	for k, v := range want {
		if got[k] != v {
			fmt.Fprintf(&b, "  %s: %q, want %q\n", k, got[k], v)
		}
	}
	for k, v := range got {
		if _, ok := want[k]; !ok {
			fmt.Fprintf(&b, "  %s: %q, want none\n", k, v)
		}
	}
	return b.String()
}

// gitState is what a person checks of a repository: status, refs, the
// stash and the index's entries. (git status itself rewrites the index's
// stat cache when files have new times, as restored ones do: that the
// store never writes in .git is checked byte for byte by gitDir.)
func gitState(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	for _, args := range [][]string{{"status", "--porcelain=v2", "--branch"}, {"for-each-ref"}, {"stash", "list"},
		{"rev-parse", "HEAD"}, {"ls-files", "--stage"}} {
		b.WriteString(runGit(t, dir, args...))
	}
	return b.String()
}

// gitDir is the repository's own folder, every byte of it.
func gitDir(t *testing.T, dir string) map[string]string {
	s := snapshot(t, filepath.Join(dir, ".git"))
	if len(s) < 10 {
		t.Fatalf(".git holds %d entries", len(s))
	}
	return s
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "safe.directory=*"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", args, err, out)
	}
	return string(out)
}

// aProject is a repository as a person has it: text, a binary file, an
// executable, a link, an empty folder, a build folder, an ignored log,
// a commit and a stash.
func aProject(t *testing.T, dir string) {
	if _, err := exec.LookPath("git"); err != nil {
		testenv.NeedKernel(t, false, "no git")
	}
	files := map[string]string{
		"README.md": "# p\n\nhello\n", "src/main.go": "package main\n", "build/out/a.o": "\x00\x01object",
		"build/b.o": "\xff\xfe", "script.sh": "#!/bin/sh\necho hi\n", ".gitignore": "*.log\n", "keep.log": "ignored\n",
	}
	for rel, content := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := make([]byte, 4096)
	for i := range bin {
		bin[i] = byte(i * 7)
	}
	os.WriteFile(filepath.Join(dir, "logo.bin"), bin, 0o600)
	os.Chmod(filepath.Join(dir, "script.sh"), 0o755)
	os.Symlink("src/main.go", filepath.Join(dir, "link"))
	os.MkdirAll(filepath.Join(dir, "empty", "nested"), 0o755)
	runGit(t, dir, "init", "-q", "-b", "main")
	runGit(t, dir, "add", "-A")
	runGit(t, dir, "commit", "-q", "-m", "first")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("stashed\n"), 0o644)
	runGit(t, dir, "stash", "-q")
	runGit(t, dir, "add", "src/main.go") // something staged, so the index is not HEAD's
}

// theTurn edits, creates and deletes files, and rm -r's a folder.
const theTurn = `printf 'changed\n' >> README.md && printf 'new\n' > src/new.go && rm src/main.go && rm -r build && ` +
	`chmod 644 script.sh && printf 'other' > logo.bin && ln -sfn README.md link && rm -r empty && mkdir made && ` +
	`printf 'more\n' >> keep.log`

func checkpointsFor(t testing.TB, w *world) *Checkpoints {
	t.Helper()
	dir := w.tb.Runner.Dir
	s, err := checkpoint.Open(checkpoint.Dir(w.home.Dir, dir), checkpoint.Options{Skip: []string{w.home.Dir}, Watch: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &Checkpoints{Store: s, Roots: []string{dir}, Face: "test"}
}

func answering(a string, asked *[]string) undo.Ask {
	return func(q string, answers []string) (string, error) {
		*asked = append(*asked, q)
		return a, nil
	}
}

// TestTurnUndoneExactly runs a turn of the scripted model that edits,
// creates and deletes files, undoes it, redoes it, and undoes it again
// over an edit of the person's, which is kept and asked about.
func TestTurnUndoneExactly(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	dir := w.tb.Runner.Dir
	aProject(t, dir)
	w.tb.Runner.Audit = audit.New(w.home, "test", os.Getpid(), time.Now)
	srv := modeltest.NewServer(t,
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("c1", fmt.Sprintf(`{"command": %q}`, theTurn))}},
		modeltest.Turn{Text: []string{"Done."}},
		modeltest.Turn{Text: []string{"Noted."}})
	th, err := CreateThread(w.home.ThreadsDir(), time.Now, Record{Dir: dir, Face: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer th.Close()
	a := New(Options{Tools: w.tb, Face: w.face, Thread: th, Model: modelFor(t, srv), Checkpoints: checkpointsFor(t, w)})

	before, gitBefore := snapshot(t, dir), gitState(t, dir)
	if err := a.Send(context.Background(), "tidy up"); err != nil {
		t.Fatal(err)
	}
	after := snapshot(t, dir)
	if _, gone := after["build"]; gone || after["made"] == "" {
		t.Fatalf("the turn did not run: %s\n%s", w.face.said(), diffSnapshots(before, after))
	}

	var out bytes.Buffer
	var asked []string
	dotGit := gitDir(t, dir)
	if err := a.Undo(false, &out, answering("yes", &asked)); err != nil {
		t.Fatalf("undo: %v\n%s", err, out.String())
	}
	for _, s := range []string{"before tidy up", "+ src/new.go", "- src/main.go", "- build/", "~ README.md (+1 -0 lines",
		"~ logo.bin (binary", "~ script.sh (permissions", "~ link (symlink", "- empty/", "+ made/"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("the undo showed\n%s\nwithout %q", out.String(), s)
		}
	}
	if strings.Contains(out.String(), "keep.log") {
		t.Errorf("an ignored file is listed as undoable:\n%s", out.String())
	}
	if len(asked) != 1 || asked[0] != "Undo?" {
		t.Errorf("asked %q, want one Undo?", asked)
	}
	if d := diffSnapshots(dotGit, gitDir(t, dir)); d != "" {
		t.Errorf("the undo wrote in .git:\n%s", d)
	}
	got := snapshot(t, dir)
	wantUndone := copyMap(before)
	wantUndone["keep.log"] = after["keep.log"] // ignored: left as the turn made it
	if d := diffSnapshots(wantUndone, got); d != "" {
		t.Errorf("the undo did not bring the project back:\n%s", d)
	}
	if g := gitState(t, dir); g != gitBefore {
		t.Errorf("git's state changed:\n%s\nwant\n%s", g, gitBefore)
	}

	out.Reset()
	if err := a.Undo(true, &out, answering("yes", &asked)); err != nil {
		t.Fatalf("redo: %v\n%s", err, out.String())
	}
	if d := diffSnapshots(after, snapshot(t, dir)); d != "" {
		t.Errorf("the redo did not bring the turn back:\n%s", d)
	}

	// The person edits a file the turn made; the undo shows it and keeps it.
	mine := filepath.Join(dir, "src", "new.go")
	os.WriteFile(mine, []byte("new\nmy own line\n"), 0o644)
	out.Reset()
	asked = nil
	if err := a.Undo(false, &out, answering("keep", &asked)); err != nil {
		t.Fatalf("undo over an edit: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "changed since, by hand or by another program:\n  ! src/new.go") || len(asked) != 1 || !strings.Contains(asked[0], "keeping the 1 files changed since") {
		t.Errorf("the edit was not shown and asked about:\n%s\nasked %q", out.String(), asked)
	}
	if data, _ := os.ReadFile(mine); string(data) != "new\nmy own line\n" {
		t.Errorf("the person's edit was overwritten: %q", data)
	}
	got = snapshot(t, dir)
	delete(got, "src/new.go")
	if d := diffSnapshots(wantUndone, got); d != "" {
		t.Errorf("the undo over an edit did not bring the rest back:\n%s", d)
	}
	if g := strings.Replace(gitState(t, dir), "? src/new.go\n", "", 1); g != gitBefore {
		t.Errorf("git's state changed:\n%s\nwant\n%s", g, gitBefore)
	}

	var kinds []string
	for _, r := range w.records(t, th) {
		kinds = append(kinds, r.Kind)
	}
	if got := strings.Join(kinds, " "); got != "start user assistant tool assistant undo undo undo" {
		t.Errorf("thread records %s", got)
	}
	all, err := ListThreads(w.home.ThreadsDir())
	if err != nil || len(all) != 1 || all[0].Undos != 3 {
		t.Errorf("wisp threads lists %+v, %v; want one thread with 3 undos", all, err)
	}
	var restored []audit.Record
	audit.Read(w.home, audit.Filter{Event: audit.EventCheckpointRestored}, func(r audit.Record) error {
		restored = append(restored, r)
		return nil
	})
	if len(restored) != 3 || restored[1].Fields["redo"] != true {
		t.Errorf("checkpoint.restored: %d records, want 3 with the second a redo: %+v", len(restored), restored)
	}

	// The model hears of it before its next answer.
	if err := a.Send(context.Background(), "what now?"); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var heard bool
	for _, m := range last.Messages {
		heard = heard || strings.Contains(m.Content, "[The person undid your last turn's changes")
	}
	if !heard {
		t.Error("the model was not told of the undo")
	}
}

func TestTurnUndoneExactlyUnprivileged(t *testing.T) {
	r := testenv.NewRerun(t)
	r.Run(t, "^TestTurnUndoneExactly$", nil, "TestTurnUndoneExactly")
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// A checkpoint that cannot be taken is said before the turn; the turn
// runs only if the person agrees.
func TestNoCheckpointIsSaidBeforeTheTurn(t *testing.T) {
	for _, agree := range []bool{false, true} {
		w := newWorld(t, agenttest.SandboxOff)
		dir := w.tb.Runner.Dir
		os.WriteFile(filepath.Join(dir, "big"), bytes.Repeat([]byte("x"), 4096), 0o644)
		s, err := checkpoint.Open(t.TempDir(), checkpoint.Options{MaxRootBytes: 1024})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Hi."}})
		var asked int
		cps := &Checkpoints{Store: s, Roots: []string{dir}, Ask: func(context.Context) bool { asked++; return agree }}
		a := New(Options{Tools: w.tb, Face: w.face, Model: modelFor(t, srv), Checkpoints: cps})
		if err := a.Send(context.Background(), "hello"); err != nil {
			t.Fatal(err)
		}
		said := w.face.said()
		if !strings.Contains(said, "no checkpoint before this turn, so /undo cannot take it back") || !strings.Contains(said, "over the cap of 1.0 kB") || asked != 1 {
			t.Errorf("agree %v: said %q, asked %d", agree, said, asked)
		}
		if ran := len(srv.Requests()) == 1; ran != agree {
			t.Errorf("agree %v: the turn ran %v", agree, ran)
		}
	}
}

func modelFor(t *testing.T, srv *modeltest.Server) Streamer {
	t.Helper()
	c, err := model.New(agenttest.ConfigModel(srv), nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestThePromptSaysThePersonCanUndo(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	srv := modeltest.NewServer(t, modeltest.Turn{Text: []string{"Hi."}}, modeltest.Turn{Text: []string{"Hi."}})
	for _, on := range []bool{true, false} {
		o := Options{Tools: w.tb, Face: w.face, Model: modelFor(t, srv)}
		if on {
			o.Checkpoints = checkpointsFor(t, w)
		}
		if err := New(o).Send(context.Background(), "hello"); err != nil {
			t.Fatal(err)
		}
		reqs := srv.Requests()
		system := reqs[len(reqs)-1].Messages[0].Content
		if says := strings.Contains(system, UndoPromptText+"Limits:\n"); says != on {
			t.Errorf("checkpoints %v: the prompt says undo %v:\n%s", on, says, system)
		}
	}
}

func TestOpenCheckpointsFollowsTheSettings(t *testing.T) {
	home, dir := config.Home{Dir: t.TempDir()}, t.TempDir()
	off := config.Default().Checkpoints
	off.Enabled = false
	if c, err := OpenCheckpoints(off, home, []string{dir}); c != nil || err != nil {
		t.Errorf("off: %v, %v", c, err)
	}
	set := config.Default().Checkpoints
	set.MaxRootSize = 2048
	c, err := OpenCheckpoints(set, home, []string{dir, filepath.Join(dir, "missing")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Store.Close()
	if len(c.Roots) != 1 {
		t.Errorf("roots %q: a missing granted folder is kept", c.Roots)
	}
	os.WriteFile(filepath.Join(dir, "big"), bytes.Repeat([]byte("x"), 4096), 0o644)
	if _, err := c.Store.Take(c.Roots, "x"); err == nil || !strings.Contains(err.Error(), "over the cap of 2.0 kB") {
		t.Errorf("maxRootSize 2048 over 4 kB: %v", err)
	}
}

// A folder granted during a session (add_directory) is recorded from the
// next checkpoint on: a later turn's changes there are undone with the
// turn's, while the turn that granted it cannot be vouched for there.
func TestGrantedFolderIsACheckpointRootFromThenOn(t *testing.T) {
	w := newWorld(t, agenttest.SandboxOff)
	granted := t.TempDir()
	shared := filepath.Join(granted, "notes.txt")
	if err := os.WriteFile(shared, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := modeltest.NewServer(t,
		modeltest.Turn{Text: []string{"Granted."}},
		modeltest.Turn{ToolCalls: []modeltest.ToolCallScript{agenttest.RunCall("c1", fmt.Sprintf(`{"command": %q}`, "echo theirs > "+shared))}},
		modeltest.Turn{Text: []string{"Done."}})
	cps := checkpointsFor(t, w)
	a := New(Options{Tools: w.tb, Face: w.face, Model: modelFor(t, srv), Checkpoints: cps})
	if err := a.Send(context.Background(), "may I write there?"); err != nil {
		t.Fatal(err)
	}
	// The grant comes during the turn: its checkpoint before did not
	// record the folder, so nothing there is the turn's to undo.
	a.cp.before = mustList(t, cps)[0]
	cps.AddRoot(granted)
	if err := (turnUndo{a}).Covered(granted, "notes.txt"); err == nil || !strings.Contains(err.Error(), "outside the folders checkpoints record") {
		t.Errorf("a deletion in a folder granted during the turn is vouched for: %v", err)
	}
	a.cp.before = nil

	if err := a.Send(context.Background(), "write your notes"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(shared); string(data) != "theirs\n" {
		t.Fatalf("the turn did not write the granted folder: %q\n%s", data, w.face.said())
	}
	var out bytes.Buffer
	var asked []string
	if err := a.Undo(false, &out, answering("yes", &asked)); err != nil {
		t.Fatalf("undo: %v\n%s", err, out.String())
	}
	if data, _ := os.ReadFile(shared); string(data) != "mine\n" {
		t.Errorf("the undo left the granted folder's file as %q:\n%s", data, out.String())
	}
}

func mustList(t *testing.T, c *Checkpoints) []*checkpoint.Checkpoint {
	t.Helper()
	list, err := c.Store.List()
	if err != nil || len(list) == 0 {
		t.Fatalf("checkpoints: %v, %v", list, err)
	}
	return list
}
