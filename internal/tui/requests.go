package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/bar"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// By is how an answer written from the list names this face.
const By = "wisp tui"

// requestList is the waiting requests as a list, answered where they
// are: the same lines and digest as wisp-bar's menu (bar.BuildMenu), and
// an answer bound to the bytes that were shown, as `wisp approvals`
// writes it.
type requestList struct {
	shown []pending.Pending // the snapshot on screen, newest first
	sel   int
	note  string // the outcome of the last answer
}

// pendingMsg is the pending channel's listing, from its watcher.
type pendingMsg struct {
	list []pending.Pending
	err  error // the watcher failed: the count is no longer live
}

// openList snapshots what waits now.
func openList(ch *pending.Channel) *requestList {
	l := &requestList{}
	list, err := ch.List()
	if err != nil {
		l.note = "· " + err.Error()
	}
	l.shown = list
	return l
}

// refresh takes the watcher's newer listing, keeping the selection on
// the same request where it still waits.
func (l *requestList) refresh(list []pending.Pending) {
	id := ""
	if l.sel < len(l.shown) {
		id = l.shown[l.sel].Request.ID
	}
	l.shown = list
	l.sel = max(0, min(l.sel, len(list)-1))
	for i, p := range list {
		if p.Request.ID == id {
			l.sel = i
		}
	}
}

// key moves the selection or answers the selected request; done is true
// when the list closes.
func (l *requestList) key(k tea.KeyPressMsg, ch *pending.Channel) (done bool) {
	switch s := k.String(); s {
	case "esc", "q", "ctrl+c", "ctrl+o":
		return true
	case "up", "k":
		l.sel = max(0, l.sel-1)
	case "down", "j":
		l.sel = min(max(0, len(l.shown)-1), l.sel+1)
	case "n":
		l.answer(ch, pending.DecisionDeny, "")
	default:
		if scope, ok := listScopes[s]; ok {
			l.answer(ch, pending.DecisionApprove, scope)
		}
	}
	return false
}

var listScopes = map[string]string{"y": pending.ScopeOnce, "s": pending.ScopeSession, "p": pending.ScopeProject, "a": pending.ScopeAlways}

// answer writes the decision for the selected request, bound to the
// bytes shown: a file changed since is refused by Answer's binding, and
// by the gate that waits on it.
func (l *requestList) answer(ch *pending.Channel, decision, scope string) {
	if l.sel >= len(l.shown) {
		return
	}
	p := l.shown[l.sel]
	r := p.Request
	if decision == pending.DecisionApprove && !slices.Contains(r.Scopes, scope) {
		l.note = fmt.Sprintf("· request %s does not offer %s; it offers %s", render.Line(r.ID), scope, strings.Join(r.Scopes, ", "))
		return
	}
	a, err := ch.Answer(p, decision, scope, By)
	switch {
	case errors.Is(err, pending.ErrGone):
		l.note = "· nothing to answer: request " + render.Line(r.ID) + " is no longer waiting: it was answered elsewhere, withdrawn or expired"
	case errors.Is(err, pending.ErrAlreadyAnswered):
		l.note = fmt.Sprintf("· already answered: request %s was answered first (%s, %s, by %s), and the first answer stands",
			render.Line(r.ID), a.Decision, a.Scope, render.Line(a.By))
	case err != nil:
		l.note = "· not answered: " + err.Error()
	case decision == pending.DecisionDeny:
		l.note = "· denied: " + render.Line(r.Command)
	case r.OutsideSandbox:
		l.note = "· approved once, outside the sandbox: " + render.Line(r.Command)
	default:
		l.note = fmt.Sprintf("· approved %s: %s", scope, render.Line(r.Command))
	}
	if err == nil {
		l.shown[l.sel].Answered = true
	}
}

// lines is the list as the menu shows it: its header, each request's
// label and, under the selected one, its digest, who asked, its command
// whole and the keys it takes.
func (l *requestList) lines(now time.Time, home string, st styles) []styledLine {
	menu := bar.BuildMenu(bar.View{Pending: l.shown, Now: now, Home: home, MaxShown: len(l.shown) + 1})
	out := []styledLine{{menu.Items[0].Label, st.modalTitle}}
	for i, p := range l.shown {
		item := menu.Items[1+i]
		mark := "  "
		if i == l.sel {
			mark = "▸ "
		}
		style := st.modal
		if p.Request.OutsideSandbox {
			style = st.danger
		}
		out = append(out, styledLine{mark + item.Label, style})
		if i != l.sel {
			continue
		}
		if len(item.Children) > 0 {
			out = append(out, styledLine{"    " + item.Children[0].Label, st.modal})
		}
		out = append(out, styledLine{"    " + render.Line(p.Request.Command), st.modal})
		if !p.Answered {
			out = append(out, styledLine{"    " + listKeys(p.Request), st.modalTitle})
		}
	}
	if l.note != "" {
		out = append(out, styledLine{l.note, st.modal})
	}
	return append(out, styledLine{"↑↓ choose · Esc closes", st.modal})
}

func listKeys(r pending.Request) string {
	labels := map[string]string{pending.ScopeOnce: "[y] once", pending.ScopeSession: "[s] session",
		pending.ScopeProject: "[p] project", pending.ScopeAlways: "[a] always"}
	var parts []string
	for _, s := range []string{pending.ScopeOnce, pending.ScopeSession, pending.ScopeProject, pending.ScopeAlways} {
		if slices.Contains(r.Scopes, s) {
			parts = append(parts, labels[s])
		}
	}
	return strings.Join(append(parts, "[n] deny"), "   ")
}
