package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// gitProtected lists what a planted file in repository root would turn into
// code run at the person's next git command: .git/hooks and .git/config,
// those of the common directory for a linked worktree, a worktree's own
// config.worktree when it has one, and a core.hooksPath the config sets.
// The rest of .git (objects, refs, the index) stays writable so that commits
// work. A root that is not a repository gives nothing.
func gitProtected(root, home string) []string {
	gitdir := findGitDir(root)
	if gitdir == "" {
		return nil
	}
	dirs := []string{gitdir}
	if common := readGitPointer(filepath.Join(gitdir, "commondir"), gitdir); common != "" {
		dirs = append(dirs, common)
	}
	var paths []string
	for _, d := range dirs {
		paths = append(paths, filepath.Join(d, "hooks"), filepath.Join(d, "config"))
		if wt := filepath.Join(d, "config.worktree"); exists(wt) {
			paths = append(paths, wt)
		}
		if hooks := hooksPath(filepath.Join(d, "config"), root, home); hooks != "" {
			paths = append(paths, hooks)
		}
	}
	return paths
}

// findGitDir returns root/.git when it is a directory, the directory a
// .git file points to (`gitdir: PATH`, as in a linked worktree or a
// submodule), or "".
func findGitDir(root string) string {
	dotgit := filepath.Join(root, ".git")
	info, err := os.Lstat(dotgit)
	switch {
	case err != nil:
		return ""
	case info.IsDir():
		return dotgit
	case info.Mode().IsRegular():
		return readGitPointer(dotgit, root)
	}
	return ""
}

// readGitPointer reads a file holding one path (`gitdir: PATH` in a .git
// file, a bare PATH in commondir), made absolute against base.
func readGitPointer(file, base string) string {
	data, err := os.ReadFile(file)
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
// "". It reads the file's own [core] sections only, not its includes.
func hooksPath(config, worktree, home string) string {
	f, err := os.Open(config)
	if err != nil {
		return ""
	}
	defer f.Close()
	section, value := "", ""
	scanner := bufio.NewScanner(f)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if strings.HasPrefix(line, "[") {
			section = strings.ToLower(strings.Trim(strings.Fields(line + " ")[0], "[]"))
			continue
		}
		key, v, ok := strings.Cut(line, "=")
		if ok && section == "core" && strings.EqualFold(strings.TrimSpace(key), "hookspath") {
			value = strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	if value == "" {
		return ""
	}
	value = expandHome(value, home)
	if !filepath.IsAbs(value) {
		value = filepath.Join(worktree, value)
	}
	return filepath.Clean(value)
}

// protectedForms gives the paths that must stay unwritable for p to stay
// unchanged: p as written, and its real path when a link leads elsewhere.
// Both matter: the real path is what the kernel checks, and a link on the
// way could be swapped for a folder of a command's own.
func protectedForms(p string) []string {
	clean := filepath.Clean(p)
	real := realpathMissingOK(clean)
	if real == clean {
		return []string{clean}
	}
	return []string{real, clean}
}
