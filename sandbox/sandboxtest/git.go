package sandboxtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/gitguard"
)

// gitCase is one way a confined command could plant something that the
// person's git runs later, outside the sandbox (issue 11, items 5 to 7).
// The person sets the repository up; the command attacks; the person then
// runs the git command that would run what was planted: a program that
// leaves a mark.
type gitCase struct {
	name string
	// setup runs unconfined, as the person, in the project.
	setup string
	// attack runs confined in the project.
	attack string
	// target is what the attack writes, relative to the project: when the
	// backend says it keeps it unwritable, the attack must leave it as it
	// was; otherwise the put-back must name it (or what lies in it).
	target string
	// trigger runs unconfined, as the person, in the project.
	trigger string
	// overlapped starts another confined command while the attack's still
	// holds its snapshot, and puts it back after the attack's: the served
	// helper runs an MCP client's calls side by side (issue 26, item 2).
	overlapped bool
}

const (
	gitStatus  = "git status >/dev/null 2>&1"
	gitCommit  = "git commit -q --allow-empty -m next >/dev/null 2>&1"
	fsmonitor  = `printf '[core]\n\tfsmonitor = %s\n' "$PROGRAM"`
	hook       = `printf '#!/bin/sh\n"$PROGRAM"\n'`
	evilCommon = "mkdir -p .git/evil && " + fsmonitor + " > .git/evil/config && ln -s ../objects .git/evil/objects && " +
		"ln -s ../refs .git/evil/refs && cp .git/HEAD .git/evil/HEAD"
	withLib = `git init -q ../lib && git -C ../lib commit -q --allow-empty -m lib && git submodule -q add "$(cd ../lib && pwd)" lib && git commit -q -m lib`
	// inLib is a repository of the person's own in a subfolder, where no
	// mode binds anything: only the put-back holds there.
	inLib = "git init -q lib"
	// largeHook is a hook of the person's over 1 MiB (as a compiled one
	// is) whose second line names the program but does not run it (":"),
	// its times kept aside; runLargeHook turns ": " into "  " in place and
	// sets the times back, to the nanosecond: inode, size and times stay.
	largeHook = `{ printf '#!/bin/sh\n: %s\n' "$PROGRAM"; head -c 1200000 /dev/zero | tr '\0' '#'; echo; } > lib/.git/hooks/post-commit && ` +
		"chmod +x lib/.git/hooks/post-commit && touch -r lib/.git/hooks/post-commit .times"
	runLargeHook = "printf '  ' | dd of=lib/.git/hooks/post-commit bs=1 seek=10 conv=notrunc status=none && touch -r .times lib/.git/hooks/post-commit"
)

var gitCases = []gitCase{
	{name: "Commondir", attack: evilCommon + " && echo evil > .git/commondir", target: ".git/commondir", trigger: gitStatus},
	{name: "Config", attack: `git config core.fsmonitor "$PROGRAM"`, target: ".git/config", trigger: gitStatus},
	{name: "Hook", attack: hook + " > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit", target: ".git/hooks", trigger: gitCommit},
	{name: "WorktreeDotGitFile",
		setup:  "cd .. && rm -rf proj && git init -q main && git -C main commit -q --allow-empty -m first && git -C main worktree add -q ../proj",
		attack: `git init -q evilgit && git -C evilgit config core.fsmonitor "$PROGRAM" && echo "gitdir: $PWD/evilgit/.git" > .git`,
		target: ".git", trigger: gitStatus},
	{name: "DotGitLinkSwapped",
		setup:  "mv .git .gitstore && ln -s .gitstore .git",
		attack: `git init -q evil && git -C evil config core.fsmonitor "$PROGRAM" && ln -sfn evil/.git .git.new && perl -e 'rename(".git.new", ".git") or die "$!\n"'`,
		target: ".git", trigger: gitStatus},
	{name: "ConfigBehindADotGitLink",
		setup:  "mv .git .gitstore && ln -s .gitstore .git",
		attack: `git config core.fsmonitor "$PROGRAM"`, target: ".gitstore/config", trigger: gitStatus},
	{name: "IncludeTarget",
		setup:  `printf '[user]\n\tname = shared\n' > shared.gitconfig && git config include.path ../shared.gitconfig`,
		attack: fsmonitor + " >> shared.gitconfig", target: "shared.gitconfig", trigger: gitStatus},
	{name: "IncludeTargetNotYetThere",
		setup:  "git config includeIf.gitdir:/.path ../later.gitconfig",
		attack: fsmonitor + " > later.gitconfig", target: "later.gitconfig", trigger: gitStatus},
	{name: "GlobalRelativeHooksPath",
		setup:  "git config --global core.hooksPath .githooks",
		attack: "mkdir -p .githooks && " + hook + " > .githooks/pre-commit && chmod +x .githooks/pre-commit",
		target: ".githooks", trigger: gitCommit},
	{name: "ConfigWorktree",
		setup:  "git config extensions.worktreeConfig true",
		attack: fsmonitor + " > .git/config.worktree", target: ".git/config.worktree", trigger: gitStatus},
	{name: "SubmoduleConfig", setup: withLib,
		attack: fsmonitor + " >> .git/modules/lib/config", target: ".git/modules/lib/config", trigger: gitStatus},
	{name: "SubmoduleHook", setup: withLib,
		attack: hook + " > .git/modules/lib/hooks/pre-commit && chmod +x .git/modules/lib/hooks/pre-commit",
		target: ".git/modules/lib/hooks", trigger: "cd lib && " + gitCommit},
	{name: "WorktreeCommondir",
		setup:  "git worktree add -q ../wt",
		attack: evilCommon + " && echo ../../evil > .git/worktrees/wt/commondir",
		target: ".git/worktrees/wt/commondir", trigger: "cd ../wt && " + gitStatus},
	{name: "LargeHookRewrittenInPlace", setup: inLib + " && " + largeHook, attack: runLargeHook,
		target: "lib/.git/hooks", trigger: "cd lib && " + gitCommit},
	// Another command starts while this one runs and ends after it
	// (issue 26, item 2): it must not take the new repository's hook and
	// fsmonitor for the person's, and plant them again.
	{name: "RepositoryMadeInASubfolder",
		attack: `git init -q sub && git -C sub config core.fsmonitor "$PROGRAM" && ` + hook + " > sub/.git/hooks/pre-commit && chmod +x sub/.git/hooks/pre-commit",
		target: "sub/.git", trigger: "cd sub && " + gitStatus + "; " + gitCommit, overlapped: true},
}

// gitPutBack runs every case in a project of its own: the attack run
// unconfined makes the person's git run the planted program (the control,
// so the case cannot pass for the wrong reason); run confined, with the
// put-back the runner makes after the command, it does not. Where the
// backend keeps the target unwritable the attack must not have changed
// it; where it reports it unprotected, or it did not exist, the put-back
// must say what it put back. Then the git commands a model runs in a
// session must still work confined, and be left as they are.
func (s *suite) gitPutBack(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	for i, c := range gitCases {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			s.controlOnce("git/"+c.name, func() {
				control := s.newGitProject(t, fmt.Sprintf("git-%d-control", i), c)
				control.person(c.attack)
				control.try(c.trigger)
				if !control.ran() {
					t.Fatal("control: run unconfined, the attack did not make the person's git run the program, so the case proves nothing")
				}
			})
			p := s.newGitProject(t, fmt.Sprintf("git-%d", i), c)
			p.attackConfined(c)
			p.try(c.trigger)
			if p.ran() {
				t.Fatal("the person's git ran what the confined command planted")
			}
		})
	}
	t.Run("KeepsWhatWorks", s.gitKeepsWhatWorks)
}

// gitProject is one case's project, with the person's home (their global
// git config) and the planted program beside it, outside the root.
type gitProject struct {
	s                        *suite
	t                        *testing.T
	dir, proj, home, program string
	marker                   string
}

func (s *suite) newGitProject(t *testing.T, name string, c gitCase) *gitProject {
	dir := filepath.Join(filepath.Dir(s.proj), name)
	p := &gitProject{s: s, t: t, dir: dir, proj: filepath.Join(dir, "proj"), home: filepath.Join(dir, "home"),
		program: filepath.Join(dir, "program"), marker: filepath.Join(dir, "ran")}
	for _, d := range []string{p.proj, p.home} {
		mustMkdir(t, d)
	}
	if err := os.WriteFile(p.program, []byte("#!/bin/sh\necho ran >> "+shellQuote(p.marker)+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(p.home, ".gitconfig"), "[user]\n\tname = person\n\temail = person@example.com\n"+
		"[protocol \"file\"]\n\tallow = always\n[init]\n\tdefaultBranch = main\n[safe]\n\tdirectory = *\n")
	if s.o.Credential != nil {
		chownTree(t, dir, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	p.person("git init -q && git commit -q --allow-empty -m first")
	if c.setup != "" {
		p.person(c.setup)
	}
	return p
}

// env is the person's git environment, set in the line itself so that it
// holds confined and unconfined alike.
func (p *gitProject) env() string {
	return fmt.Sprintf("export HOME=%s XDG_CONFIG_HOME=%s GIT_CONFIG_NOSYSTEM=1 PROGRAM=%s; unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL; cd %s && ",
		shellQuote(p.home), shellQuote(filepath.Join(p.home, ".config")), shellQuote(p.program), shellQuote(p.proj))
}

// person runs line unconfined, as the person, and fails the case if it fails.
func (p *gitProject) person(line string) {
	p.t.Helper()
	if out, code := p.s.plain(p.env() + line); code != 0 {
		p.t.Fatalf("as the person, %q failed with status %d:\n%s", line, code, out)
	}
}

// try runs line as the person, whatever comes of it: a trigger's git may
// fail once the put-back has taken away what the attack pointed it to.
func (p *gitProject) try(line string) { p.s.plain(p.env() + line) }

func (p *gitProject) ran() bool {
	_, err := os.Stat(p.marker)
	os.Remove(p.marker)
	return err == nil
}

func (p *gitProject) spec() sandbox.Spec {
	p.t.Helper()
	spec, err := sandbox.NewSpec(sandbox.SpecOptions{
		LaunchDir: p.proj, WispHome: p.s.away, UserHome: p.home, AllowNetwork: true,
		Getenv: func(k string) string {
			if k == "XDG_CONFIG_HOME" {
				return filepath.Join(p.home, ".config")
			}
			return ""
		},
	})
	if err != nil {
		p.t.Fatalf("NewSpec: %v", err)
	}
	spec.Roots = spec.Roots[:1]
	return spec
}

// attackConfined runs the attack as the runner runs a command: snapshot,
// the command, then the put-back once it has ended. It checks that the
// outcome is the one the backend's report promises.
func (p *gitProject) attackConfined(c gitCase) {
	p.t.Helper()
	spec := p.spec()
	checked, err := p.s.b.Check(spec)
	if err != nil {
		p.t.Fatalf("Check: %v", err)
	}
	target := filepath.Join(p.proj, c.target)
	covered := slices.Contains(spec.Protected, target) && !unprotected(checked, target)
	before := treeState(target)
	snap := mustSnapshot(p.t, spec)
	out, code := p.s.confined(spec, p.env()+c.attack)
	p.t.Logf("confined attack: status %d\n%s", code, out)
	if covered {
		if code == 0 {
			p.t.Errorf("the backend keeps %s unwritable, yet the attack succeeded", c.target)
		}
		if after := treeState(target); after != before {
			p.t.Errorf("the backend keeps %s unwritable, yet the attack changed it:\nbefore %s\nafter  %s", c.target, before, after)
		}
	}
	var other *gitguard.Snapshot
	if c.overlapped { // another command starts while this one still runs
		other = mustSnapshot(p.t, spec)
		p.s.mustSucceed(spec, "true")
	}
	done := append(snap.PutBack(), other.PutBack()...)
	p.t.Logf("put back: %s", gitguard.PutBackLine(done, p.proj))
	for _, d := range done {
		if d.Err != nil {
			p.t.Errorf("could not put back %s: %v", d.Path, d.Err)
		}
	}
	if covered {
		return
	}
	if !slices.ContainsFunc(done, func(d gitguard.PutBack) bool { return d.Path == target || strings.HasPrefix(d.Path, target+"/") }) {
		p.t.Errorf("%s is not kept unwritable here (reported: %v), yet the put-back does not name it: %v",
			c.target, reason(checked, target), done)
	}
}

// mustSnapshot takes a hold on the baseline as the runner does before a
// confined command.
func mustSnapshot(t *testing.T, spec sandbox.Spec) *gitguard.Snapshot {
	t.Helper()
	snap, err := spec.SnapshotGit()
	if err != nil {
		t.Fatalf("SnapshotGit: %v", err)
	}
	return snap
}

func unprotected(spec sandbox.Spec, p string) bool { return reason(spec, p) != "" }

func reason(spec sandbox.Spec, p string) string {
	for _, u := range spec.Unprotected {
		if u.Path == p {
			return u.Why
		}
	}
	return ""
}

// treeState describes a file, link or folder and what a folder holds, to
// tell whether an attack changed it.
func treeState(p string) string {
	var b strings.Builder
	filepath.Walk(p, func(q string, info os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		fmt.Fprintf(&b, "%s %v %d;", strings.TrimPrefix(q, p), info.Mode(), info.Size())
		if info.Mode().IsRegular() {
			data, _ := os.ReadFile(q)
			fmt.Fprintf(&b, "%q;", data)
		}
		if info.Mode()&os.ModeSymlink != 0 {
			target, _ := os.Readlink(q)
			b.WriteString(target + ";")
		}
		return nil
	})
	return b.String()
}

// gitKeepsWhatWorks: commits, a new repository in a subfolder (with a
// submodule of its own), worktree add and remove, submodule update of a local
// repository the person added, and chmod +x inside the project work
// confined, and the put-back leaves them be. (What writes the launch
// repository's own .git/config, as submodule add and remote add do, is
// refused where the backend keeps it unwritable.)
func (s *suite) gitKeepsWhatWorks(t *testing.T) {
	s.t = t
	p := s.newGitProject(t, "git-works", gitCase{setup: withLib})
	spec := p.spec()
	snap := mustSnapshot(t, spec)
	line := strings.Join([]string{
		"git commit -q --allow-empty -m confined", "git init -q sub", "git -C sub commit -q --allow-empty -m sub",
		`git -C sub submodule -q add "$(cd ../lib && pwd)" lib`, "git -C sub commit -q -m lib",
		"git worktree add -q wt", "git worktree add -q wt2", "git worktree remove wt2", "git -C lib commit -q --allow-empty -m moved", "git submodule -q update",
		"echo x > tool.sh", "chmod +x tool.sh", "git add tool.sh", "git commit -q -m tool",
	}, " && ")
	if out, code := s.confined(spec, p.env()+line); code != 0 {
		t.Fatalf("confined, the git commands of a session failed with status %d:\n%s", code, out)
	}
	if done := snap.PutBack(); len(done) > 0 {
		t.Fatalf("the put-back changed what git itself wrote: %s", gitguard.PutBackLine(done, p.proj))
	}
	p.person("git -C wt status && git -C sub/lib status && git -C lib status && git log -1 --format=%s | grep -qx tool && test -x tool.sh")
}
