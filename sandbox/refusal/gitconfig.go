package refusal

import (
	"path/filepath"
	"strings"
)

// A git command that sets something in the repository's config (git
// branch --set-upstream-to, git remote add, git config) is refused by the
// sandbox, which keeps .git/config read-only: a setting there
// (core.fsmonitor, an alias, a filter) can run a program at the person's
// next git command, outside the sandbox. git prints "Device or resource
// busy" and, for some of them, exits 0 as if it had worked. The note says
// what was refused, why, and how the person does it: the same line, typed
// with !!, runs outside the sandbox once they approve it.

// gitConfigLine is the git command line to run outside the sandbox when
// the refusal is of a repository's git config, "" otherwise.
func gitConfigLine(command string, protected []string) string {
	line := strings.TrimSpace(command)
	if !strings.HasPrefix(line, "git ") || strings.ContainsAny(line, "\n;&|") {
		return ""
	}
	for _, p := range protected {
		name := filepath.Base(p)
		if (name == "config" || name == "config.worktree") && strings.Contains(p, "/.git") {
			return line
		}
	}
	return ""
}

// gitConfigNote is the sentence the person's note ends with.
func (r Result) gitConfigNote() string {
	return ". git's config is read-only under the sandbox: a setting there can run a program at your next git command, outside it. " +
		"To make this change, run it yourself: !!" + r.GitLine
}

// gitConfigModel is the clause the model's line ends with.
func (r Result) gitConfigModel() string {
	return "; the repository's git config is read-only in the sandbox (a setting there could run a program outside it), so nothing was saved there, whatever git printed"
}
