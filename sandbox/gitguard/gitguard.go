package gitguard

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// gitState is the state, when no confined command ran, of every file and
// folder that git reads for configuration or hooks in the repositories
// under the writable roots, and of the places a new repository could
// appear. Its put-back, once every process of a command has ended, undoes
// what was written there since: the person's git never runs what a
// confined command wrote, whether the mounts could keep it unwritable (it
// existed, and a mount namespace could be had) or not (it did not exist
// yet, it is a link, or no namespace can be had here).
//
// What is put back: a control file that changed is restored as it was (or
// removed, when it is too large to keep a copy of); one that appeared
// where git would follow it (commondir, a .git pointer) is removed; a
// config file that appeared, or a new repository's config, keeps only
// settings git reads as data (gitConfigSafe); a hooks folder keeps what it
// held, or only git's *.sample files when it is new.
//
// Repositories are looked for at each root and, in the launch directory,
// up to two folders down (node_modules excepted): a repository made deeper
// during a command is not checked (docs/trust.md).
type gitState struct {
	roots   []string
	home    string // wisp's home: never touched
	env     Env
	watches map[string]*gitWatch
	known   map[string]bool // git folders that existed before
	// unchecked is a config file the snapshot had to follow but could
	// not: what it names would go unwatched (UncheckedError).
	unchecked error
}

// PutBack is one thing PutBack did, or could not do.
type PutBack struct {
	Path   string
	Action string // "removed", "restored", "put back", "took core.fsmonitor, alias.x out of"
	Why    string // what the person should know of it: why a file of theirs was removed, not restored
	Err    error  // when it could not be put back
}

type watchKind int

const (
	kindPointer   watchKind = iota // commondir, gitdir: removed when new, restored when changed
	kindConfig                     // restored when changed, only its safe settings kept when new
	kindHooks                      // a hooks folder: entries restored, new ones removed but *.sample
	kindInfo                       // .git/info: as hooks, but exclude and sparse-checkout may change
	kindHookNames                  // a core.hooksPath that holds the worktree (".", ".."): only hook names count
	kindDotGit                     // where a .git is or could be: a new one is a new repository
	kindGitDirs                    // modules/ or worktrees/: new git folders in it are checked
)

type gitWatch struct {
	path    string
	kind    watchKind
	top     string // the worktree top, for a relative core.hooksPath
	gitdir  string // the git folder it lies in, if any: gone, git reads none of it
	before  fileState
	entries map[string]fileState // a folder's entries (hooks, info)
	subdirs map[string]bool      // kindGitDirs: the git folders it held
}

// newGitState records the git control files under the scope's roots.
func newGitState(s Scope) (*gitState, error) {
	g := &gitState{roots: s.Roots, home: s.Home, env: s.Env,
		watches: map[string]*gitWatch{}, known: map[string]bool{}}
	tops, _ := g.tops()
	for _, top := range tops {
		g.watchTop(top)
	}
	return g, g.unchecked
}

// tops are the folders where a .git would make a repository wisp checks:
// each root, and the launch directory's folders two levels down, at most
// maxTops of them; complete says none was left out.
func (g *gitState) tops() (tops []string, complete bool) {
	seen := map[string]bool{}
	add := func(p string) bool {
		if !seen[p] {
			seen[p] = true
			tops = append(tops, p)
		}
		return len(tops) < maxTops
	}
	for _, r := range g.roots {
		add(r)
	}
	if len(g.roots) == 0 {
		return tops, true
	}
	complete = true
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || e.Name() == ".git" || e.Name() == "node_modules" {
				continue
			}
			p := filepath.Join(dir, e.Name())
			if !add(p) {
				complete = false
				return
			}
			if depth < 2 && complete {
				walk(p, depth+1)
			}
		}
	}
	walk(g.roots[0], 1)
	return tops, complete
}

// maxTops bounds the folders checked for a new repository, so that a
// command that makes a million folders cannot make wisp's put-back last.
const maxTops = 20000

func (g *gitState) watchTop(top string) {
	w := g.watch(filepath.Join(top, ".git"), kindDotGit, top)
	if w == nil || !w.before.exists {
		return
	}
	if gitdir, _ := resolveDotGit(top); gitdir != "" {
		g.watchGitDir(gitdir, top, 0)
	}
}

// watchGitDir records one git folder's control files, its common folder's,
// and those of the git folders of its submodules and worktrees.
func (g *gitState) watchGitDir(dir, top string, depth int) {
	if depth > maxGitDirDepth || g.known[dir] {
		return
	}
	g.known[dir] = true
	for _, f := range []struct {
		name string
		kind watchKind
	}{
		{"config", kindConfig}, {"config.worktree", kindConfig}, {"commondir", kindPointer}, {"gitdir", kindPointer},
		{"hooks", kindHooks}, {"info", kindInfo}, {"modules", kindGitDirs}, {"worktrees", kindGitDirs},
	} {
		if w := g.watch(filepath.Join(dir, f.name), f.kind, top); w != nil {
			w.gitdir = dir
		}
	}
	for _, c := range []string{"config", "config.worktree"} {
		g.watchConfig(filepath.Join(dir, c), top, 0)
	}
	if top != "" {
		for _, c := range g.env.configs {
			g.watchConfig(c, top, 0)
		}
	}
	if common := readGitPointer(filepath.Join(dir, "commondir"), dir); common != "" {
		g.watchGitDir(common, top, depth+1)
	}
	for _, m := range subGitDirs(filepath.Join(dir, "modules")) {
		g.watchGitDir(m, moduleTop(m, ""), depth+1)
	}
	for _, w := range subGitDirs(filepath.Join(dir, "worktrees")) {
		g.watchGitDir(w, "", depth+1)
	}
}

// watchConfig records what a config file names: its includes, as config
// files, and its core.hooksPath, as a hooks folder.
func (g *gitState) watchConfig(file, top string, depth int) {
	if depth > maxIncludeDepth {
		return
	}
	c := loadConfig(file)
	if c.tooLarge != nil && g.unchecked == nil {
		g.unchecked = c.tooLarge
	}
	if hooks := c.hooksPath(top, g.env.home); hooks != "" {
		g.watch(hooks, hooksKind(hooks, top), top)
	}
	for _, inc := range c.includes(g.env.home) {
		g.watch(inc, kindConfig, top)
		g.watchConfig(inc, top, depth+1)
	}
}

// watch records p's state, once, when a command could write it.
func (g *gitState) watch(p string, kind watchKind, top string) *gitWatch {
	p = filepath.Clean(p)
	if w, ok := g.watches[p]; ok {
		return w
	}
	if paths.OutermostRoot(p, g.roots) == "" && paths.OutermostRoot(paths.RealpathMissingOK(p), g.roots) == "" {
		return nil
	}
	w := &gitWatch{path: p, kind: kind, top: top, before: snapshotState(p)}
	g.watches[p] = w
	if w.before.mode&fs.ModeSymlink != 0 && kind != kindDotGit {
		// A hooks folder or config that is a link: what it leads to is
		// what git reads, and a command could write it there.
		if real, err := paths.Realpath(p); err == nil {
			g.watch(real, kind, top)
		}
	}
	switch kind {
	case kindHooks, kindInfo, kindHookNames:
		if w.before.mode.IsDir() {
			w.entries = dirStates(p, kind, snapshotState)
		}
	case kindGitDirs:
		w.subdirs = map[string]bool{}
		for _, d := range subGitDirs(p) {
			w.subdirs[d] = true
		}
	}
	return w
}

// dirStates reads a hooks or info folder's entries: what git could run or
// read there with state, the rest (allowedEntry: a sample hook, a project
// file in a worktree that is the hooks folder) by Lstat alone, since its
// bytes never matter.
func dirStates(dir string, kind watchKind, state func(string) fileState) map[string]fileState {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make(map[string]fileState, len(entries))
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		st := lstatState(p)
		if !allowedEntry(kind, e.Name(), st) {
			st = state(p)
		}
		out[e.Name()] = st
	}
	return out
}

// PutBack undoes what the command wrote to the recorded control files and
// checks every repository that appeared, and says what it did. It is sound
// only once every process of the command has ended: a process left behind
// could write again after it.
func (g *gitState) putBack() []PutBack {
	if g == nil {
		return nil
	}
	f := &fixer{g: g, sanitized: map[string]bool{}}
	paths := make([]string, 0, len(g.watches))
	for p := range g.watches {
		paths = append(paths, p)
	}
	// Outermost first: a .git put back before what lies under it.
	slices.SortFunc(paths, func(a, b string) int {
		if d := strings.Count(a, "/") - strings.Count(b, "/"); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	for _, p := range paths {
		f.check(g.watches[p])
	}
	tops, complete := g.tops()
	for _, top := range tops { // folders made during the command
		if _, ok := g.watches[filepath.Join(top, ".git")]; !ok {
			f.newDotGit(filepath.Join(top, ".git"), top)
		}
	}
	if !complete {
		f.done = append(f.done, PutBack{Path: g.roots[0], Err: fmt.Errorf(
			"it holds more than %d folders two levels down, so a repository made in the others was not checked", maxTops)})
	}
	return f.done
}

type fixer struct {
	g         *gitState
	sanitized map[string]bool
	done      []PutBack
}

func (f *fixer) check(w *gitWatch) {
	if w.gitdir != "" && !isDir(w.gitdir) {
		return // a worktree removed, a submodule's git folder deleted: nothing of it runs
	}
	now := stateLike(w.path, w.before)
	switch {
	case w.kind == kindDotGit && !w.before.exists:
		if now.exists {
			f.newDotGit(w.path, w.top)
		}
	case w.kind == kindDotGit && w.before.mode.IsDir():
		if now.exists && !now.mode.IsDir() {
			f.remove(w.path, "removed")
		}
	case w.kind == kindGitDirs:
		for _, d := range subGitDirs(w.path) {
			if !w.subdirs[d] {
				f.sanitizeGitDir(d, "", 0)
			}
		}
	case isFolderKind(w.kind) && w.before.mode.IsDir():
		f.checkFolder(w, now)
	case isFolderKind(w.kind) && !w.before.exists:
		if now.exists {
			f.cleanFolder(w.path, w.kind)
		}
	case w.kind == kindConfig && (!w.before.exists || w.before.mode.IsRegular() && w.before.body.how == kept):
		if !w.before.same(now) {
			f.sanitizeConfig(w.path, w.before)
		}
	case !w.before.same(now):
		f.restore(w.path, w.before)
	}
}

// newDotGit checks a repository that appeared at top: the git folder its
// .git leads to, when a command could have written it, and the person's
// own relative core.hooksPath there.
func (f *fixer) newDotGit(dotgit, top string) {
	if !paths.Exists(dotgit) {
		return
	}
	if gitdir, _ := resolveDotGit(top); gitdir != "" {
		f.sanitizeGitDir(gitdir, top, 0)
	}
	for _, c := range f.g.env.configs {
		if hooks := hooksPath(c, top, f.g.env.home); hooks != "" && f.writable(hooks) {
			f.cleanFolder(hooks, hooksKind(hooks, top))
		}
	}
}

// sanitizeGitDir checks a git folder that did not exist before the
// command: what git init, clone, worktree add or submodule add write there
// stays; hooks, settings that run programs, and what they point to go.
func (f *fixer) sanitizeGitDir(dir, top string, depth int) {
	if depth > maxGitDirDepth || f.g.known[dir] || f.sanitized[dir] || !f.writable(dir) {
		return
	}
	f.sanitized[dir] = true
	for _, c := range []string{"config", "config.worktree"} {
		f.sanitizeConfig(filepath.Join(dir, c), fileState{})
	}
	f.cleanNewHooks(filepath.Join(dir, "hooks"))
	f.cleanFolder(filepath.Join(dir, "info"), kindInfo)
	if common := readGitPointer(filepath.Join(dir, "commondir"), dir); common != "" {
		f.sanitizeGitDir(common, top, depth+1)
	}
	for _, sub := range []string{"modules", "worktrees"} {
		for _, d := range subGitDirs(filepath.Join(dir, sub)) {
			f.sanitizeGitDir(d, "", depth+1)
		}
	}
}

// checkFolder puts a hooks or info folder back as it was: entries that
// changed or went are restored, new ones removed (but git's samples in a
// hooks folder, and the pattern files of info/).
func (f *fixer) checkFolder(w *gitWatch, now fileState) {
	if !now.mode.IsDir() {
		f.restore(w.path, w.before)
		if !paths.Exists(w.path) {
			return
		}
		for name, st := range w.entries {
			if !allowedEntry(w.kind, name, st) {
				f.restore(filepath.Join(w.path, name), st)
			}
		}
		return
	}
	current := dirStates(w.path, w.kind, lstatState)
	for name, st := range current {
		before, had := w.entries[name]
		p := filepath.Join(w.path, name)
		switch {
		case allowedEntry(w.kind, name, st):
		case !had:
			f.remove(p, "removed")
		case !before.same(stateLike(p, before)):
			f.restore(p, before)
		}
	}
	for name, before := range w.entries {
		if _, ok := current[name]; !ok && !allowedEntry(w.kind, name, before) {
			f.restore(filepath.Join(w.path, name), before)
		}
	}
}

// cleanFolder removes from a hooks or info folder (or whatever stands in
// its place) that did not exist before everything git could run or read
// drivers from.
func (f *fixer) cleanFolder(p string, kind watchKind) {
	st := statFile(p)
	switch {
	case !st.exists:
		return
	case !st.mode.IsDir():
		f.remove(p, "removed")
		return
	}
	for name, e := range dirStates(p, kind, lstatState) {
		if !allowedEntry(kind, name, e) {
			f.remove(filepath.Join(p, name), "removed")
		}
	}
}

// cleanNewHooks is cleanFolder for the hooks of a repository the command
// made: a hook git init copied from the person's template (one the command
// could not write) stays, byte for byte and mode for mode.
func (f *fixer) cleanNewHooks(p string) {
	st := statFile(p)
	if !st.exists || !st.mode.IsDir() {
		f.cleanFolder(p, kindHooks)
		return
	}
	for name, e := range dirStates(p, kindHooks, statFile) {
		if !allowedEntry(kindHooks, name, e) && !f.fromTemplate(name, e) {
			f.remove(filepath.Join(p, name), "removed")
		}
	}
}

func (f *fixer) fromTemplate(name string, st fileState) bool {
	if !st.mode.IsRegular() || st.body.how != kept {
		return false
	}
	for _, t := range f.g.env.templateDirs() {
		if f.writable(t) {
			continue // a template inside a root is the command's to write
		}
		if tmpl := statFile(filepath.Join(t, "hooks", name)); tmpl.same(st) {
			return true
		}
	}
	return false
}

// allowedEntry: git never runs a *.sample hook. Of .git/info, git reads
// only attributes (which choose filter, diff and merge drivers: programs)
// and grafts (which rewrite the history git shows) for more than
// patterns; exclude and sparse-checkout hold patterns, and refs is the
// list git itself writes after gc or repack for dumb HTTP servers
// (repack.updateServerInfo), which no local git command reads. Putting
// such a file back was a false alarm after every gc, one that teaches
// people to ignore the notes; so only what can run code or redirect git
// is put back there.
func allowedEntry(kind watchKind, name string, st fileState) bool {
	if kind == kindHookNames {
		return !gitHookNames[name]
	}
	if !st.mode.IsRegular() {
		return false
	}
	if kind == kindHooks {
		return strings.HasSuffix(name, ".sample")
	}
	return !gitInfoActs[name]
}

// gitInfoActs are the files of .git/info that can run code or change what
// git shows: every other regular file there is git's data or patterns.
var gitInfoActs = keySet("attributes", "grafts")

func isFolderKind(k watchKind) bool { return k == kindHooks || k == kindInfo || k == kindHookNames }

// hooksKind is kindHooks for a hooks folder of its own, and kindHookNames
// for one that holds the worktree (core.hooksPath "." or ".."), where every
// project file lies and only a file named as a hook is one.
func hooksKind(hooks, top string) watchKind {
	if top != "" && paths.Within(top, hooks) {
		return kindHookNames
	}
	return kindHooks
}

// gitHookNames are the hooks git runs (githooks(5)).
var gitHookNames = keySet("applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
	"prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout", "post-merge", "pre-push",
	"pre-receive", "update", "proc-receive", "post-receive", "post-update", "reference-transaction", "push-to-checkout",
	"pre-auto-gc", "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist", "p4-prepare-changelist",
	"p4-post-changelist", "p4-pre-submit", "post-index-change")

// sanitizeConfig checks a config file the command wrote. Settings git
// reads as data (what git itself writes: a submodule's url, a remote, a
// branch's upstream) stay; any other setting the command added is taken
// out, and any the command removed is put back. The file is then written
// as wisp parsed it (what was there before, as it was, and the settings
// kept, in git's syntax), so that what git reads is what wisp checked.
// before is the file's state before the command (exists false: new).
func (f *fixer) sanitizeConfig(p string, before fileState) {
	st := statFile(p)
	switch {
	case !st.exists:
		return
	case st.mode.IsRegular() && st.size > maxControlFile:
		f.restoreWhy(p, before, fmt.Sprintf("it was %s, more than the %s wisp reads of a git config", sizeText(st.size), sizeText(maxControlFile)))
		return
	case st.body.how != kept:
		f.restore(p, before)
		return
	}
	old, _ := parseGitConfig(before.body.data)
	now, err := parseGitConfig(st.body.data)
	added, removed := diffEntries(old, now)
	var kept []gitEntry
	var out, back []string
	for _, e := range added {
		if gitConfigSafe(e) {
			kept = append(kept, e)
		} else {
			out = paths.AppendNew(out, e.name())
		}
	}
	for _, e := range removed {
		if !gitConfigSafe(e) {
			back = paths.AppendNew(back, e.name())
		}
	}
	if err != nil {
		out = append(out, "what does not parse")
	}
	data := formatGitConfig(now)
	if len(out) > 0 || len(back) > 0 || len(removed) == 0 {
		data = append(withNewline(before.body.data), formatGitConfig(kept)...)
	}
	if len(data) > maxControlFile {
		// The next snapshot could not follow it (gitConfigFile): written out
		// as git reads it, the file must stay within what wisp reads.
		f.restoreWhy(p, before, fmt.Sprintf("its settings, written out, come to more than the %s wisp reads of a git config", sizeText(maxControlFile)))
		return
	}
	perm := st.mode.Perm()
	if before.exists {
		perm = before.mode.Perm()
	}
	write := func() error { return writeAtomic(p, data, perm) }
	if len(out) == 0 && len(back) == 0 {
		if err := write(); err != nil { // the same settings, in wisp's words: nothing to report
			f.done = append(f.done, PutBack{Path: p, Action: "rewrote", Err: err})
		}
		return
	}
	var action []string
	if len(out) > 0 {
		action = append(action, "took "+strings.Join(out, ", ")+" out of")
	}
	if len(back) > 0 {
		action = append(action, "put back "+strings.Join(back, ", ")+" in")
	}
	f.do(p, strings.Join(action, " and "), write)
}

// diffEntries returns the settings of now that old lacks, and those of
// old that now lacks, each counted as often as it appears.
func diffEntries(old, now []gitEntry) (added, removed []gitEntry) {
	count := map[gitEntry]int{}
	for _, e := range old {
		count[e]++
	}
	for _, e := range now {
		if count[e] > 0 {
			count[e]--
			continue
		}
		added = append(added, e)
	}
	for _, e := range old {
		if count[e] > 0 {
			count[e]--
			removed = append(removed, e)
		}
	}
	return added, removed
}

func withNewline(data []byte) []byte {
	out := slices.Clone(data)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	return out
}

// restore puts p back as before said it was: a file wisp kept no copy of
// is removed, and the person told why.
func (f *fixer) restore(p string, before fileState) { f.restoreWhy(p, before, "") }

// restoreWhy is restore, saying why when it is not what the person expects.
func (f *fixer) restoreWhy(p string, before fileState, why string) {
	if !before.exists {
		f.removeWhy(p, "removed", why)
		return
	}
	if lost := before.unrestorable(); lost != "" {
		f.removeWhy(p, "removed", lost)
		return
	}
	action := "restored"
	if !paths.Exists(p) {
		action = "put back"
	}
	f.doWhy(p, action, why, func() error {
		switch {
		case before.mode.IsDir():
			if st := statFile(p); st.exists && !st.mode.IsDir() {
				if err := os.RemoveAll(p); err != nil {
					return err
				}
			}
			if err := os.Mkdir(p, before.mode.Perm()); err != nil && !os.IsExist(err) {
				return err
			}
			return os.Chmod(p, before.mode.Perm())
		case before.mode&fs.ModeSymlink != 0:
			return symlinkAtomic(before.target, p)
		case before.mode.IsRegular():
			return writeAtomic(p, before.body.data, before.mode.Perm())
		}
		return os.RemoveAll(p) // a FIFO or socket: git reads none of these
	})
}

func (f *fixer) remove(p, action string) { f.removeWhy(p, action, "") }

func (f *fixer) removeWhy(p, action, why string) {
	f.doWhy(p, action, why, func() error { return os.RemoveAll(p) })
}

// do runs fix on p when p lies where a command could write, under folders
// that are what they seem (no link on the way that a command could have
// put there to turn the put-back onto something else, wisp's home above
// all), and records it.
func (f *fixer) do(p, action string, fix func() error) { f.doWhy(p, action, "", fix) }

func (f *fixer) doWhy(p, action, why string, fix func() error) {
	var err error
	switch {
	case !f.writable(p):
		return
	case paths.RealpathMissingOK(filepath.Dir(p)) != filepath.Dir(p):
		err = fmt.Errorf("a symbolic link on its way could turn the put-back onto another file")
	default:
		err = fix()
	}
	f.done = append(f.done, PutBack{Path: p, Action: action, Why: why, Err: err})
}

// writable reports whether a confined command could have written p: it
// lies in a root and outside wisp's home.
func (f *fixer) writable(p string) bool {
	real := filepath.Join(paths.RealpathMissingOK(filepath.Dir(p)), filepath.Base(p)) // a link at p is p's own
	if paths.OutermostRoot(real, f.g.roots) == "" {
		return false
	}
	return f.g.home == "" || (!paths.Within(real, f.g.home) && !paths.Within(p, f.g.home))
}

// writeAtomic replaces p by a file holding data: a temporary file beside
// it, then a rename, so git never reads half of it.
func writeAtomic(p string, data []byte, perm fs.FileMode) error {
	if st := statFile(p); st.exists && st.mode.IsDir() {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".wisp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

func symlinkAtomic(target, p string) error {
	if st := statFile(p); st.exists && st.mode.IsDir() {
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".wisp-link")
	os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}

// PutBackLine is the line the model reads after a command whose git
// writes were put back, or "".
func PutBackLine(items []PutBack, base string) string {
	if len(items) == 0 {
		return ""
	}
	return "sandbox: put back what the command wrote where git would have run it at the person's next git command: " +
		describePutBacks(items, base)
}

// PutBackNote is the note the person reads about the same.
func PutBackNote(items []PutBack, base string) string {
	if len(items) == 0 {
		return ""
	}
	return "· the sandbox put back what the command wrote where your git would have run it: " + describePutBacks(items, base)
}

func describePutBacks(items []PutBack, base string) string {
	parts := make([]string, 0, len(items))
	for _, it := range items {
		p := it.Path
		if rel, err := filepath.Rel(base, p); err == nil && base != "" && paths.Within(p, base) {
			p = rel
		}
		if it.Err != nil {
			parts = append(parts, fmt.Sprintf("could not put back %s (%v): check it before you run git there", p, it.Err))
			continue
		}
		part := it.Action + " " + p
		if it.Why != "" {
			part += " (" + it.Why + ")"
		}
		parts = append(parts, part)
	}
	return strings.Join(parts, "; ")
}

// PutBackPaths lists the paths, for the audit log.
func PutBackPaths(items []PutBack) []string {
	out := make([]string, 0, len(items))
	for _, it := range items {
		out = append(out, it.Path)
	}
	return out
}
