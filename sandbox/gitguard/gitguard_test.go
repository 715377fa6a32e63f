package gitguard_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/gitguard"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// gitFixture is a real repository with a commit, a home for the person's
// git (its global config), a program that leaves a mark when git runs it,
// and the spec wisp would build for the repository as its launch folder.
type gitFixture struct {
	t                 *testing.T
	dir, proj, home   string
	wispHome, program string
	marker            string
}

func newGitFixture(t *testing.T) *gitFixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir, err := paths.Realpath(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &gitFixture{t: t, dir: dir, proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"),
		wispHome: filepath.Join(dir, "wisp-home"), program: filepath.Join(dir, "program"), marker: filepath.Join(dir, "ran")}
	for _, d := range []string{f.proj, f.home, f.wispHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, f.program, "#!/bin/sh\necho \"$0 $*\" >> "+shellWords(f.marker)+"\n", 0o755)
	writeFile(t, filepath.Join(f.home, ".gitconfig"), "[user]\n\tname = person\n\temail = person@example.com\n"+
		"[protocol \"file\"]\n\tallow = always\n[init]\n\tdefaultBranch = main\n", 0o644)
	f.git(f.proj, "init", "-q")
	f.git(f.proj, "commit", "-q", "--allow-empty", "-m", "first")
	return f
}

// mustSnapshot takes a hold on the baseline as the runner does before a
// confined command.
func mustSnapshot(t testing.TB, spec sandbox.Spec) *gitguard.Snapshot {
	t.Helper()
	snap, err := spec.SnapshotGit()
	if err != nil {
		t.Fatalf("SnapshotGit: %v", err)
	}
	return snap
}

var writeFile = gitguard.WriteFile // shared with the package's internal tests

// env is the person's git environment: their home, no system config.
func (f *gitFixture) env() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+f.home, "XDG_CONFIG_HOME="+filepath.Join(f.home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1", "PROGRAM="+f.program)
}

// git runs git as the person would, and fails the test if it fails.
func (f *gitFixture) git(dir string, args ...string) string {
	f.t.Helper()
	out, err := f.sh(dir, "git "+shellWords(args...))
	if err != nil {
		f.t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return out
}

// sh runs a shell line in dir, as an unconfined command would.
func (f *gitFixture) sh(dir, line string) (string, error) {
	cmd := exec.Command("/bin/sh", "-c", line)
	cmd.Dir, cmd.Env = dir, f.env()
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (f *gitFixture) mustSh(dir, line string) {
	f.t.Helper()
	if out, err := f.sh(dir, line); err != nil {
		f.t.Fatalf("%s: %v\n%s", line, err, out)
	}
}

func shellWords(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

func (f *gitFixture) spec() sandbox.Spec {
	f.t.Helper()
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: f.proj, WispHome: f.wispHome, UserHome: f.home,
		Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return filepath.Join(f.home, ".config")
			}
			return ""
		}})
	if err != nil {
		f.t.Fatal(err)
	}
	spec.Roots = spec.Roots[:1]
	return spec
}

// ran reports whether git ran the planted program, and forgets it.
func (f *gitFixture) ran() bool {
	_, err := os.Stat(f.marker)
	os.Remove(f.marker)
	return err == nil
}

// gitAttack is one way a command could plant code that the person's git
// runs later: setup as the person, the attack as the command, then the
// person's git command that would run it.
type gitAttack struct {
	name    string
	setup   func(f *gitFixture)
	attack  string // a shell line run in the project; $PROGRAM is the planted program
	trigger func(f *gitFixture)
}

func status(f *gitFixture) { f.sh(f.proj, "git status") }
func commit(f *gitFixture) { f.sh(f.proj, "git commit -q --allow-empty -m next") }

const fsmonitorConfig = `printf '[core]\n\tfsmonitor = %s\n' "$PROGRAM"`

var gitAttacks = []gitAttack{
	{name: "item 5 commondir",
		attack: "mkdir -p .git/evil && " + fsmonitorConfig + " > .git/evil/config && ln -s ../objects .git/evil/objects && " +
			"ln -s ../refs .git/evil/refs && cp .git/HEAD .git/evil/HEAD && echo evil > .git/commondir",
		trigger: status},
	{name: "config", attack: "git config core.fsmonitor \"$PROGRAM\"", trigger: status},
	{name: "hook", attack: `printf '#!/bin/sh\n"$PROGRAM"\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, trigger: commit},
	{name: "sample hook made a hook", attack: `cp .git/hooks/pre-commit.sample .git/hooks/pre-commit && printf '#!/bin/sh\n"$PROGRAM"\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit`, trigger: commit},
	{name: "hooks folder that is a link, written through",
		setup:   func(f *gitFixture) { f.mustSh(f.proj, "mv .git/hooks tools-hooks && ln -s ../tools-hooks .git/hooks") },
		attack:  `printf '#!/bin/sh\n"$PROGRAM"\n' > tools-hooks/pre-commit && chmod +x tools-hooks/pre-commit`,
		trigger: commit},
	{name: "hooks folder swapped for a link",
		attack:  `mkdir evil && printf '#!/bin/sh\n"$PROGRAM"\n' > evil/pre-commit && chmod +x evil/pre-commit && mv .git/hooks .git/hooks-aside && ln -s ../evil .git/hooks`,
		trigger: commit},
	{name: "item 6 the .git file of a linked worktree",
		setup: func(f *gitFixture) {
			os.RemoveAll(f.proj)
			f.mustSh(f.dir, "git init -q main && git -C main commit -q --allow-empty -m first && git -C main worktree add -q "+shellWords(f.proj))
		},
		attack:  "git init -q evilgit && git -C evilgit config core.fsmonitor \"$PROGRAM\" && echo \"gitdir: $PWD/evilgit/.git\" > .git",
		trigger: status},
	{name: "item 6 the .git link swapped",
		setup:   func(f *gitFixture) { f.mustSh(f.proj, "mv .git .gitstore && ln -s .gitstore .git") },
		attack:  "git init -q evil && git -C evil config core.fsmonitor \"$PROGRAM\" && ln -sfn evil/.git .git.new && mv -T .git.new .git",
		trigger: status},
	{name: "item 6 the config behind a .git link",
		setup:   func(f *gitFixture) { f.mustSh(f.proj, "mv .git .gitstore && ln -s .gitstore .git") },
		attack:  "git config core.fsmonitor \"$PROGRAM\"",
		trigger: status},
	{name: "item 7 an include.path target",
		setup: func(f *gitFixture) {
			writeFile(f.t, filepath.Join(f.proj, "shared.gitconfig"), "[user]\n\tname = shared\n", 0o644)
			f.git(f.proj, "config", "include.path", "../shared.gitconfig")
		},
		attack: fsmonitorConfig + " >> shared.gitconfig", trigger: status},
	{name: "include.path target that does not exist yet",
		setup:  func(f *gitFixture) { f.git(f.proj, "config", "include.path", "../later.gitconfig") },
		attack: fsmonitorConfig + " > later.gitconfig", trigger: status},
	{name: "includeIf target",
		setup:  func(f *gitFixture) { f.git(f.proj, "config", "includeIf.gitdir:/.path", "../cond.gitconfig") },
		attack: fsmonitorConfig + " > cond.gitconfig", trigger: status},
	{name: "item 7 a relative core.hooksPath from the global config",
		setup: func(f *gitFixture) {
			f.mustSh(f.proj, "git config --global core.hooksPath .githooks")
		},
		attack:  `mkdir -p .githooks && printf '#!/bin/sh\n"$PROGRAM"\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
		trigger: commit},
	{name: "relative core.hooksPath from a global config that is a link (dotfiles)",
		setup: func(f *gitFixture) {
			f.mustSh(f.home, "mkdir dotfiles && mv .gitconfig dotfiles/gitconfig && ln -s dotfiles/gitconfig .gitconfig && "+
				`printf '[core]\n\thooksPath = .githooks\n' >> dotfiles/gitconfig`)
		},
		attack:  `mkdir -p .githooks && printf '#!/bin/sh\n"$PROGRAM"\n' > .githooks/pre-commit && chmod +x .githooks/pre-commit`,
		trigger: commit},
	{name: "relative core.hooksPath from the XDG config",
		setup: func(f *gitFixture) {
			writeFile(f.t, filepath.Join(f.home, ".config/git/config"), "[core]\n\thooksPath = hooks-here\n", 0o644)
		},
		attack:  `mkdir -p hooks-here && printf '#!/bin/sh\n"$PROGRAM"\n' > hooks-here/pre-commit && chmod +x hooks-here/pre-commit`,
		trigger: commit},
	{name: "core.hooksPath that holds the worktree",
		setup: func(f *gitFixture) {
			f.mustSh(f.proj, "git init -q sub && git -C sub commit -q --allow-empty -m s && git config --global core.hooksPath ..")
		},
		attack:  `echo notes > notes.txt && printf '#!/bin/sh\n"$PROGRAM"\n' > pre-commit && chmod +x pre-commit`,
		trigger: func(f *gitFixture) { f.sh(filepath.Join(f.proj, "sub"), "git commit -q --allow-empty -m x") }},
	{name: "config.worktree",
		setup:   func(f *gitFixture) { f.git(f.proj, "config", "extensions.worktreeConfig", "true") },
		attack:  fsmonitorConfig + " > .git/config.worktree",
		trigger: status},
	{name: "a submodule config",
		setup:   addSubmodule,
		attack:  "git -C lib config core.fsmonitor \"$PROGRAM\"",
		trigger: status},
	{name: "a submodule hook",
		setup:   addSubmodule,
		attack:  `printf '#!/bin/sh\n"$PROGRAM"\n' > .git/modules/lib/hooks/pre-commit && chmod +x .git/modules/lib/hooks/pre-commit`,
		trigger: func(f *gitFixture) { f.sh(filepath.Join(f.proj, "lib"), "git commit -q --allow-empty -m next") }},
	{name: "a worktree commondir",
		setup: func(f *gitFixture) { f.git(f.proj, "worktree", "add", "-q", filepath.Join(f.dir, "wt")) },
		attack: "mkdir -p .git/evil && " + fsmonitorConfig + " > .git/evil/config && ln -s ../objects .git/evil/objects && " +
			"ln -s ../refs .git/evil/refs && cp .git/HEAD .git/evil/HEAD && echo ../../evil > .git/worktrees/wt/commondir",
		trigger: func(f *gitFixture) { f.sh(filepath.Join(f.dir, "wt"), "git status") }},
	{name: "repository made in a subfolder",
		attack: `git init -q sub && git -C sub config core.fsmonitor "$PROGRAM" && printf '#!/bin/sh\n"$PROGRAM"\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit`,
		trigger: func(f *gitFixture) {
			f.sh(filepath.Join(f.proj, "sub"), "git status; git commit -q --allow-empty -m x")
		}},
	{name: "repository made two folders down",
		attack: `mkdir -p a/b && git init -q a/b && printf '#!/bin/sh\n"$PROGRAM"\n' > a/b/.git/hooks/post-checkout && chmod +x a/b/.git/hooks/post-checkout`,
		trigger: func(f *gitFixture) {
			f.sh(filepath.Join(f.proj, "a/b"), "git commit -q --allow-empty -m x && git checkout -q -b other")
		}},
	{name: "submodule added by the command",
		setup: func(f *gitFixture) {
			f.mustSh(f.dir, "git init -q lib && git -C lib commit -q --allow-empty -m lib")
		},
		attack:  "git submodule -q add " + "\"$LIB\"" + " lib2 ; git -C lib2 config core.fsmonitor \"$PROGRAM\"",
		trigger: status},
}

func addSubmodule(f *gitFixture) {
	f.mustSh(f.dir, "git init -q lib && git -C lib commit -q --allow-empty -m lib")
	f.git(f.proj, "submodule", "-q", "add", filepath.Join(f.dir, "lib"), "lib")
	f.git(f.proj, "commit", "-q", "-m", "lib")
}

// TestGitPutBackUndoesEveryAttack: each attack, run unconfined with no
// put-back, makes the person's git run the planted program (the control);
// with the snapshot before it and the put-back after, git runs nothing,
// and the put-back says what it did.
func TestGitPutBackUndoesEveryAttack(t *testing.T) {
	for _, a := range gitAttacks {
		t.Run(a.name, func(t *testing.T) {
			control := a.run(t, false)
			if !control.ran() {
				t.Fatalf("control: without the put-back git did not run the planted program, so the case proves nothing")
			}
			f := a.run(t, true)
			if f.ran() {
				t.Fatal("after the put-back, the person's git ran what the command planted")
			}
		})
	}
}

func (a gitAttack) run(t *testing.T, putBack bool) *gitFixture {
	t.Helper()
	f := newGitFixture(t)
	if a.setup != nil {
		a.setup(f)
	}
	var snap *gitguard.Snapshot
	if putBack {
		snap = mustSnapshot(t, f.spec())
	}
	out, err := f.sh(f.proj, "LIB="+shellWords(filepath.Join(f.dir, "lib"))+"; "+a.attack)
	if err != nil {
		t.Fatalf("the attack failed: %v\n%s", err, out)
	}
	f.ran() // the attack's own git may have run it: that is the command's, confined
	if putBack {
		done := snap.PutBack()
		t.Logf("put back: %s", gitguard.DescribePutBacks(done, f.proj))
		if len(done) == 0 {
			t.Error("the put-back reports nothing")
		}
		for _, d := range done {
			if d.Err != nil {
				t.Errorf("could not put back %s: %v", d.Path, d.Err)
			}
		}
	}
	a.trigger(f)
	return f
}

// TestGitPutBackKeepsWhatWorks: the git commands a model runs in a
// session (init, commit, worktree add, submodule add and update, clone,
// chmod +x in the project) are left as they are, and nothing is reported.
func TestGitPutBackKeepsWhatWorks(t *testing.T) {
	f := newGitFixture(t)
	f.mustSh(f.dir, "git init -q lib && git -C lib commit -q --allow-empty -m lib")
	snap := mustSnapshot(t, f.spec())
	f.mustSh(f.proj, strings.Join([]string{
		"git init -q sub", "git -C sub commit -q --allow-empty -m s",
		"mkdir -p a/b && git clone -q ../lib a/b/clone",
		"git worktree add -q wt", "git submodule -q add ../lib lib", "git submodule -q update --init",
		"echo x > tool.sh && chmod +x tool.sh", "git add tool.sh && git commit -q -m tool",
		"git worktree add -q ../wt2", "git worktree remove ../wt2",
		"git init -q", // again, in an existing repository
	}, " && "))
	if done := snap.PutBack(); len(done) > 0 {
		t.Fatalf("the put-back changed what git itself wrote: %s", gitguard.DescribePutBacks(done, f.proj))
	}
	f.git(filepath.Join(f.proj, "wt"), "status")
	f.git(filepath.Join(f.proj, "lib"), "status")
	f.git(filepath.Join(f.proj, "a/b/clone"), "log", "-1")
	f.git(f.proj, "commit", "-q", "--allow-empty", "-m", "after")
}

// TestGitPutBackKeepsTemplateHooks: a hook git init copies from the
// person's template into a repository the command made stays; one the
// command added beside it goes.
func TestGitPutBackKeepsTemplateHooks(t *testing.T) {
	f := newGitFixture(t)
	template := filepath.Join(f.dir, "template")
	writeFile(t, filepath.Join(template, "hooks/pre-push"), "#!/bin/sh\nexit 0\n", 0o755)
	f.git(f.proj, "config", "--global", "init.templateDir", template)
	snap := mustSnapshot(t, f.spec())
	f.mustSh(f.proj, `git init -q sub && printf '#!/bin/sh\n"$PROGRAM"\n' > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit`)
	done := snap.PutBack()
	if len(done) != 1 || done[0].Path != filepath.Join(f.proj, "sub/.git/hooks/pre-commit") {
		t.Fatalf("the put-back did %s, want only the planted pre-commit removed", gitguard.DescribePutBacks(done, f.proj))
	}
	if !paths.Exists(filepath.Join(f.proj, "sub/.git/hooks/pre-push")) {
		t.Fatal("the hook from the person's template was removed")
	}
}

// TestGitPutBackStaysInTheRoots: a hooks folder swapped for a link to a
// folder outside the roots, or to wisp's home, is put back without
// touching what the link led to.
func TestGitPutBackStaysInTheRoots(t *testing.T) {
	f := newGitFixture(t)
	outside := filepath.Join(f.dir, "outside")
	writeFile(t, filepath.Join(outside, "keep"), "keep\n", 0o644)
	writeFile(t, filepath.Join(f.wispHome, "config.json"), "{}\n", 0o644)
	snap := mustSnapshot(t, f.spec())
	f.mustSh(f.proj, "rm -rf .git/hooks && ln -s "+outside+" .git/hooks && ln -s "+f.wispHome+" .git/info && echo x > .git/commondir")
	done := snap.PutBack()
	t.Logf("put back: %s", gitguard.DescribePutBacks(done, f.proj))
	for _, p := range []string{filepath.Join(outside, "keep"), filepath.Join(f.wispHome, "config.json")} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("the put-back removed %s, which lies outside the roots or in wisp's home", p)
		}
	}
	if info, err := os.Lstat(filepath.Join(f.proj, ".git/hooks")); err != nil || !info.IsDir() {
		t.Errorf(".git/hooks is not a folder again: %v", err)
	}
	if paths.Exists(filepath.Join(f.proj, ".git/info")) && !gitguard.IsDir(filepath.Join(f.proj, ".git/info")) {
		t.Error(".git/info is still a link")
	}
	if paths.Exists(filepath.Join(f.proj, ".git/commondir")) {
		t.Error(".git/commondir is still there")
	}
}

// TestGitProtectedNamesEveryControlFile: what the mounts bind read-only
// for a repository with a submodule, an include, a .git link and a global
// relative core.hooksPath.
func TestGitProtectedNamesEveryControlFile(t *testing.T) {
	f := newGitFixture(t)
	addSubmodule(f)
	writeFile(t, filepath.Join(f.proj, "shared.gitconfig"), "[user]\n\tname = shared\n", 0o644)
	f.git(f.proj, "config", "include.path", "../shared.gitconfig")
	f.git(f.proj, "config", "extensions.worktreeConfig", "true")
	writeFile(t, filepath.Join(f.proj, ".git/config.worktree"), "", 0o644)
	writeFile(t, filepath.Join(f.proj, ".git/info/attributes"), "", 0o644)
	f.mustSh(f.proj, "git config --global core.hooksPath .githooks")
	got := f.spec().Protected
	for _, want := range []string{".git/hooks", ".git/config", ".git/config.worktree", ".git/info/attributes",
		"shared.gitconfig", ".githooks", ".git/modules/lib/hooks"} {
		if !slices.Contains(got, filepath.Join(f.proj, want)) {
			t.Errorf("Protected lacks %s: %v", want, got)
		}
	}
	f.mustSh(f.proj, "mv .git .gitstore && ln -s .gitstore .git")
	got = f.spec().Protected
	if !slices.Contains(got, filepath.Join(f.proj, ".git")) || !slices.Contains(got, filepath.Join(f.proj, ".gitstore/hooks")) {
		t.Errorf("with .git a link, Protected = %v", got)
	}
	if slices.Contains(got, filepath.Join(f.proj, ".gitstore")) {
		t.Error("the git folder a .git link leads to is protected whole: commits would fail")
	}
}

// TestGitProtectedFollowsALinkedGlobalConfig: a ~/.gitconfig that is a
// link into the person's dotfiles is read as git reads it, through the
// link: the hooks folder it names in the project is kept unwritable.
func TestGitProtectedFollowsALinkedGlobalConfig(t *testing.T) {
	f := newGitFixture(t)
	f.mustSh(f.home, "mkdir dotfiles && mv .gitconfig dotfiles/gitconfig && ln -s dotfiles/gitconfig .gitconfig && "+
		`printf '[core]\n\thooksPath = .githooks\n' >> dotfiles/gitconfig`)
	if got := f.spec().Protected; !slices.Contains(got, filepath.Join(f.proj, ".githooks")) {
		t.Errorf("Protected lacks .githooks, which the linked ~/.gitconfig names: %v", got)
	}
}

// TestGitPutBackSeesASameSizeRewrite: a hook of the person's rewritten in
// place, same size, its time set back, is still put back, though the
// snapshot took its bytes from the cache of the one before.
func TestGitPutBackSeesASameSizeRewrite(t *testing.T) {
	f := newGitFixture(t)
	hook := filepath.Join(f.proj, ".git/hooks/pre-commit")
	f.mustSh(f.proj, `printf '#!/bin/sh\n: "$PROGRAM"\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && touch -r .git/HEAD ref`)
	spec := f.spec()
	if done := mustSnapshot(t, spec).PutBack(); len(done) > 0 {
		t.Fatalf("nothing changed, yet the put-back did %v", done)
	}
	snap := mustSnapshot(t, spec)
	f.mustSh(f.proj, `printf '#!/bin/sh\n  "$PROGRAM"\n' | dd of=.git/hooks/pre-commit conv=notrunc status=none && touch -r ref .git/hooks/pre-commit`)
	done := snap.PutBack()
	if len(done) != 1 || done[0].Path != hook || done[0].Action != "restored" {
		t.Fatalf("the put-back did %v, want the hook restored", done)
	}
	commit(f)
	if f.ran() {
		t.Fatal("the person's commit ran the hook the command rewrote")
	}
}

// BenchmarkGitSnapshotPutBack is what the runner adds to each confined
// command that leaves git alone: a repository with no folders, and one
// with 30 folders of 10 each (the walk two levels down).
func BenchmarkGitSnapshotPutBack(b *testing.B) {
	for _, n := range []int{0, 30} {
		b.Run(fmt.Sprintf("folders=%d", n*11), func(b *testing.B) { benchmarkGitGuard(b, n) })
	}
}

func benchmarkGitGuard(b *testing.B, n int) {
	dir := b.TempDir()
	proj := filepath.Join(dir, "proj")
	for i := 0; i < n; i++ {
		for j := 0; j < 10; j++ {
			if err := os.MkdirAll(filepath.Join(proj, fmt.Sprintf("d%d/e%d", i, j)), 0o755); err != nil {
				b.Fatal(err)
			}
		}
	}
	if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{LaunchDir: proj, WispHome: filepath.Join(dir, "home"), UserHome: dir,
		Getenv: func(string) string { return "" }})
	if err != nil {
		b.Fatal(err)
	}
	spec.Roots = spec.Roots[:1]
	for b.Loop() {
		if done := mustSnapshot(b, spec).PutBack(); len(done) > 0 {
			b.Fatalf("put back %v", done)
		}
	}
}

func TestPutBackWording(t *testing.T) {
	items := []gitguard.PutBack{
		{Path: "/p/.git/commondir", Action: "removed"},
		{Path: "/p/.git/config", Action: "took core.fsmonitor out of"},
		{Path: "/p/sub/.git/hooks", Action: "restored", Err: gitguard.ErrNotRegular},
	}
	if got, want := gitguard.PutBackLine(items, ""), "sandbox: put back what the command wrote where git would have run it at the person's next git command: "+
		"removed /p/.git/commondir; took core.fsmonitor out of /p/.git/config; "+
		"could not put back /p/sub/.git/hooks (not a regular file): check it before you run git there"; got != want {
		t.Errorf("gitguard.PutBackLine:\n got %q\nwant %q", got, want)
	}
	if got, want := gitguard.PutBackNote(items[:1], "/p"), "· the sandbox put back what the command wrote where your git would have run it: removed .git/commondir"; got != want {
		t.Errorf("gitguard.PutBackNote:\n got %q\nwant %q", got, want)
	}
	if gitguard.PutBackLine(nil, "/p") != "" || gitguard.PutBackNote(nil, "/p") != "" {
		t.Error("nothing put back, yet a line")
	}
}

// rewriteConfigTail overwrites the end of a config file in place with a
// core.fsmonitor of the command's, padded to the same size from a line's
// start, and sets its times back as they were to the nanosecond (issue 26,
// item 1): the file's inode, size and mtime stay as they were.
const rewriteConfigTail = `touch -r lib/.git/config .times && perl -e '
	my ($f, $prog) = @ARGV;
	open(my $h, "+<", $f) or die "$f: $!\n";
	my $d = do { local $/; <$h> };
	my $p = "[core]\n\tfsmonitor = \"$prog\"\n";
	my $off = rindex($d, "\n", length($d) - length($p) - 3) + 1;
	seek($h, $off, 0) or die;
	print $h $p, "#" x (length($d) - $off - length($p) - 1), "\n";
	close $h or die;' lib/.git/config "$PROGRAM" && touch -r .times lib/.git/config`

// TestGitPutBackLargeConfigRewrittenInPlace is issue 26's item 1 as filed:
// one command grows a new repository's config until the put-back's own
// rewrite of it passes 1 MiB; a second rewrites its end in place, same
// size, times set back. The person's git status in it runs nothing.
func TestGitPutBackLargeConfigRewrittenInPlace(t *testing.T) {
	f := newGitFixture(t)
	spec := f.spec()
	config := filepath.Join(f.proj, "lib/.git/config")
	for i, line := range []string{
		`git init -q lib && printf '[remote "x"]\n' >> lib/.git/config && yes url=a | head -n 160000 >> lib/.git/config`,
		rewriteConfigTail,
	} {
		snap := mustSnapshot(t, spec)
		out, err := f.sh(f.proj, line)
		t.Logf("%s: %v\n%s", line, err, out)
		done := snap.PutBack()
		t.Logf("put back: %s", gitguard.DescribePutBacks(done, f.proj))
		if info, err := os.Stat(config); err == nil && info.Size() > gitguard.MaxControlFile {
			t.Errorf("after command %d the put-back left lib/.git/config at %d bytes, over what wisp reads", i+1, info.Size())
		}
	}
	f.sh(filepath.Join(f.proj, "lib"), "git status")
	if f.ran() {
		t.Fatal("the person's git status ran the fsmonitor a command wrote into a config over 1 MiB")
	}
}

// TestGitSnapshotRefusesAConfigTooLargeToFollow: a config of the person's
// over 1 MiB could name hooks and includes wisp would not see, so no
// snapshot is taken, and the error says which file and what to do.
func TestGitSnapshotRefusesAConfigTooLargeToFollow(t *testing.T) {
	f := newGitFixture(t)
	f.mustSh(f.proj, `git init -q lib && printf '[remote "x"]\n' >> lib/.git/config && yes url=a | head -n 200000 >> lib/.git/config`)
	snap, err := f.spec().SnapshotGit()
	var unchecked *gitguard.UncheckedError
	if !errors.As(err, &unchecked) || unchecked.Path != filepath.Join(f.proj, "lib/.git/config") {
		snap.PutBack()
		t.Fatalf("SnapshotGit: %v, want a gitguard.UncheckedError for lib/.git/config", err)
	}
	if want := "it is 1.2 MB, more than the 1 MiB wisp reads of one"; !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "make it smaller") {
		t.Errorf("the error reads %q, want it to say %q and what to do", err, want)
	}
	f.mustSh(f.proj, "rm lib/.git/config")
	mustSnapshot(t, f.spec()).PutBack()
}

// largeHook writes a hook of the person's over 1 MiB (a program with a
// long tail, as a compiled hook would be) whose second line names the
// program but does not run it (":"), and keeps its times aside in .times.
const largeHook = `{ printf '#!/bin/sh\n: %s\n' "$PROGRAM"; head -c 1200000 /dev/zero | tr '\0' '#'; echo; } > lib/.git/hooks/post-commit && ` +
	`chmod +x lib/.git/hooks/post-commit && touch -r lib/.git/hooks/post-commit .times`

// runLargeHook turns that ": " into "  ", in place, and sets the times back.
const runLargeHook = `printf '  ' | dd of=lib/.git/hooks/post-commit bs=1 seek=10 conv=notrunc status=none && touch -r .times lib/.git/hooks/post-commit`

// TestGitPutBackLargeHookRewrittenInPlace: a hook over 1 MiB that a
// command rewrites in place, same size, same inode, times set back, is
// never taken for the person's: it is removed, and the person is told why.
func TestGitPutBackLargeHookRewrittenInPlace(t *testing.T) {
	f := newGitFixture(t)
	f.mustSh(f.proj, "git init -q lib && git -C lib commit -q --allow-empty -m lib && "+largeHook)
	if done := mustSnapshot(t, f.spec()).PutBack(); len(done) > 0 {
		t.Fatalf("nothing changed, yet the put-back did %s", gitguard.DescribePutBacks(done, f.proj))
	}
	snap := mustSnapshot(t, f.spec())
	f.mustSh(f.proj, runLargeHook)
	done := snap.PutBack()
	hook := filepath.Join(f.proj, "lib/.git/hooks/post-commit")
	if len(done) != 1 || done[0].Path != hook || done[0].Action != "removed" || !strings.Contains(done[0].Why, "more than the 1 MiB wisp keeps a copy of") {
		t.Errorf("the put-back did %s, want the hook removed, saying why", gitguard.DescribePutBacks(done, f.proj))
	}
	f.sh(filepath.Join(f.proj, "lib"), "git commit -q --allow-empty -m next")
	if f.ran() {
		t.Fatal("the person's commit ran the hook over 1 MiB that a command rewrote in place")
	}
}

// TestGitPutBackOfTwoCommandsAtOnce is issue 26's item 2: command B
// plants a hook in a repository it made and is still running when command
// A starts; B ends, then A. A's put-back must not restore B's hook as if
// the person had left it.
func TestGitPutBackOfTwoCommandsAtOnce(t *testing.T) {
	f := newGitFixture(t)
	spec := f.spec()
	b := mustSnapshot(t, spec)
	f.mustSh(f.proj, plantLibHook)
	a := mustSnapshot(t, spec) // B still runs
	t.Logf("B put back: %s", gitguard.DescribePutBacks(b.PutBack(), f.proj))
	t.Logf("A put back: %s", gitguard.DescribePutBacks(a.PutBack(), f.proj))
	f.sh(filepath.Join(f.proj, "lib"), "git commit -q --allow-empty -m next")
	if f.ran() {
		t.Fatal("the person's commit ran the hook command B planted: A's put-back restored it")
	}
}

// baselineHelperEnv makes the test binary act as another wisp process
// holding a lease (TestGitBaselineHelperProcess).
const baselineHelperEnv = "WISP_TEST_GIT_BASELINE_HELPER"

// TestGitBaselineHelperProcess is the other wisp: it takes a snapshot for
// the fixture's project named in its environment, says so, and puts back
// when its standard input closes, printing what it did.
func TestGitBaselineHelperProcess(t *testing.T) {
	dir := os.Getenv(baselineHelperEnv)
	if dir == "" {
		t.Skip("the other wisp of TestGitBaselineSharedByTwoProcesses, run only by it")
	}
	f := &gitFixture{t: t, dir: dir, proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"), wispHome: filepath.Join(dir, "wisp-home")}
	snap := mustSnapshot(t, f.spec())
	fmt.Println("leased")
	io.Copy(io.Discard, os.Stdin)
	fmt.Println("put back:", gitguard.DescribePutBacks(snap.PutBack(), f.proj))
}

// otherWisp starts the helper process for f and waits for its lease.
func otherWisp(t *testing.T, f *gitFixture) (putBack func() string, kill func()) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestGitBaselineHelperProcess$", "-test.v")
	cmd.Env = append(os.Environ(), baselineHelperEnv+"="+f.dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	out := bufio.NewReader(stdout)
	var said strings.Builder
	for !strings.HasSuffix(said.String(), "leased\n") {
		line, err := out.ReadString('\n')
		said.WriteString(line)
		if err != nil {
			t.Fatalf("the other wisp ended before its lease:\n%s", said.String())
		}
	}
	putBack = func() string {
		stdin.Close()
		rest, _ := io.ReadAll(out)
		said.Write(rest)
		if err := cmd.Wait(); err != nil {
			t.Fatalf("the other wisp failed: %v\n%s", err, said.String())
		}
		return said.String()
	}
	kill = func() {
		cmd.Process.Kill()
		io.Copy(io.Discard, out)
		cmd.Wait()
	}
	return putBack, kill
}

// TestGitBaselineSharedByTwoProcesses is item 2 across wisp processes
// (wisp mcp and wisp chat in one project): B runs in another wisp and
// plants a hook; A starts in this one while B runs, and ends after it.
func TestGitBaselineSharedByTwoProcesses(t *testing.T) {
	f := newGitFixture(t)
	putBackB, _ := otherWisp(t, f)
	f.mustSh(f.proj, plantLibHook)
	a := mustSnapshot(t, f.spec())
	t.Logf("the other wisp: %s", putBackB())
	t.Logf("A put back: %s", gitguard.DescribePutBacks(a.PutBack(), f.proj))
	f.sh(filepath.Join(f.proj, "lib"), "git commit -q --allow-empty -m next")
	if f.ran() {
		t.Fatal("the person's commit ran the hook the other wisp's command planted: A's put-back restored it")
	}
	if entries, _ := os.ReadDir(filepath.Join(f.wispHome, "git-baseline")); len(entries) != 1 || !strings.HasSuffix(entries[0].Name(), ".lock") {
		t.Errorf("with no command running, wisp's home holds %v, want only the project's lock", entries)
	}
}

// TestGitBaselineOfAWispThatEnded: a wisp that ends, killed, while its
// command runs leaves its baseline; the next command, in another wisp,
// puts back to it before it starts, and says so after.
func TestGitBaselineOfAWispThatEnded(t *testing.T) {
	f := newGitFixture(t)
	_, kill := otherWisp(t, f)
	f.mustSh(f.proj, plantLibHook)
	kill()
	next := mustSnapshot(t, f.spec())
	if paths.Exists(filepath.Join(f.proj, "lib/.git/hooks/post-commit")) {
		t.Error("the next command starts with the hook of the command whose wisp ended still there")
	}
	done := next.PutBack()
	if want := filepath.Join(f.proj, "lib/.git/hooks/post-commit"); !slices.ContainsFunc(done, func(d gitguard.PutBack) bool { return d.Path == want }) {
		t.Errorf("the put-back after the next command does not say it removed the hook: %s", gitguard.DescribePutBacks(done, f.proj))
	}
	f.sh(filepath.Join(f.proj, "lib"), "git commit -q --allow-empty -m next")
	if f.ran() {
		t.Fatal("the person's commit ran the hook planted while the wisp that ended ran its command")
	}
}

// plantLibHook is a command's: a repository of its own, with a hook.
const plantLibHook = `git init -q lib && git -C lib commit -q --allow-empty -m lib && ` +
	`printf '#!/bin/sh\n"$PROGRAM"\n' > lib/.git/hooks/post-commit && chmod +x lib/.git/hooks/post-commit`

// TestGitBaselineOfCommandsThatEndedIsForgotten: once every command of
// every wisp has ended, what the person changes is theirs: the next
// command's baseline is taken afresh, in the wisp whose command ended
// first as in the other.
func TestGitBaselineOfCommandsThatEndedIsForgotten(t *testing.T) {
	f := newGitFixture(t)
	first := mustSnapshot(t, f.spec())
	putBackOther, _ := otherWisp(t, f) // joins first's baseline
	if done := first.PutBack(); len(done) > 0 {
		t.Fatalf("nothing changed, yet the put-back did %s", gitguard.DescribePutBacks(done, f.proj))
	}
	t.Logf("the other wisp: %s", putBackOther())
	writeFile(t, filepath.Join(f.proj, ".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", 0o755) // the person's
	done := mustSnapshot(t, f.spec()).PutBack()
	if len(done) > 0 || !paths.Exists(filepath.Join(f.proj, ".git/hooks/pre-commit")) {
		t.Fatalf("the next command put back what the person did once no command ran: %s", gitguard.DescribePutBacks(done, f.proj))
	}
}
