package checkpoint

import (
	"bytes"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// rules is what one set of .gitignore files says inside one folder: the
// patterns of the folders from the root down, and whether the folder
// itself is left out (then so is everything in it: as in git, a pattern
// cannot bring back a file inside a folder left out).
//
// Only the .gitignore files inside the roots count. The person's global
// excludes file and .git/info/exclude do not: the one is not the
// project's, the other is inside .git, which the package never reads.
type rules struct {
	patterns []gitignore.Pattern
	ignored  bool
}

// ignores reports whether the entry at path (components from the root)
// is left out.
func (r *rules) ignores(path []string, isDir bool) bool {
	if r.ignored {
		return true
	}
	for i := len(r.patterns) - 1; i >= 0; i-- {
		if m := r.patterns[i].Match(path, isDir); m != gitignore.NoMatch {
			return m == gitignore.Exclude
		}
	}
	return false
}

// enter is the rules inside the folder at path, whose own .gitignore
// holds content (nil when it has none).
func (r *rules) enter(path []string, content []byte) rules {
	in := rules{patterns: r.patterns, ignored: r.ignored || r.ignores(path, true)}
	if in.ignored || len(content) == 0 {
		return in
	}
	domain := path[:len(path):len(path)]
	in.patterns = r.patterns[:len(r.patterns):len(r.patterns)]
	for _, line := range bytes.Split(content, []byte("\n")) {
		p := strings.TrimSuffix(string(line), "\r")
		if strings.TrimSpace(p) == "" || strings.HasPrefix(p, "#") {
			continue
		}
		in.patterns = append(in.patterns, gitignore.ParsePattern(p, domain))
	}
	return in
}

// gitignoreName is the file whose patterns a folder's entries answer to.
// It is always recorded, even where it leaves itself out, so that a
// checkpoint carries the rules it was taken under.
const gitignoreName = ".gitignore"

// isGitDir reports whether name is a repository's own entry: the .git
// folder, or a worktree's or submodule's .git file. Case is ignored, as
// on macOS's file systems, where .GIT is the same folder.
func isGitDir(name string) bool { return strings.EqualFold(name, ".git") }
