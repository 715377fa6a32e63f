package gitguard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/sandbox/internal/paths"
)

// Env is what the person's git reads besides a repository's own files:
// the system and global config files, wherever the environment or the
// platform's installs put them. All candidates count, set or not today, so
// that a later change of environment does not open what this one closed.
type Env struct {
	home     string
	configs  []string
	template string // GIT_TEMPLATE_DIR, or ""
}

// NewEnv lists the config files git reads for every repository: the
// system ones, ~/.gitconfig, the XDG one, and those named by GIT_CONFIG_*.
func NewEnv(home string, getenv func(string) string) Env {
	xdg := getenv("XDG_CONFIG_HOME")
	if !filepath.IsAbs(xdg) {
		xdg = filepath.Join(home, ".config")
	}
	configs := []string{"/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig",
		"/Library/Developer/CommandLineTools/usr/share/git-core/gitconfig",
		filepath.Join(home, ".gitconfig"), filepath.Join(xdg, "git", "config")}
	for _, name := range []string{"GIT_CONFIG_SYSTEM", "GIT_CONFIG_GLOBAL"} {
		if p := getenv(name); filepath.IsAbs(p) {
			configs = paths.AppendNew(configs, filepath.Clean(p))
		}
	}
	template := getenv("GIT_TEMPLATE_DIR")
	if !filepath.IsAbs(template) {
		template = ""
	}
	return Env{home: home, configs: configs, template: template}
}

// templateDirs are the folders git init copies a new repository's hooks
// from: GIT_TEMPLATE_DIR, init.templateDir of the person's configs, and
// the system's own.
func (e Env) templateDirs() []string {
	dirs := []string{"/usr/share/git-core/templates", "/usr/local/share/git-core/templates",
		"/opt/homebrew/share/git-core/templates", "/Library/Developer/CommandLineTools/usr/share/git-core/templates"}
	if e.template != "" {
		dirs = paths.AppendNew(dirs, filepath.Clean(e.template))
	}
	for _, c := range e.configs {
		if t := gitConfigValue(c, "init", "templatedir"); t != "" {
			if t = paths.ExpandHome(t, e.home); filepath.IsAbs(t) {
				dirs = paths.AppendNew(dirs, filepath.Clean(t))
			}
		}
	}
	return dirs
}

// Bounds on what wisp follows: git's own limit on nested includes is 10;
// submodules and common folders nest far less in practice.
const (
	maxIncludeDepth = 10
	maxGitDirDepth  = 4
	maxSubGitDirs   = 256
)

// Protected lists what a planted file in repository root would turn into
// code run at the person's next git command, as far as it exists now: the
// .git file or link that points to the git folder, that folder's hooks,
// config, config.worktree, commondir and info/attributes, the same of the
// common folder it names, the hooks of every submodule's git folder under
// modules/, each file their configs include, and every core.hooksPath the
// repository's or the person's global configs set (a relative one taken
// against the worktree's top, as git does). The rest of .git (objects,
// refs, the index, worktrees/) stays writable so that commits, worktrees
// and submodules work; what it cannot bind, the put-back after each
// command covers (Snapshot). A root that is not a repository gives
// nothing.
func Protected(root string, env Env) []string {
	gitdir, pointer := resolveDotGit(root)
	if gitdir == "" {
		return nil
	}
	w := &protectWalk{env: env, seen: map[string]bool{}}
	if pointer {
		// The link or file itself, never the git folder a link leads to:
		// commits write there.
		w.out = paths.AppendNew(w.out, filepath.Join(root, ".git"))
	}
	w.gitDir(gitdir, root, true, 0)
	for _, c := range env.configs {
		w.config(c, root, 0)
	}
	return w.out
}

type protectWalk struct {
	env  Env
	seen map[string]bool
	out  []string
}

func (w *protectWalk) add(p string) { w.out = paths.AppendNew(w.out, paths.ProtectedForms(p)...) }

func (w *protectWalk) addIfExists(p string) {
	if paths.Exists(p) {
		w.add(p)
	}
}

// gitDir protects one git folder. The main one's hooks and config count
// even before they exist, so that the report names them.
func (w *protectWalk) gitDir(g, top string, main bool, depth int) {
	if depth > maxGitDirDepth || w.seen[g] {
		return
	}
	w.seen[g] = true
	if !main {
		// A submodule's git folder: git submodule update rewrites its
		// config (core.worktree), so only its hooks are bound; the put-back
		// checks its config after each command.
		w.addIfExists(filepath.Join(g, "hooks"))
		w.addIfExists(filepath.Join(g, "info", "attributes"))
	} else {
		w.add(filepath.Join(g, "hooks"))
		w.add(filepath.Join(g, "config"))
		for _, name := range []string{"config.worktree", "commondir", "info/attributes"} {
			w.addIfExists(filepath.Join(g, name))
		}
	}
	w.config(filepath.Join(g, "config"), top, 0)
	w.config(filepath.Join(g, "config.worktree"), top, 0)
	if common := readGitPointer(filepath.Join(g, "commondir"), g); common != "" {
		w.gitDir(common, top, true, depth+1)
	}
	for _, m := range subGitDirs(filepath.Join(g, "modules")) {
		w.gitDir(m, moduleTop(m, top), false, depth+1)
	}
}

// config protects what a config file names: the files it includes (and
// theirs) and its core.hooksPath. The file itself is protected by the
// caller when it is a repository's.
func (w *protectWalk) config(file, top string, depth int) {
	if depth > maxIncludeDepth {
		return
	}
	c := loadConfig(file)
	if hooks := c.hooksPath(top, w.env.home); hooks != "" && !paths.Within(top, hooks) {
		w.add(hooks) // not one that holds the worktree ("."): the put-back checks that one
	}
	for _, inc := range c.includes(w.env.home) {
		w.addIfExists(inc) // a global config's include may lie inside a root too
		w.config(inc, top, depth+1)
	}
}

// resolveDotGit finds root's git folder: root/.git when it is a folder, the
// folder a .git file points to (`gitdir: PATH`, as in a linked worktree or
// a submodule), or the one a .git link leads to; pointer says the .git was
// a file or a link. "" when there is none.
func resolveDotGit(root string) (gitdir string, pointer bool) {
	dotgit := filepath.Join(root, ".git")
	info, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return "", false
	case info.IsDir():
		return dotgit, false
	case info.Mode().IsRegular():
		if g := readGitPointer(dotgit, root); isDir(g) {
			return g, true
		}
	case info.Mode()&os.ModeSymlink != 0:
		if g, err := paths.Realpath(dotgit); err == nil && isDir(g) {
			return g, true
		}
	}
	return "", false
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return p != "" && err == nil && info.IsDir()
}

// subGitDirs lists the git folders under dir (a modules/ or worktrees/
// folder): every folder holding HEAD, found by descending folders without
// one, since a submodule's name may hold slashes. Links are not followed.
func subGitDirs(dir string) []string {
	var out []string
	var walk func(d string, depth int)
	walk = func(d string, depth int) {
		entries, err := os.ReadDir(d)
		if err != nil || depth > maxGitDirDepth {
			return
		}
		for _, e := range entries {
			if !e.IsDir() || len(out) >= maxSubGitDirs {
				continue
			}
			p := filepath.Join(d, e.Name())
			if paths.Exists(filepath.Join(p, "HEAD")) {
				out = append(out, p)
				continue
			}
			walk(p, depth+1)
		}
	}
	walk(dir, 0)
	return out
}

// moduleTop is a submodule's worktree as its config's core.worktree names
// it (relative to the git folder), or fallback.
func moduleTop(gitdir, fallback string) string {
	wt := gitConfigValue(filepath.Join(gitdir, "config"), "core", "worktree")
	if wt == "" {
		return fallback
	}
	if !filepath.IsAbs(wt) {
		wt = filepath.Join(gitdir, wt)
	}
	return filepath.Clean(wt)
}

// readGitPointer reads a file holding one path (`gitdir: PATH` in a .git
// file, a bare PATH in commondir), made absolute against base.
func readGitPointer(file, base string) string {
	data, err := readSmall(file)
	if err != nil || len(data) > 4096 {
		return ""
	}
	p := strings.TrimSpace(strings.TrimPrefix(string(data), "gitdir:"))
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}

// hooksPath returns core.hooksPath from a git config file, made absolute
// the way git does (relative to the worktree's top, ~ for the home), or
// "". Its includes are read by the caller, which walks them.
func hooksPath(config, worktree, home string) string {
	return loadConfig(config).hooksPath(worktree, home)
}

func (c gitConfigFile) hooksPath(worktree, home string) string {
	value := c.value("core", "hookspath")
	if value == "" {
		return ""
	}
	value = paths.ExpandHome(value, home)
	if !filepath.IsAbs(value) {
		if worktree == "" {
			return ""
		}
		value = filepath.Join(worktree, value)
	}
	return filepath.Clean(value)
}
