package approval

import (
	"context"
	"slices"
	"strings"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
)

// UndoableReason is added to a line the checkpoint taken before the turn
// covers: it is asked as moderate, not high.
const UndoableReason = "what it deletes or overwrites is in the checkpoint taken before this turn: /undo puts it back"

// UndoThresholdWhy is ResolveThreshold's why under the confined default
// while checkpoints are on.
const UndoThresholdWhy = "approval.threshold is unset, commands run confined and checkpoints are on: " +
	"only what neither the sandbox nor /undo can take back asks (git push, gh, a pipe into an interpreter …)"

// undoableReasons are the high-risk reasons whose whole harm is deleting
// or overwriting files of the working tree, where a checkpoint puts them
// back. Their wording is the policy's (policy/risk.txt); a test holds the
// two together.
var undoableReasons = []string{
	"rm -r deletes a tree",
	"git clean -f deletes untracked files",
	"git reset --hard discards uncommitted work",
	"git checkout -f discards uncommitted work",
	"git restore -f discards uncommitted work",
}

// Undo checks the paths a line deletes or overwrites.
type Undo interface {
	// Covered says whether deleting path (from dir), with everything
	// below it, is put back by the checkpoint taken before this turn: nil
	// when it is. It fails when the turn has no checkpoint, the path is
	// outside the recorded folders, or anything below it is left out of
	// checkpoints (.gitignore, a .git).
	Covered(dir, path string) error
	// Located is Covered for a command that leaves ignored files and
	// repositories be (git clean without -x, git reset --hard): only
	// where path is.
	Located(dir, path string) error
}

// UndoGate lowers to moderate a high line whose every high reason is a
// deletion or overwrite inside the writable roots that the turn's
// checkpoint covers, then asks Inner. Wire it only under the confined
// default threshold with checkpoints on: an operator's explicit threshold
// is kept as set, and unconfined nothing holds a write inside the roots.
type UndoGate struct {
	Inner runner.Gate
	Undo  Undo
}

// Clear implements runner.Gate.
func (g UndoGate) Clear(ctx context.Context, gr runner.GateRequest) (runner.Clearance, error) {
	if !gr.OutsideSandbox && Undoable(gr.Line, gr.Dir, gr.Decision.Risk, g.Undo) {
		gr.Decision.Risk.Level = policy.Moderate
		gr.Decision.Risk.Reasons = append(slices.Clone(gr.Decision.Risk.Reasons), UndoableReason)
	}
	return g.Inner.Clear(ctx, gr)
}

// Undoable reports whether risk is high only for reasons a checkpoint
// undoes, and every path the line deletes is covered. The line must be
// one plain command: any shell syntax (a pipe, a ;, a $, a redirection,
// quotes, a glob) and it is not vouched for.
func Undoable(line, dir string, risk policy.Assessment, u Undo) bool {
	if u == nil || risk.Level != policy.High {
		return false
	}
	for _, r := range risk.Reasons {
		if !slices.Contains(undoableReasons, r) && !lowerThanHigh(r) {
			return false
		}
	}
	if strings.ContainsAny(line, "|&;<>()$`\\\"'*?[]{}~!#\n=") {
		return false
	}
	words := strings.Fields(line)
	if len(words) == 0 {
		return false
	}
	check, paths, ok := targets(words)
	if !ok {
		return false
	}
	for _, p := range paths {
		if check(u)(dir, p) != nil {
			return false
		}
	}
	return true
}

// lowerThanHigh: the reasons of a high line include its moderate ones
// (rm -r x, with "rm deletes files"); those pass the confined default
// anyway. Only the known moderate ones of the commands below count.
func lowerThanHigh(reason string) bool {
	return reason == "rm deletes files" || reason == "git clean lists or deletes untracked files" ||
		reason == "git reset moves the branch and the index"
}

type checker func(u Undo) func(dir, path string) error

func covered(u Undo) func(dir, path string) error { return u.Covered }
func located(u Undo) func(dir, path string) error { return u.Located }

// targets are the paths a line deletes or overwrites, and how to check
// them; not ok for a line outside the few forms known.
func targets(words []string) (checker, []string, bool) {
	switch {
	case words[0] == "rm":
		paths, ok := operands(words[1:], "rRfvd", []string{"--recursive", "--force", "--verbose", "--dir"})
		return covered, paths, ok && len(paths) > 0
	case len(words) >= 2 && words[0] == "git" && words[1] == "clean":
		paths, ok := operands(words[2:], "fdq", []string{"--force", "--quiet"})
		if !ok || strings.Count(strings.Join(words[2:], " "), "f") > 1 { // -ff removes nested repositories
			return nil, nil, false
		}
		return located, defaultDot(paths), true
	case len(words) >= 2 && words[0] == "git" && words[1] == "reset":
		rest := words[2:]
		ok := slices.Equal(rest, []string{"--hard"}) || slices.Equal(rest, []string{"--hard", "HEAD"})
		return located, []string{"."}, ok // another commit moves a ref, which no checkpoint records
	case len(words) >= 2 && words[0] == "git" && (words[1] == "checkout" || words[1] == "restore"):
		paths, ok := operands(words[2:], "fq", []string{"--force", "--quiet"})
		if !ok || !slices.Contains(words, "--") && len(paths) > 0 { // a branch name moves HEAD
			return nil, nil, false
		}
		return located, defaultDot(paths), true
	}
	return nil, nil, false
}

// operands splits words into flags, which must be among the letters and
// long flags given, and the paths after them (or after --).
func operands(words []string, letters string, long []string) ([]string, bool) {
	var paths []string
	for i, w := range words {
		switch {
		case w == "--":
			return append(paths, words[i+1:]...), true
		case strings.HasPrefix(w, "--"):
			if !slices.Contains(long, w) {
				return nil, false
			}
		case strings.HasPrefix(w, "-") && len(w) > 1:
			if strings.Trim(w[1:], letters) != "" {
				return nil, false
			}
		default:
			paths = append(paths, w)
		}
	}
	return paths, true
}

func defaultDot(paths []string) []string {
	if len(paths) == 0 {
		return []string{"."}
	}
	return paths
}

// ResolveUndoThreshold is ResolveThreshold, saying under the confined
// default that checkpoints let a deletion inside the roots pass.
func ResolveUndoThreshold(set string, c Confinement, checkpoints bool) Threshold {
	t := ResolveThreshold(set, c)
	if set == "" && c == Confined && checkpoints {
		t.Why = UndoThresholdWhy
	}
	return t
}
