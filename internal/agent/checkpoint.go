package agent

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/checkpoint"
	"github.com/wisp-sh/wisp/internal/checkpoint/undo"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/runner"
)

// RecordUndo is an undo or a redo in a thread: its Text is what the model
// is told.
const RecordUndo = "undo"

// Checkpoints are what the agent needs to take a checkpoint of the folders
// the person works in before each turn and each typed command (nil
// Options.Checkpoints: checkpoints are off).
type Checkpoints struct {
	Store *checkpoint.Store
	// Roots are the launch folder and the granted folders: not the shared
	// caches and temporary folders a command may also write.
	Roots []string
	// Ask is asked, after the reason was said, whether to run a turn no
	// checkpoint could be taken before; nil runs it (respond: said, and
	// run).
	Ask func(ctx context.Context) bool
	// Face names the face in checkpoint.restored (chat, tui).
	Face string

	mu sync.Mutex // Roots, which a grant adds to during a turn
}

// AddRoot records dir, a folder granted to the model during the session,
// from the next checkpoint on: the one before this turn did not record
// it, so what this turn changes there is not the turn's undo's.
func (c *Checkpoints) AddRoot(dir string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Contains(c.Roots, dir) {
		c.Roots = append(c.Roots, dir)
	}
}

func (c *Checkpoints) roots() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.Roots)
}

// pruneEvery is how many turns pass between two prunings of the store.
const pruneEvery = 20

// checkpointState is the agent's part: the checkpoint before the turn
// under way, for the gate to vouch for deletions it covers.
type checkpointState struct {
	before *checkpoint.Checkpoint
	turns  int
}

// wireCheckpoints lets the gate pass deletions the turn's checkpoint
// covers, under the confined default threshold only: an operator's own
// threshold is kept as set.
func (a *Agent) wireCheckpoints() {
	r := a.o.Tools.Runner
	if a.o.Checkpoints == nil || r.Gate == nil || r.Config.Approval.Threshold != "" || r.Resolve(false) != runner.ModeConfined {
		return
	}
	r.Gate = approval.UndoGate{Inner: r.Gate, Undo: turnUndo{a}}
}

// turnUndo is approval.Undo over the checkpoint taken before this turn.
type turnUndo struct{ a *Agent }

func (u turnUndo) Covered(dir, path string) error { return u.check(dir, path, checkpoint.Undoable) }
func (u turnUndo) Located(dir, path string) error {
	return u.check(dir, path, checkpoint.UndoableLocation)
}

func (u turnUndo) check(dir, path string, f func([]string, string, string, []string) error) error {
	before := u.a.cp.before
	if before == nil {
		return fmt.Errorf("no checkpoint was taken before this turn")
	}
	// The folders the checkpoint recorded, not those granted since.
	roots := make([]string, len(before.Roots))
	for i, r := range before.Roots {
		roots[i] = r.Path
	}
	return f(roots, dir, path, []string{u.a.o.Tools.Runner.Home.Dir})
}

// beforeTurn takes the checkpoint before a turn or a typed command. When
// it cannot, it says why before anything runs and asks whether to go on;
// false: the person said no, and the turn does not run.
func (a *Agent) beforeTurn(ctx context.Context, what string) bool {
	c := a.o.Checkpoints
	a.cp.before = nil
	if c == nil {
		return true
	}
	cp, err := c.Store.Take(c.roots(), undo.BeforeLabel(what))
	if err == nil {
		a.cp.before = cp
		return true
	}
	a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: "· no checkpoint before this turn, so /undo cannot take it back: " + err.Error()})
	if c.Ask != nil && !c.Ask(ctx) {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelInfo, Text: "· the turn did not run"})
		return false
	}
	return true
}

// afterTurn takes the checkpoint that tells the turn's changes from the
// person's later ones, and now and then prunes the store.
func (a *Agent) afterTurn() {
	c, before := a.o.Checkpoints, a.cp.before
	a.cp.before = nil
	if c == nil || before == nil {
		return
	}
	if _, err := c.Store.Take(c.roots(), undo.AfterLabel(before)); err != nil {
		a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: "· no checkpoint after this turn: an undo of it will show every change as possibly yours: " + err.Error()})
	}
	if a.cp.turns++; a.cp.turns%pruneEvery == 0 {
		if _, err := c.Store.Prune(); err != nil {
			a.o.Face.Emit(Event{Type: EventNote, Level: LevelWarning, Text: "· old checkpoints could not be pruned: " + err.Error()})
		}
	}
}

// Checkpoints is the agent's checkpoints, nil when they are off.
func (a *Agent) Checkpoints() *Checkpoints { return a.o.Checkpoints }

// Undo runs /undo (redo false) or /redo: shows what will change on out,
// asks once with ask, restores, and then records it in the thread, tells
// the model and writes checkpoint.restored.
func (a *Agent) Undo(redo bool, out io.Writer, ask undo.Ask) error {
	c := a.o.Checkpoints
	if c == nil {
		return fmt.Errorf("checkpoints are off (checkpoints.enabled), so there is nothing to undo")
	}
	var p *undo.Plan
	var err error
	if redo {
		p, err = undo.PlanRedo(c.Store)
	} else {
		p, err = undo.PlanUndo(c.Store, 0)
	}
	if err != nil {
		return err
	}
	d, err := undo.Run(c.Store, p, out, ask)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "· "+d.String())
	if d.Restored == nil {
		return nil
	}
	AuditRestore(a.o.Tools.Runner.Audit, d, c.Face)
	notice := undoNotice(d)
	a.add(model.Message{Role: model.RoleUser, Content: notice}, Record{Kind: RecordUndo, Text: notice})
	return nil
}

// undoNotice tells the model that the files are no longer as it left them.
func undoNotice(d *undo.Done) string {
	var b strings.Builder
	verb := "undid your last turn's changes to the files"
	if d.Plan.Redo {
		verb = "took back their undo: the files are again as your turn left them"
	}
	fmt.Fprintf(&b, "[The person %s (%s).", verb, d.String())
	for i, c := range d.Restored.Changes {
		if i == 20 {
			fmt.Fprintf(&b, " And %d more.", len(d.Restored.Changes)-i)
			break
		}
		fmt.Fprintf(&b, " %s %s;", c.What, c.Path)
	}
	b.WriteString(" Read a file again before you change it.]")
	return b.String()
}

// AuditRestore writes checkpoint.restored for an undo or redo done.
func AuditRestore(l *audit.Logger, d *undo.Done, face string) {
	if l == nil || d.Restored == nil {
		return
	}
	ev := audit.CheckpointRestored{Checkpoint: d.Plan.Target.ID, Label: d.Plan.Target.Label, Redo: d.Plan.Redo,
		Overwrote: d.Overwrote, Kept: d.Restored.Kept, Face: face}
	if d.Restored.Redo != nil {
		ev.RedoID = d.Restored.Redo.ID
	}
	for _, r := range d.Plan.Target.Roots {
		ev.Roots = append(ev.Roots, r.Path)
	}
	for _, c := range d.Restored.Changes {
		switch c.What {
		case checkpoint.Added:
			ev.Added++
		case checkpoint.Removed:
			ev.Removed++
		case checkpoint.Modified:
			ev.Modified++
		}
	}
	l.Log(ev)
}

// typedLabel is a typed command as the person typed it.
func typedLabel(t Typed) string {
	if t.OutsideSandbox {
		return "!!" + t.Command
	}
	return "!" + t.Command
}

// UndoPromptText tells the model, with checkpoints on, that the person can
// take a turn back, so it need not ask leave for ordinary edits, and what
// an undo cannot take back.
const UndoPromptText = "Before each of your turns wisp takes a checkpoint of the project folders (what .gitignore " +
	"leaves out, and .git, excepted): the person can take your whole turn back with /undo. So ordinary edits, and " +
	"deleting or overwriting files in the project, need no leave; say what you changed. An undo cannot take back " +
	"what left the project folders: files written elsewhere, anything sent over the network (a push, a publish), " +
	"processes still running, ignored files.\n\n"

// systemPrompt is SystemPromptWith, saying before the limits that the
// person can undo when checkpoints are on.
func (a *Agent) systemPrompt() string {
	p := SystemPromptWith(a.o.Tools, *a.o.Instructions)
	if a.o.Checkpoints == nil {
		return p
	}
	return strings.Replace(p, "Limits:\n", UndoPromptText+"Limits:\n", 1)
}

// OpenCheckpoints opens the project's store in wisp's home with the
// settings of checkpoints.*, for the folders the person works in: the
// launch folder, then writablePaths and the granted folders (never the
// caches and temporary folders the sandbox also lets commands write). Nil,
// nil when checkpoints are off. A store cut short mid-restore is finished
// or rolled back here, and said on the face by the caller
// (Store.Recovered).
func OpenCheckpoints(cfg config.Checkpoints, home config.Home, roots []string) (*Checkpoints, error) {
	if !cfg.Enabled {
		return nil, nil
	}
	s, err := checkpoint.Open(checkpoint.Dir(home.Dir, roots[0]), checkpoint.Options{
		MaxRootBytes: cfg.MaxRootSize, Keep: cfg.Keep,
		MaxAge: time.Duration(cfg.MaxAgeDays) * 24 * time.Hour, Skip: []string{home.Dir},
		// Turn after turn: each checkpoint walks again only what changed.
		Watch: true})
	if err != nil {
		return nil, fmt.Errorf("checkpoints cannot be kept, so /undo is off: %w (checkpoints.enabled false switches them off)", err)
	}
	var kept []string
	for _, r := range roots {
		if _, err := os.Stat(r); err == nil {
			kept = append(kept, r)
		}
	}
	return &Checkpoints{Store: s, Roots: kept}, nil
}
