// Package undo owns what a turn's checkpoints mean to a person: which
// checkpoint /undo goes back to and /redo forward to, what a person is shown
// before either, and the `wisp undo` command. The faces (chat, tui, cmd)
// share it; the store below it ([checkpoint.Store]) knows nothing of turns.
//
// Before each model turn and each ! line the agent takes a checkpoint
// labelled "before …", and after it one labelled "after N" (N the before's
// id), so that an undo can tell the files the turn changed from the ones
// changed by hand since. A restore takes its own checkpoint of the present
// (checkpoint.Checkpoint.Before set): that is what a redo restores.
package undo

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/internal/checkpoint"
)

// Labels of the checkpoints the agent takes.
const (
	beforePrefix = "before "
	afterPrefix  = "after "
)

// BeforeLabel labels the checkpoint taken before a turn or a ! line: what
// the person sent, shortened.
func BeforeLabel(what string) string {
	what = strings.Join(strings.Fields(what), " ")
	if r := []rune(what); len(r) > 60 {
		what = string(r[:59]) + "…"
	}
	return beforePrefix + what
}

// AfterLabel labels the checkpoint taken after the turn that before began.
func AfterLabel(before *checkpoint.Checkpoint) string {
	return afterPrefix + strconv.Itoa(before.ID)
}

func isBefore(cp *checkpoint.Checkpoint) bool {
	return cp.Before == 0 && strings.HasPrefix(cp.Label, beforePrefix)
}

// afterOf is the id of the before-checkpoint cp was taken after, or 0.
func afterOf(cp *checkpoint.Checkpoint) int {
	rest, ok := strings.CutPrefix(cp.Label, afterPrefix)
	if !ok || cp.Before != 0 {
		return 0
	}
	id, _ := strconv.Atoi(rest)
	return id
}

// history is where the roots stand among the checkpoints: which one an
// undo goes back to and which a redo forward to.
type history struct {
	list []*checkpoint.Checkpoint
	byID map[int]*checkpoint.Checkpoint
	// floor: an undo goes back to the newest before-checkpoint under it.
	floor int
	// redo are the checkpoints the undos since the last turn took of the
	// present, newest last: a redo restores the last.
	redo []redoEntry
	// present is the checkpoint the roots should match now, nil when
	// unknown (a turn that did not end, or no turn yet).
	present *checkpoint.Checkpoint
}

type redoEntry struct {
	cp    *checkpoint.Checkpoint
	floor int // the floor before the undo
}

// replay walks the checkpoints oldest first, as the turns, undos and redos
// happened.
func replay(list []*checkpoint.Checkpoint) *history {
	h := &history{list: list, byID: map[int]*checkpoint.Checkpoint{}, floor: math.MaxInt}
	for _, cp := range list {
		h.byID[cp.ID] = cp
		switch {
		case isBefore(cp):
			h.floor, h.redo, h.present = math.MaxInt, nil, nil
		case afterOf(cp) != 0:
			h.present = cp
		case cp.Before != 0:
			h.restored(cp)
		}
	}
	return h
}

// restored follows a restore: cp is what it took of the present, before
// it brought the roots to cp.Before.
func (h *history) restored(cp *checkpoint.Checkpoint) {
	target := h.byID[cp.Before]
	h.present = target
	switch {
	case target == nil:
		h.floor = cp.Before
	case target.Before != 0 && len(h.redo) > 0 && h.redo[len(h.redo)-1].cp.ID == target.ID: // a redo
		h.floor = h.redo[len(h.redo)-1].floor
		h.redo = h.redo[:len(h.redo)-1]
	default: // an undo
		h.redo = append(h.redo, redoEntry{cp: cp, floor: h.floor})
		h.floor = target.ID
	}
}

// Plan is an undo or a redo worked out and not yet done: what it will
// change, and which of those files were changed by hand since.
type Plan struct {
	Redo   bool
	Target *checkpoint.Checkpoint // the checkpoint the roots go back to
	// Present is the checkpoint the roots should match now (after the
	// turn, or after the last undo); nil when wisp cannot know (a turn cut
	// short): every change is then shown as possibly the person's.
	Present   *checkpoint.Checkpoint
	Changes   []checkpoint.Change
	Conflicts []checkpoint.Change
}

// ErrNothing says there is nothing to undo or redo; its text says why.
var ErrNothing = errors.New("nothing to take back")

// PlanUndo works out an undo of the last turn (id 0) or back to the
// checkpoint id, taken before a turn (as `wisp undo --list` shows them).
func PlanUndo(s *checkpoint.Store, id int) (*Plan, error) {
	list, err := s.List()
	if err != nil {
		return nil, err
	}
	h := replay(list)
	var target *checkpoint.Checkpoint
	if id != 0 {
		target = h.byID[id]
		if target == nil || !isBefore(target) {
			return nil, fmt.Errorf("checkpoint %d is not one taken before a turn: `wisp undo --list` shows those", id)
		}
	} else {
		for i := len(list) - 1; i >= 0 && target == nil; i-- {
			if isBefore(list[i]) && list[i].ID < h.floor {
				target = list[i]
			}
		}
		if target == nil {
			return nil, fmt.Errorf("%w: no turn has a checkpoint before it yet", ErrNothing)
		}
	}
	return plan(s, target, h.present, false)
}

// PlanRedo works out taking the last undo back.
func PlanRedo(s *checkpoint.Store) (*Plan, error) {
	list, err := s.List()
	if err != nil {
		return nil, err
	}
	h := replay(list)
	if len(h.redo) == 0 {
		return nil, fmt.Errorf("%w: no /undo since the last turn", ErrNothing)
	}
	return plan(s, h.redo[len(h.redo)-1].cp, h.present, true)
}

func plan(s *checkpoint.Store, target, present *checkpoint.Checkpoint, redo bool) (*Plan, error) {
	p := &Plan{Redo: redo, Target: target, Present: present}
	var err error
	if p.Changes, err = s.Diff(target); err != nil {
		return nil, err
	}
	if present != nil && len(p.Changes) > 0 {
		if p.Conflicts, err = s.Conflicts(present, target); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Apply does the plan. Overwrite puts back files changed by hand too;
// without it they are kept as they are (and listed in Restored.Kept).
func (p *Plan) Apply(s *checkpoint.Store, overwrite bool) (*checkpoint.Restored, error) {
	opts := checkpoint.RestoreOptions{After: p.Present, Overwrite: overwrite}
	if !overwrite {
		for _, c := range p.Conflicts {
			opts.Keep = append(opts.Keep, keyOf(c))
		}
	}
	return s.Restore(p.Target, opts)
}

// keyOf names a change as RestoreOptions.Keep takes it.
func keyOf(c checkpoint.Change) string {
	if c.Path == "" {
		return c.Root
	}
	return c.Root + "/" + c.Path
}
