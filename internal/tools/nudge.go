package tools

import (
	"path/filepath"
	"strings"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/sandbox/refusal"
	"mvdan.cc/sh/v3/syntax"
)

// turnState is what the grant nudge remembers within one turn.
type turnState struct {
	named        map[string]bool // folders already named this turn
	outsideAsked map[string]int  // outsideSandbox requests per folder
}

// nudges are decision D13's notes: after a sandbox refusal, or a second
// outsideSandbox request for the same folder in one turn, name the folder
// and add_directory, once per folder per turn; never where add_directory
// is not offered, the person denied it, or it would refuse the folder.
func (tb *Toolbox) nudges(a runArgs, res runner.Result) []string {
	if tb.Ask == nil {
		return nil
	}
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var folders []string
	if res.Refusal.Verdict == refusal.Refused {
		folders = refusal.Folders(res.Refusal)
	}
	if a.OutsideSandbox && !res.Denied {
		folder := tb.commandFolder(a.Command)
		if tb.turn.outsideAsked == nil {
			tb.turn.outsideAsked = map[string]int{}
		}
		if tb.turn.outsideAsked[folder]++; tb.turn.outsideAsked[folder] == 2 {
			folders = append(folders, folder)
		}
	}
	return tb.notesFor(folders)
}

func (tb *Toolbox) notesFor(folders []string) []string {
	var notes []string
	for _, dir := range folders {
		folder, err := tb.Folders.Resolve(dir)
		if err != nil || tb.Folders.Refuse(folder) != nil || tb.denied[folder] || tb.turn.named[folder] || tb.isRoot(folder) {
			continue
		}
		if tb.turn.named == nil {
			tb.turn.named = map[string]bool{}
		}
		tb.turn.named[folder] = true
		notes = append(notes, "note: the work writes in "+folder+", outside the writable roots; if it keeps writing there, "+
			"call add_directory once with that folder rather than running command after command outside the sandbox")
	}
	return notes
}

// commandFolder is the folder a command works in: its leading cd's
// target, or the project.
func (tb *Toolbox) commandFolder(line string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil || len(f.Stmts) == 0 {
		return tb.Folders.Project
	}
	var first *syntax.CallExpr
	syntax.Walk(f.Stmts[0], func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && first == nil {
			first = c
			return false
		}
		return first == nil
	})
	if first == nil || len(first.Args) != 2 || first.Args[0].Lit() != "cd" || first.Args[1].Lit() == "" {
		return tb.Folders.Project
	}
	dir := first.Args[1].Lit()
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(tb.Folders.Project, dir)
	}
	return dir
}
