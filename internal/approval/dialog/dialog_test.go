package dialog

import (
	"testing"
	"time"
)

var t0 = time.Unix(1_000_000, 0)

// step is one key read at an offset from when the dialog opened.
type step struct {
	key string
	at  time.Duration
}

func keys(at time.Duration, ks ...string) []step {
	var out []step
	for _, k := range ks {
		out = append(out, step{k, at})
	}
	return out
}

func join(parts ...[]step) []step {
	var out []step
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var (
	outside  = Question{Outside: true, Scopes: []string{Once}}
	ordinary = Question{Scopes: []string{Once, Session, Project, Always}, Prefixes: []string{"go test …"}}
	twoOnly  = Question{Scopes: []string{Once, Session}}
)

// The rules of both dialogs: the settle delay, y then Enter, Backspace
// disarming, the prefix switch, and what denies (docs/decisions.md, D30–D32).
func TestKeys(t *testing.T) {
	late := time.Second
	tests := []struct {
		name     string
		q        Question
		steps    []step
		answered bool
		want     Answer
	}{
		{"outside: y Enter before it settles is dropped", outside, keys(0, "y", "enter"), false, Answer{}},
		{"outside: n before it settles is dropped", outside, keys(100*time.Millisecond, "n"), false, Answer{}},
		{"outside: y alone never approves", outside, keys(late, "y"), false, Answer{}},
		{"outside: Enter alone never approves", outside, keys(late, "enter"), false, Answer{}},
		{"outside: y then Enter runs it once", outside, keys(late, "y", "enter"), true, Answer{Approve: true, Scope: Once}},
		{"outside: Y then Enter too", outside, keys(late, "Y", "enter"), true, Answer{Approve: true, Scope: Once}},
		{"outside: Backspace takes the y back", outside, keys(late, "y", "backspace", "enter"), false, Answer{}},
		{"outside: the settle time ends, then y Enter", outside, join(keys(0, "y"), keys(late, "y", "enter")), true, Answer{Approve: true, Scope: Once}},
		{"outside: s is no key here", outside, keys(late, "s", "a", "p"), false, Answer{}},
		{"outside: n denies", outside, keys(late, "y", "n"), true, Answer{}},
		{"outside: Esc denies", outside, keys(late, "esc"), true, Answer{}},
		{"outside: Ctrl-C denies", outside, keys(late, "ctrl+c"), true, Answer{}},
		{"outside: Ctrl-D denies", outside, keys(late, "ctrl+d"), true, Answer{}},
		{"outside: e switches nothing", outside, keys(late, "e", "y", "enter"), true, Answer{Approve: true, Scope: Once}},
		{"ordinary: one key, at once", ordinary, keys(0, "s"), true, Answer{Approve: true, Scope: Session}},
		{"ordinary: upper case too", ordinary, keys(0, "P"), true, Answer{Approve: true, Scope: Project}},
		{"ordinary: y is once", ordinary, keys(0, "y"), true, Answer{Approve: true, Scope: Once}},
		{"ordinary: N denies", ordinary, keys(0, "N"), true, Answer{}},
		{"ordinary: a scope not offered is no key", twoOnly, keys(0, "p", "a"), false, Answer{}},
		{"ordinary: e holds the prefix", ordinary, keys(0, "e", "p"), true, Answer{Approve: true, Scope: Project, Prefix: true}},
		{"ordinary: e twice holds the line", ordinary, keys(0, "e", "e", "s"), true, Answer{Approve: true, Scope: Session}},
		{"ordinary: once never holds a prefix", ordinary, keys(0, "e", "y"), true, Answer{Approve: true, Scope: Once}},
		{"ordinary: no prefixes, e is no key", twoOnly, keys(0, "e", "s"), true, Answer{Approve: true, Scope: Session}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Open(tt.q, t0, OutsideSettle)
			var got Answer
			answered := false
			for _, s := range tt.steps {
				if got, answered = m.Key(s.key, t0.Add(s.at)); answered {
					break
				}
			}
			if answered != tt.answered || got != tt.want {
				t.Errorf("answered %v %+v, want %v %+v", answered, got, tt.answered, tt.want)
			}
		})
	}
}

// The phase an OUTSIDE dialog's last line shows.
func TestPhase(t *testing.T) {
	m := Open(outside, t0, 0) // 0 is OutsideSettle
	if p := m.Phase(t0.Add(OutsideSettle - time.Millisecond)); p != Waiting {
		t.Errorf("before the settle time: %v, want Waiting", p)
	}
	after := t0.Add(OutsideSettle)
	if p := m.Phase(after); p != Listening {
		t.Errorf("at the settle time: %v, want Listening", p)
	}
	m.Key("y", after)
	if p := m.Phase(after); p != Armed {
		t.Errorf("after y: %v, want Armed", p)
	}
	m.Key("backspace", after)
	if p := m.Phase(after); p != Listening {
		t.Errorf("after Backspace: %v, want Listening", p)
	}
}

// A prefix is offered only with a scope that would keep it, never for a
// question answered once only.
func TestOffersPrefix(t *testing.T) {
	tests := []struct {
		q    Question
		want bool
	}{
		{ordinary, true},
		{Question{Scopes: []string{Once}, Prefixes: []string{"go test …"}}, false},
		{Question{Outside: true, Scopes: []string{Once, Session}, Prefixes: []string{"go test …"}}, false},
		{twoOnly, false},
	}
	for _, tt := range tests {
		if got := OffersPrefix(tt.q); got != tt.want {
			t.Errorf("OffersPrefix(%+v) = %v, want %v", tt.q, got, tt.want)
		}
	}
}

// The menu says what s, p and a hold, in each face's spelling, and shows
// a prefix escaped.
func TestMenu(t *testing.T) {
	m := Open(ordinary, t0, 0)
	tests := []struct {
		sp   Spelling
		e    bool
		want string
	}{
		{Packed, false, "[y]once [s]ession [p]roject [a]lways [n]o  · [e] hold go test … instead"},
		{Packed, true, "hold go test …: [y]once [s]ession [p]roject [a]lways [n]o  · [e] this line only"},
		{Spaced, true, "hold go test …: [y] once   [s] session   [p] project   [a] always   [n] no   · [e] this line only"},
		{Spaced, false, "[y] once   [s] session   [p] project   [a] always   [n] no   · [e] hold go test … instead"},
	}
	for _, tt := range tests {
		if m.Holding() != tt.e {
			m.Key("e", t0)
		}
		if got := m.Menu(tt.sp); got != tt.want {
			t.Errorf("menu:\n got %q\nwant %q", got, tt.want)
		}
	}
	evil := Open(Question{Scopes: []string{Once, Session}, Prefixes: []string{"go \x1b[2J"}}, t0, 0)
	if got := evil.Menu(Packed); got != `[y]once [s]ession [n]o  · [e] hold go \x1b[2J instead` {
		t.Errorf("an escape in a prefix reached the menu: %q", got)
	}
}
