package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
)

// The OUTSIDE the sandbox dialog's words (0064 items 5 and 7).
const (
	outsideTitle = "⚠ approve OUTSIDE the sandbox"
	outsideRuns  = "runs OUTSIDE the sandbox: it may write anywhere you can"
	outsideOnce  = "never remembered: this run only"
	outsideWait  = "… reading keys in a moment: what was typed before is dropped"
	outsideKeys  = "[y] once, then Enter   [n] no"
	outsideArmed = "y: Enter runs it, Backspace takes it back, n denies"
)

// dialog is one question waiting for the person's answer.
type dialog struct {
	req    approval.Request
	host   string // a connection's HOST:PORT (AskHost); "" for a command
	reply  chan approval.Answer
	opened time.Time
	typedY bool
	prefix bool // s, p and a hold the request's prefixes, not its line
}

// dialogKey answers the dialog with k, or not. An ordinary question takes
// one key among the scopes it offers; the OUTSIDE one ignores every key
// until settle has passed since it showed (a key already on its way is
// not an answer), then approves on y followed by Enter, never on y alone.
// n, Esc and Ctrl-C deny at once.
func (d *dialog) key(k tea.KeyPressMsg, now time.Time, settle time.Duration) (approval.Answer, bool) {
	s := k.String()
	if d.req.OutsideSandbox && now.Before(d.opened.Add(settle)) {
		return approval.Answer{}, false
	}
	switch s {
	case "n", "N", "esc", "ctrl+c":
		return approval.Answer{Approve: false, By: "tui"}, true
	}
	if d.req.OutsideSandbox {
		switch {
		case (s == "y" || s == "Y") && !d.typedY:
			d.typedY = true
		case s == "enter" && d.typedY:
			return approval.Answer{Approve: true, Scope: approval.Once, By: "tui"}, true
		case s == "backspace" && d.typedY:
			d.typedY = false
		}
		return approval.Answer{}, false
	}
	if strings.ToLower(s) == "e" && d.offersPrefix() {
		d.prefix = !d.prefix
		return approval.Answer{}, false
	}
	scope, ok := scopeKeys[strings.ToLower(s)]
	if !ok || !offers(d.req.Scopes, scope) {
		return approval.Answer{}, false
	}
	return approval.Answer{Approve: true, Scope: scope, By: "tui", Prefix: d.prefix && scope != approval.Once}, true
}

// offersPrefix: the gate offers held prefixes (go test …), and a scope
// that would keep one.
func (d *dialog) offersPrefix() bool {
	if len(d.req.Prefixes) == 0 || d.host != "" {
		return false
	}
	for _, s := range d.req.Scopes {
		if s != approval.Once {
			return true
		}
	}
	return false
}

// menu is the ordinary dialog's keys, and what s, p and a would hold.
func (d *dialog) menu() string {
	m := scopeMenu(d.req.Scopes)
	if !d.offersPrefix() {
		return m
	}
	held := render.Line(strings.Join(d.req.Prefixes, ", "))
	if d.prefix {
		return "hold " + held + ": " + m + "   · [e] this line only"
	}
	return m + "   · [e] hold " + held + " instead"
}

var scopeKeys = map[string]approval.Scope{"y": approval.Once, "s": approval.Session, "p": approval.Project, "a": approval.Always}

func offers(scopes []approval.Scope, s approval.Scope) bool {
	for _, o := range scopes {
		if o == s {
			return true
		}
	}
	return false
}

// lines is the dialog's text; the keys line follows the settle time.
// Every field of the request is the model's or a file's: shown escaped.
func (d *dialog) lines(now time.Time, settle time.Duration, st styles) []styledLine {
	r := d.req
	if r.Grant != "" {
		var out []styledLine
		for _, l := range strings.Split(strings.TrimRight(approval.Dialog(r), " \n"), "\n") {
			out = append(out, styledLine{l, st.modal})
		}
		return append(out, styledLine{scopeMenu(r.Scopes), st.modalTitle})
	}
	var out []styledLine
	switch {
	case d.host != "":
		out = append(out, styledLine{"allow a connection to " + render.Line(d.host) + "?", st.modalTitle})
	case r.OutsideSandbox:
		out = append(out, styledLine{outsideTitle, st.modalTitle})
	default:
		out = append(out, styledLine{fmt.Sprintf("approve this command? (%s risk)", r.Level), st.modalTitle})
	}
	out = append(out, styledLine{"  " + render.Line(r.Line), st.modalTitle}, styledLine{"  in " + render.Line(r.Dir), st.modal})
	if r.OutsideSandbox {
		out = append(out, styledLine{outsideRuns, st.danger})
	}
	for _, reason := range r.Reasons {
		out = append(out, styledLine{"  · " + render.Line(reason), st.modal})
	}
	if !r.OutsideSandbox {
		return append(out, styledLine{d.menu(), st.modalTitle})
	}
	out = append(out, styledLine{outsideOnce, st.modal})
	switch {
	case now.Before(d.opened.Add(settle)):
		out = append(out, styledLine{outsideWait, st.modal})
	case d.typedY:
		out = append(out, styledLine{outsideArmed, st.modalTitle})
	default:
		out = append(out, styledLine{outsideKeys, st.modalTitle})
	}
	return out
}

func scopeMenu(scopes []approval.Scope) string {
	labels := map[approval.Scope]string{approval.Once: "[y] once", approval.Session: "[s] session",
		approval.Project: "[p] project", approval.Always: "[a] always"}
	var parts []string
	for _, s := range scopes {
		parts = append(parts, labels[s])
	}
	return strings.Join(append(parts, "[n] no"), "   ")
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
