package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/approval"
	dialogpkg "github.com/wisp-sh/wisp/internal/approval/dialog"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// The OUTSIDE the sandbox dialog's words: its title and notes are the
// dialog model's, said the same by the terminal (docs/decisions.md, D19, D31).
const (
	outsideTitle = dialogpkg.OutsideTitle
	outsideRuns  = pending.OutsideRuns
	outsideOnce  = dialogpkg.OnceOnly
	outsideWait  = "… " + dialogpkg.SettleNote
	outsideKeys  = "[y] once, then Enter   [n] no"
	outsideArmed = "y: Enter runs it, Backspace takes it back, n denies"
)

// dialog is one question waiting for the person's answer; its keys are
// the dialog model's (internal/approval/dialog).
type dialog struct {
	req   approval.Request
	host  string // a connection's HOST:PORT (AskHost); "" for a command
	reply chan approval.Answer
	m     *dialogpkg.Model
	undo  *undoQuestion // /undo's question instead (undo.go)
}

// newDialog opens a question at now.
func newDialog(req approval.Request, host string, reply chan approval.Answer, now time.Time, settle time.Duration) *dialog {
	d := &dialog{req: req, host: host, reply: reply}
	d.open(now, settle)
	return d
}

// open starts the dialog's settle time at now: when it shows on screen.
func (d *dialog) open(now time.Time, settle time.Duration) {
	q := approval.Question(d.req)
	if d.host != "" {
		q.Prefixes = nil // a host is never held by a prefix (docs/decisions.md, D32)
	}
	d.m = dialogpkg.Open(q, now, settle)
}

// key answers the dialog with k, or not.
func (d *dialog) key(k tea.KeyPressMsg, now time.Time) (approval.Answer, bool) {
	a, ok := d.m.Key(k.String(), now)
	if !ok {
		return approval.Answer{}, false
	}
	return approval.Answer{Approve: a.Approve, Scope: approval.Scope(a.Scope), Prefix: a.Prefix, By: "tui"}, true
}

// lines is the dialog's text; the keys line follows the settle time.
// Every field of the request is the model's or a file's: shown escaped.
func (d *dialog) lines(now time.Time, st styles) []styledLine {
	if d.undo != nil {
		return d.undo.lines(st)
	}
	r := d.req
	if r.Grant != "" {
		var out []styledLine
		for _, l := range strings.Split(strings.TrimRight(approval.Dialog(r), " \n"), "\n") {
			out = append(out, styledLine{l, st.modal})
		}
		return append(out, styledLine{d.m.Menu(dialogpkg.Spaced), st.modalTitle})
	}
	var out []styledLine
	switch {
	case d.host != "":
		out = append(out, styledLine{"allow a connection to " + render.Line(d.host) + "?", st.modalTitle})
	case r.OutsideSandbox:
		out = append(out, styledLine{outsideTitle, st.modalTitle})
	default:
		out = append(out, styledLine{dialogpkg.CommandTitle(r.Level), st.modalTitle})
	}
	out = append(out, styledLine{"  " + render.Line(r.Line), st.modalTitle}, styledLine{"  in " + render.Line(r.Dir), st.modal})
	if r.OutsideSandbox {
		out = append(out, styledLine{outsideRuns, st.danger})
	}
	for _, reason := range r.Reasons {
		out = append(out, styledLine{"  · " + render.Line(reason), st.modal})
	}
	if !r.OutsideSandbox {
		return append(out, styledLine{d.m.Menu(dialogpkg.Spaced), st.modalTitle})
	}
	out = append(out, styledLine{outsideOnce, st.modal})
	switch d.m.Phase(now) {
	case dialogpkg.Waiting:
		out = append(out, styledLine{outsideWait, st.modal})
	case dialogpkg.Armed:
		out = append(out, styledLine{outsideArmed, st.modalTitle})
	default:
		out = append(out, styledLine{outsideKeys, st.modalTitle})
	}
	return out
}

// answerNote is the line the transcript keeps of the person's answer.
func answerNote(d *dialog, a approval.Answer) string {
	req := d.req
	line := render.Line(req.Line)
	switch {
	case d.host != "" && a.Approve:
		return fmt.Sprintf("· you allowed %s (%s) for %s", render.Line(d.host), a.Scope, line)
	case d.host != "":
		return fmt.Sprintf("· you refused %s for %s", render.Line(d.host), line)
	case !a.Approve:
		return "· you denied: " + line
	case req.OutsideSandbox:
		return "· you approved once, outside the sandbox: " + line
	case a.Prefix:
		return fmt.Sprintf("· you approved %s, holding %s: %s", a.Scope, render.Line(strings.Join(req.Prefixes, ", ")), line)
	}
	return fmt.Sprintf("· you approved %s: %s", a.Scope, line)
}
