package undo

import (
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/wisp-sh/wisp/internal/checkpoint"
)

// maxShown bounds the changes listed one per line; the rest are counted.
const maxShown = 20

// Describe writes what the plan will change, for a person to read before
// saying yes: a heading, each change (+ added, - removed, ~ modified, with
// its lines), then the files changed by hand since, which are asked about.
func (p *Plan) Describe(w io.Writer) {
	verb := "Undo"
	if p.Redo {
		verb = "Redo"
	}
	if len(p.Changes) == 0 {
		fmt.Fprintf(w, "%s: nothing would change: the folders are already as at checkpoint %d (%s).\n", verb, p.Target.ID, p.Target.Label)
		return
	}
	what := fmt.Sprintf("back to checkpoint %d, %s (%s)", p.Target.ID, p.Target.Label, p.Target.Time.Local().Format("15:04:05"))
	if p.Redo {
		what = "the last undo: back to how the files were before it"
	}
	fmt.Fprintf(w, "%s %s. It would put back:\n", verb, what)
	for i, c := range p.Changes {
		if i == maxShown {
			fmt.Fprintf(w, "  … and %d more\n", len(p.Changes)-i)
			break
		}
		fmt.Fprintf(w, "  %s\n", changeLine(c, len(p.Target.Roots) > 1))
	}
	fmt.Fprintf(w, "  (%s)\n", summary(p.Changes))
	if len(p.Conflicts) > 0 {
		fmt.Fprintf(w, "These %d were changed since, by hand or by another program:\n", len(p.Conflicts))
		for i, c := range p.Conflicts {
			if i == maxShown {
				fmt.Fprintf(w, "  … and %d more\n", len(p.Conflicts)-i)
				break
			}
			fmt.Fprintf(w, "  ! %s\n", pathOf(c, len(p.Target.Roots) > 1))
		}
	} else if p.Present == nil {
		fmt.Fprintln(w, "wisp has no checkpoint from the end of that turn (it was cut short), so it cannot tell the turn's changes from yours: every file above is put back.")
	}
}

// Question is what the person is asked, once, and the answers it takes.
func (p *Plan) Question() (string, []string) {
	verb := "undo"
	if p.Redo {
		verb = "redo"
	}
	if len(p.Conflicts) > 0 {
		return fmt.Sprintf("%s, keeping the %d files changed since as they are, or overwriting them too?", capital(verb), len(p.Conflicts)),
			[]string{"keep", "overwrite", "cancel"}
	}
	return capital(verb) + "?", []string{"yes", "no"}
}

func capital(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// changeLine is one change: + added (a restore removes it), - removed (put
// back), ~ modified, with what changed.
func changeLine(c checkpoint.Change, withRoot bool) string {
	mark := map[checkpoint.What]string{checkpoint.Added: "+", checkpoint.Removed: "-", checkpoint.Modified: "~"}[c.What]
	line := fmt.Sprintf("%s %s", mark, pathOf(c, withRoot))
	var notes []string
	if c.Type != "file" {
		notes = append(notes, c.Type)
	}
	switch {
	case c.WasType != "":
		notes = append(notes, "was a "+c.WasType)
	case c.ModeOnly:
		notes = append(notes, "permissions")
	case c.Binary:
		notes = append(notes, "binary")
	case c.Lines != nil:
		approx := ""
		if c.Lines.Approximate {
			approx = "~"
		}
		notes = append(notes, fmt.Sprintf("%s+%d -%d lines", approx, c.Lines.Added, c.Lines.Removed))
	}
	notes = append(notes, map[checkpoint.What]string{checkpoint.Added: "made by the turn: removed",
		checkpoint.Removed: "deleted by the turn: put back", checkpoint.Modified: "changed: put back as it was"}[c.What])
	return line + " (" + strings.Join(notes, ", ") + ")"
}

func pathOf(c checkpoint.Change, withRoot bool) string {
	p := c.Path
	if p == "" {
		p = "."
	}
	if withRoot {
		p = path.Join(c.Root, c.Path)
	}
	if c.Type == "folder" {
		p += "/"
	}
	return p
}

// summary counts the changes: "2 added, 1 removed, 3 modified".
func summary(changes []checkpoint.Change) string {
	n := map[checkpoint.What]int{}
	for _, c := range changes {
		n[c.What]++
	}
	return fmt.Sprintf("%d made by the turn, %d deleted by it, %d changed", n[checkpoint.Added], n[checkpoint.Removed], n[checkpoint.Modified])
}

// Ask asks the person one question with the answers it takes, and returns
// the one given.
type Ask func(question string, answers []string) (string, error)

// Done is what an undo or redo came to, for the face to say, the thread to
// record and the audit log to keep.
type Done struct {
	Plan     *Plan
	Restored *checkpoint.Restored
	// Overwrote: files changed by hand were put back too, as asked.
	Overwrote bool
}

// ErrCanceled is a person who said no: nothing changed.
var ErrCanceled = errors.New("nothing was changed")

// Run shows the plan, asks once, and does it. Nothing to change is not an
// error; it is said, and Done.Restored stays nil.
func Run(s *checkpoint.Store, p *Plan, out io.Writer, ask Ask) (*Done, error) {
	p.Describe(out)
	if len(p.Changes) == 0 {
		return &Done{Plan: p}, nil
	}
	q, answers := p.Question()
	a, err := ask(q, answers)
	if err != nil {
		return nil, err
	}
	if a != "yes" && a != "keep" && a != "overwrite" {
		return nil, ErrCanceled
	}
	res, err := p.Apply(s, a == "overwrite")
	if err != nil {
		return nil, err
	}
	return &Done{Plan: p, Restored: res, Overwrote: a == "overwrite"}, nil
}

// String is what was done, in one line for the person and the thread.
func (d *Done) String() string {
	if d.Restored == nil {
		return "nothing to change"
	}
	verb := "undone"
	if d.Plan.Redo {
		verb = "redone"
	}
	s := fmt.Sprintf("%s: %s", verb, summary(d.Restored.Changes))
	if n := len(d.Plan.Conflicts); n > 0 && !d.Overwrote {
		s += fmt.Sprintf("; %d files changed since were kept as they are", n)
	}
	if d.Restored.Redo != nil && !d.Plan.Redo {
		s += " (/redo takes it back)"
	}
	return s
}
