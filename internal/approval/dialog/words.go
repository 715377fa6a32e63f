package dialog

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// The OUTSIDE dialog's words, the same on every face that draws it
// (docs/decisions.md, D19, D31).
const (
	OutsideTitle = "⚠ " + pending.OutsideAsk
	// SettleNote is what the dialog says while it drops every key.
	SettleNote = "reading keys in a moment: what was typed before is dropped"
	// OnceOnly says that the answer is never held.
	OnceOnly = "never remembered: this run only"
)

// CommandTitle is an ordinary dialog's title; level is the command's
// risk level ("high").
func CommandTitle(level fmt.Stringer) string {
	return "approve this command? (" + level.String() + " risk)"
}

// Spelling is how a face spells a keys line: the terminal packs it
// ("[y]once [s]ession [n]o"), wisp tui spaces it ("[y] once   [n] no").
type Spelling struct {
	Labels map[string]string // a scope's key and name
	No     string            // the key that denies
	Sep    string            // between two keys
	Toggle string            // before the prefix switch
}

var (
	// Packed is the terminal's spelling.
	Packed = Spelling{Labels: map[string]string{Once: "[y]once", Session: "[s]ession", Project: "[p]roject", Always: "[a]lways"},
		No: "[n]o", Sep: " ", Toggle: "  · "}
	// Spaced is wisp tui's spelling.
	Spaced = Spelling{Labels: map[string]string{Once: "[y] once", Session: "[s] session", Project: "[p] project", Always: "[a] always"},
		No: "[n] no", Sep: "   ", Toggle: "   · "}
)

// Menu is an ordinary dialog's keys line: the scopes offered and, where
// a prefix is offered, what s, p and a hold and how to switch that
// (docs/decisions.md, D32). The prefixes are shown escaped.
func (m *Model) Menu(sp Spelling) string {
	menu := ScopeMenu(m.q.Scopes, sp)
	if !OffersPrefix(m.q) {
		return menu
	}
	held := render.Line(strings.Join(m.q.Prefixes, ", "))
	if m.holding {
		return "hold " + held + ": " + menu + sp.Toggle + "[e] this line only"
	}
	return menu + sp.Toggle + "[e] hold " + held + " instead"
}

// ScopeMenu spells the keys of scopes, then the key that denies.
func ScopeMenu(scopes []string, sp Spelling) string {
	var parts []string
	for _, s := range scopes {
		parts = append(parts, sp.Labels[s])
	}
	return strings.Join(append(parts, sp.No), sp.Sep)
}
