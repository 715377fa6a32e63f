package gitguard_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/sandbox/gitguard"
)

// TestGitPutBackProperty: random sequences of confined commands, some
// running at once, each making random edits to every control file git
// reads here (content, size past 1 MiB too, mode, times set back, links,
// hard links, renames over, folders swapped, repositories made, the .git
// swapped);
// once the last command has ended and been put back, the person's own git
// (status, an alias of theirs, commit, checkout, in each repository) runs
// nothing a command planted. The same sequence replayed with no put-back
// is the control: some must make git run the program, or the edits
// prove nothing. Set WISP_GIT_PROPERTY_SEED to replay a run, and
// WISP_GIT_PROPERTY_RUNS for more sequences.
func TestGitPutBackProperty(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	seed, runs := time.Now().UnixNano(), 5
	if s, err := strconv.ParseInt(os.Getenv("WISP_GIT_PROPERTY_SEED"), 10, 64); err == nil {
		seed = s
	}
	if n, err := strconv.Atoi(os.Getenv("WISP_GIT_PROPERTY_RUNS")); err == nil && n > 0 {
		runs = n
	}
	t.Logf("seed %d: WISP_GIT_PROPERTY_SEED=%d replays this run", seed, seed)
	f := newPropertyFixture(t)
	template := f.dir + ".template"
	if err := os.Rename(f.dir, template); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(template) })
	potent := 0
	for i := range runs {
		steps := randomCommands(rand.New(rand.NewPCG(uint64(seed), uint64(i))))
		if ran, _ := playCommands(t, f, template, steps, false); ran != "" {
			potent++
		}
		if ran, log := playCommands(t, f, template, steps, true); ran != "" {
			t.Fatalf("seed %d, sequence %d: after the put-back the person's git ran what a command planted:\n%s\nsequence:\n%s\nput back:\n%s",
				seed, i, ran, describeSteps(steps), log)
		}
	}
	// Most do (26 of 30 of one seed): some edits leave git unable to run
	// at all, as a config turned into a folder does.
	t.Logf("%d of %d sequences made the person's git run the program when nothing was put back", potent, runs)
	if potent == 0 {
		t.Fatalf("none of %d sequences made git run the program without the put-back: the edits prove nothing", runs)
	}
}

// A step starts a command, ends one, or makes an edit as the commands
// running would.
type step struct {
	op   stepOp
	end  int // which running command ends, by its place among them
	edit edit
}

type stepOp int

const (
	startCommand stepOp = iota
	endCommand
	editFile
)

type edit struct {
	how    editHow
	target string // relative to the project
	evil   int    // which evil content (evilFor)
	benign bool   // content of no consequence instead
}

type editHow int

const (
	writeOver  editHow = iota // truncate and write
	appendTo                  // add at the end
	inPlace                   // rewrite from the start, same size at least, times set back
	renameOver                // a file beside it renamed over it
	symlinkTo                 // replaced by a link to a file of the command's
	hardLinkTo                // replaced by a hard link to a file of the command's
	chmodX                    // made executable, or not
	removeIt                  // removed
	folderOver                // replaced by a folder
	resize                    // truncated longer or shorter, then written in place, times set back
	swapHooks                 // the hooks folder moved aside, a new one (or a link) in its place
	initRepo                  // a repository of the command's, with a hook and an fsmonitor
	swapDotGit                // .git moved aside, a .git file pointing to a repository of the command's
	growLarge                 // past 1 MiB: settings of no consequence, or a comment
	editHowCount
)

var (
	propertyConfigs = []string{".git/config", ".git/config.worktree", "shared.gitconfig", "later.gitconfig", "sub/.git/config"}
	propertyHooks   = []string{".git/hooks/pre-commit", ".git/hooks/post-commit", ".git/hooks/commit-msg", ".git/hooks/post-checkout",
		".git/hooks/pre-commit.sample", "sub/.git/hooks/post-commit"}
	propertyOthers = []string{".git/commondir", ".git/hooks", "sub/.git/hooks", "new", "m/repo"}
)

// randomCommands makes a sequence: up to 3 commands at once, 4 to 8
// commands in all, each edit made while at least one runs.
func randomCommands(r *rand.Rand) []step {
	var steps []step
	running, started, total := 0, 0, 4+r.IntN(5)
	for started < total || running > 0 {
		switch x := r.IntN(10); {
		case running == 0 || x == 0 && running < 3 && started < total:
			if started == total {
				continue
			}
			steps = append(steps, step{op: startCommand})
			running, started = running+1, started+1
		case x == 1 || started == total && x < 4:
			steps = append(steps, step{op: endCommand, end: r.IntN(running)})
			running--
		default:
			steps = append(steps, step{op: editFile, edit: randomEdit(r)})
		}
	}
	return steps
}

func randomEdit(r *rand.Rand) edit {
	e := edit{how: editHow(r.IntN(int(editHowCount))), evil: r.IntN(4), benign: r.IntN(5) == 0}
	targets := append(append(append([]string{}, propertyConfigs...), propertyHooks...), propertyOthers...)
	switch e.how {
	case swapHooks:
		e.target = []string{".git/hooks", "sub/.git/hooks"}[r.IntN(2)]
	case initRepo:
		e.target = []string{"new", "m/repo", "sub"}[r.IntN(3)]
	case swapDotGit:
		e.target = []string{".", "sub"}[r.IntN(2)]
	default:
		e.target = targets[r.IntN(len(targets))]
	}
	return e
}

func describeSteps(steps []step) string {
	var b strings.Builder
	for _, s := range steps {
		switch s.op {
		case startCommand:
			b.WriteString("start a command\n")
		case endCommand:
			fmt.Fprintf(&b, "end running command %d\n", s.end)
		default:
			fmt.Fprintf(&b, "  edit %s: how %d, evil %d, benign %v\n", s.edit.target, s.edit.how, s.edit.evil, s.edit.benign)
		}
	}
	return b.String()
}

// propertyFixture is the person's project: a repository whose config
// includes shared.gitconfig (there) and later.gitconfig (not yet), reads
// config.worktree, has an alias of the person's and a hook of theirs,
// one of them over 1 MiB; a repository of theirs in sub/; and, in m/,
// what the commands point git at.
func newPropertyFixture(t *testing.T) *gitFixture {
	f := newGitFixture(t)
	f.git(f.proj, "config", "core.repositoryformatversion", "1")
	f.git(f.proj, "config", "extensions.worktreeConfig", "true")
	f.git(f.proj, "config", "--add", "include.path", "../shared.gitconfig")
	f.git(f.proj, "config", "--add", "include.path", "../later.gitconfig")
	f.git(f.proj, "config", "alias.st", "status")
	writeFile(t, filepath.Join(f.proj, "shared.gitconfig"), "[user]\n\tname = shared\n", 0o644)
	writeFile(t, filepath.Join(f.proj, ".git/hooks/pre-commit"), "#!/bin/sh\nexit 0\n", 0o755)
	writeFile(t, filepath.Join(f.proj, ".git/hooks/post-checkout"),
		"#!/bin/sh\n: "+shellWords(f.program)+"\nexit 0\n#"+strings.Repeat("#", 1200000)+"\n", 0o755)
	f.git(f.proj, "init", "-q", "sub")
	writeFile(t, filepath.Join(f.proj, "m/evil.gitconfig"), evilConfig(f, 0), 0o644)
	for _, h := range []string{"pre-commit", "post-commit", "commit-msg", "post-checkout"} {
		writeFile(t, filepath.Join(f.proj, "m/hooks", h), evilHook(f), 0o755)
	}
	writeFile(t, filepath.Join(f.proj, "m/evil.hook"), evilHook(f), 0o755)
	f.mustSh(f.proj, "mkdir -p .git/evil && "+fsmonitorConfig+" > .git/evil/config && ln -s ../objects .git/evil/objects && "+
		"ln -s ../refs .git/evil/refs && cp .git/HEAD .git/evil/HEAD")
	return f
}

func evilHook(f *gitFixture) string { return "#!/bin/sh\n" + shellWords(f.program) + "\n" }

// evilConfig is a config that makes the person's git run the program: at
// git status, at their alias, at a commit, or through an include.
func evilConfig(f *gitFixture, which int) string {
	switch which {
	case 1:
		return "[alias]\n\tst = " + gitguard.QuoteGitValue("!"+f.program) + "\n"
	case 2:
		return "[core]\n\thooksPath = " + gitguard.QuoteGitValue(filepath.Join(f.proj, "m/hooks")) + "\n"
	case 3:
		return "[include]\n\tpath = " + gitguard.QuoteGitValue(filepath.Join(f.proj, "m/evil.gitconfig")) + "\n"
	}
	return "[core]\n\tfsmonitor = " + gitguard.QuoteGitValue(f.program) + "\n"
}

// content is what an edit writes at target, and its mode.
func (e edit) content(f *gitFixture) (string, os.FileMode) {
	switch {
	case e.benign:
		return "# of no consequence " + strconv.Itoa(e.evil) + "\n", 0o644
	case e.target == ".git/commondir":
		return "evil\n", 0o644
	case strings.HasSuffix(e.target, "config") || strings.HasSuffix(e.target, ".gitconfig"):
		return evilConfig(f, e.evil), 0o644
	}
	return evilHook(f), 0o755
}

// apply makes the edit; an edit that cannot be made here (its folder is
// gone) is skipped, as a command's would fail.
func (e edit) apply(f *gitFixture) {
	p := filepath.Join(f.proj, e.target)
	data, mode := e.content(f)
	material := filepath.Join(f.proj, "m/evil.hook")
	if mode != 0o755 {
		material = filepath.Join(f.proj, "m/evil.gitconfig")
	}
	switch e.how {
	case writeOver:
		os.WriteFile(p, []byte(data), mode)
		os.Chmod(p, mode)
	case appendTo:
		if h, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, mode); err == nil {
			h.WriteString("\n" + data)
			h.Close()
		}
	case inPlace:
		overwriteKeepingTimes(p, data, -1)
	case resize:
		overwriteKeepingTimes(p, data, int64(e.evil*37))
	case renameOver:
		tmp := p + ".new"
		if os.WriteFile(tmp, []byte(data), mode) == nil {
			os.Rename(tmp, p)
		}
	case symlinkTo:
		os.RemoveAll(p)
		os.Symlink(material, p)
	case hardLinkTo:
		os.RemoveAll(p)
		os.Link(material, p)
	case chmodX:
		os.Chmod(p, []os.FileMode{0o755, 0o644}[e.evil%2])
	case removeIt:
		os.RemoveAll(p)
	case folderOver:
		os.RemoveAll(p)
		os.Mkdir(p, 0o755)
	case swapHooks:
		os.Rename(p, p+fmt.Sprintf("-aside%d", e.evil))
		if e.evil%2 == 0 {
			os.Symlink(filepath.Join(f.proj, "m/hooks"), p)
		} else if os.Mkdir(p, 0o755) == nil {
			os.WriteFile(filepath.Join(p, "post-commit"), []byte(evilHook(f)), 0o755)
		}
	case growLarge:
		filler := "#" + strings.Repeat(" padding", 140000) + "\n"
		if mode != 0o755 {
			filler = "[remote \"x\"]\n" + strings.Repeat("\turl = a\n", 120000)
		}
		if h, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, mode); err == nil {
			h.WriteString("\n" + data + filler)
			h.Close()
		}
	case initRepo:
		f.sh(f.proj, "git init -q "+shellWords(e.target)+" && git -C "+shellWords(e.target)+" config core.fsmonitor \"$PROGRAM\" && "+
			`printf '#!/bin/sh\n"$PROGRAM"\n' > `+shellWords(e.target)+"/.git/hooks/post-commit && chmod +x "+shellWords(e.target)+"/.git/hooks/post-commit")
	case swapDotGit:
		f.sh(f.proj, "git init -q m/repo && git -C m/repo config core.fsmonitor \"$PROGRAM\" && mv "+shellWords(e.target+"/.git")+" "+
			shellWords(e.target+"/.git-aside")+" && echo \"gitdir: $PWD/m/repo/.git\" > "+shellWords(e.target+"/.git"))
	}
}

// overwriteKeepingTimes writes data over p from its start, in place, after
// truncating it to size (when size >= 0), and sets its times back.
func overwriteKeepingTimes(p, data string, size int64) {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() {
		return
	}
	h, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return
	}
	if size >= 0 {
		h.Truncate(size)
	}
	h.WriteAt([]byte(data+"#"), 0) // what was there goes on as a comment
	h.Close()
	os.Chtimes(p, info.ModTime(), info.ModTime())
}

// playCommands plays the steps in f's folder, a fresh copy of template,
// with the snapshots and put-backs the runner makes, or none, then runs
// the person's git; it returns what the planted program recorded, if it
// ran, and what the put-backs said.
func playCommands(t *testing.T, f *gitFixture, template string, steps []step, putBack bool) (ran, log string) {
	t.Helper()
	os.RemoveAll(f.dir)
	if out, err := exec.Command("cp", "-a", template, f.dir).CombinedOutput(); err != nil {
		t.Fatalf("copy the project: %v\n%s", err, out)
	}
	spec := f.spec()
	var running []*gitguard.Snapshot
	var said strings.Builder
	for _, s := range steps {
		switch {
		case !putBack && s.op != editFile:
		case s.op == startCommand:
			running = append(running, mustSnapshot(t, spec))
		case s.op == endCommand:
			done := running[s.end].PutBack()
			running = append(running[:s.end], running[s.end+1:]...)
			said.WriteString(gitguard.DescribePutBacks(done, f.proj) + "\n")
		default:
			s.edit.apply(f)
		}
	}
	f.ran() // a command's own git may have run it: that is the command's, confined
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", `for d in . sub new m/repo; do
		[ -e "$d/.git" ] && (cd "$d" && git status; git st; git commit -q --allow-empty -m person; git checkout -q -b person)
	done >/dev/null 2>&1 </dev/null`)
	cmd.Dir, cmd.Env = f.proj, f.env()
	cmd.Run()
	data, _ := os.ReadFile(f.marker)
	return string(data), said.String()
}
