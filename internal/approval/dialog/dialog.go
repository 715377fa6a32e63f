// Package dialog is the one model of a person's approval dialog: keys and
// time in, an answer and what to show out, no terminal. The rules that keep
// a key meant for something else from answering live here once, and every
// face that draws a dialog (the terminal approver, wisp tui) draws this
// model (docs/decisions.md, D30–D32).
package dialog

import (
	"strings"
	"time"
)

// OutsideSettle is how long the OUTSIDE the sandbox dialog ignores every
// key after it shows: a key already on its way (the y of "yes, go ahead"
// typed to the chat) lands in it and is dropped (docs/decisions.md, D31).
const OutsideSettle = 500 * time.Millisecond

// The scopes a dialog may offer, spelled as the pending channel and the
// gate spell them.
const (
	Once    = "once"
	Session = "session"
	Project = "project"
	Always  = "always"
)

// Question is what a dialog asks, as far as its keys are concerned.
type Question struct {
	// Outside is a request to run OUTSIDE the sandbox: y then Enter,
	// after the settle delay, once only.
	Outside bool
	Scopes  []string // the scopes offered, in the menu's order
	// Prefixes are the held prefixes offered in place of the exact line;
	// a face leaves them out where none may be held (a network host).
	Prefixes []string
}

// Answer is the person's answer, before the face says who gave it.
type Answer struct {
	Approve bool
	Scope   string
	Prefix  bool // the prefixes are held at Scope, not the exact line
}

// Phase is where an OUTSIDE dialog stands, which its last line says.
type Phase int

const (
	Waiting   Phase = iota // the settle delay: every key is dropped
	Listening              // y arms it
	Armed                  // y was typed: Enter runs it, Backspace takes it back
)

// Model is one open dialog. Its zero value is not ready: use Open.
type Model struct {
	q       Question
	listens time.Time // the first instant a key counts
	armed   bool
	holding bool // s, p and a hold the prefixes, not the line
}

// Open starts a dialog at now. settle <= 0 is OutsideSettle; an ordinary
// dialog listens at once.
func Open(q Question, now time.Time, settle time.Duration) *Model {
	if settle <= 0 {
		settle = OutsideSettle
	}
	m := &Model{q: q, listens: now}
	if q.Outside {
		m.listens = now.Add(settle)
	}
	return m
}

// Question is what the dialog asks.
func (m *Model) Question() Question { return m.q }

// Phase says where an OUTSIDE dialog stands at now.
func (m *Model) Phase(now time.Time) Phase {
	switch {
	case now.Before(m.listens):
		return Waiting
	case m.armed:
		return Armed
	}
	return Listening
}

// Holding reports whether s, p and a would hold the prefixes.
func (m *Model) Holding() bool { return m.holding }

// Key takes one key, named as a terminal UI names it ("y", "enter",
// "backspace", "esc", "ctrl+c", "ctrl+d"), read at now. It returns the
// answer when the key gives one. n, Esc, Ctrl-C and Ctrl-D deny at once,
// but not before an OUTSIDE dialog listens (docs/decisions.md, D30, D31).
func (m *Model) Key(key string, now time.Time) (Answer, bool) {
	if now.Before(m.listens) {
		return Answer{}, false // on its way before the question could be read
	}
	k := strings.ToLower(key)
	switch k {
	case "n", "esc", "ctrl+c", "ctrl+d":
		return Answer{}, true
	}
	if m.q.Outside {
		return m.outsideKey(k)
	}
	if k == "e" && OffersPrefix(m.q) {
		m.holding = !m.holding
		return Answer{}, false
	}
	scope, ok := scopeKeys[k]
	if !ok || !offers(m.q.Scopes, scope) {
		return Answer{}, false
	}
	return Answer{Approve: true, Scope: scope, Prefix: m.holding && scope != Once}, true
}

// outsideKey: y arms, Enter after y runs it once, Backspace disarms; no
// other key does anything (docs/decisions.md, D31).
func (m *Model) outsideKey(k string) (Answer, bool) {
	switch {
	case k == "y" && !m.armed:
		m.armed = true
	case k == "enter" && m.armed:
		return Answer{Approve: true, Scope: Once}, true
	case k == "backspace" && m.armed:
		m.armed = false
	}
	return Answer{}, false
}

var scopeKeys = map[string]string{"y": Once, "s": Session, "p": Project, "a": Always}

func offers(scopes []string, s string) bool {
	for _, o := range scopes {
		if o == s {
			return true
		}
	}
	return false
}

// OffersPrefix: the question has prefixes, and a scope that would keep
// one (docs/decisions.md, D32).
func OffersPrefix(q Question) bool {
	if len(q.Prefixes) == 0 || q.Outside {
		return false
	}
	for _, s := range q.Scopes {
		if s != Once {
			return true
		}
	}
	return false
}
