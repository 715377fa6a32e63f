package bar

import (
	"fmt"
	"slices"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// DefaultMaxShown is how many requests the menu lists; the rest are
// counted in one "… and N more" item, so the menu stays usable with a
// thousand waiting.
const DefaultMaxShown = 10

// Menu is what the tray shows.
type Menu struct {
	Count   int    // requests waiting for an answer
	Title   string // "" with none waiting, else the count
	Tooltip string
	Items   []Item
}

// Item is one menu entry. A separator has only Separator set.
type Item struct {
	Key       string // what a click does; "" for a label that does nothing
	Label     string
	Tooltip   string
	Disabled  bool
	Checkbox  bool
	Checked   bool
	Separator bool
	Children  []Item
}

// View is the state the menu and the banners are computed from.
type View struct {
	Pending  []pending.Pending // newest first, as pending lists them
	Now      time.Time
	Home     string // the person's home directory, shown as "~"
	MaxShown int    // 0 means DefaultMaxShown
	Paused   bool   // banners paused
	// BannersOff says why no banners can be shown ("" when they can).
	BannersOff string
	// CanEnable offers "Enable notifications…" (macOS, when refused).
	CanEnable bool
	// Notice is the outcome of the last click worth telling, or a problem.
	Notice string
	// Answers are the answers lying beside answered requests, by id.
	Answers map[string]pending.Answer
}

// BuildMenu computes the menu for v.
func BuildMenu(v View) Menu {
	waiting := waitingCount(v.Pending)
	m := Menu{Count: waiting, Tooltip: tooltip(waiting)}
	if waiting > 0 {
		m.Title = fmt.Sprint(waiting)
	}
	m.Items = append(m.Items, Item{Label: header(waiting), Disabled: true})
	if v.Notice != "" {
		m.Items = append(m.Items, Item{Label: shorten(v.Notice, 80), Tooltip: v.Notice, Disabled: true})
	}
	m.Items = append(m.Items, requestItems(v)...)
	m.Items = append(m.Items, Item{Separator: true})
	m.Items = append(m.Items, footer(v)...)
	return m
}

func waitingCount(list []pending.Pending) int {
	n := 0
	for _, p := range list {
		if !p.Answered {
			n++
		}
	}
	return n
}

func header(n int) string {
	switch n {
	case 0:
		return "wisp: nothing waits for an answer"
	case 1:
		return "wisp: 1 request waits for an answer"
	default:
		return fmt.Sprintf("wisp: %d requests wait for an answer", n)
	}
}

func tooltip(n int) string {
	if n == 0 {
		return "wisp: nothing waiting"
	}
	return fmt.Sprintf("wisp: %d waiting", n)
}

func requestItems(v View) []Item {
	limit := v.MaxShown
	if limit <= 0 {
		limit = DefaultMaxShown
	}
	shown := v.Pending[:min(limit, len(v.Pending))]
	items := make([]Item, 0, len(shown)+1)
	for _, p := range shown {
		items = append(items, requestItem(p, v))
	}
	if rest := len(v.Pending) - len(shown); rest > 0 {
		items = append(items, Item{
			Label: fmt.Sprintf("… and %d more", rest), Disabled: true,
			Tooltip: "the oldest are not listed here; run `wisp approvals pending` to see them all",
		})
	}
	return items
}

// requestItem is one request: its line, level, folder and age, with the
// answers it offers beneath.
func requestItem(p pending.Pending, v View) Item {
	r := p.Request
	label := fmt.Sprintf("%s · %s · %s · %s", line(r), r.Level,
		shortenLeft(visible(Folder(r.Cwd, v.Home)), maxFolderRunes), age(v.Now, r.RequestedAt))
	if p.Answered {
		return answeredItem(label, v.Answers[r.ID], v.Now)
	}
	return Item{Label: label, Tooltip: visible(r.Command), Children: answerItems(p)}
}

// answeredItem is a request answered and not yet taken: it says what the
// answer was and who gave it, so the menu never offers what is decided.
func answeredItem(label string, a pending.Answer, now time.Time) Item {
	if a.Decision == "" {
		return Item{Label: label + " · answered", Disabled: true, Tooltip: "answered; wisp has not taken the answer yet"}
	}
	what := verbed(a) + " by " + visible(a.By)
	return Item{Label: label + " · " + what, Disabled: true,
		Tooltip: fmt.Sprintf("%s %s; wisp has not taken the answer yet", what, age(now, a.AnsweredAt))}
}

// answerItems are the request's submenu: the approvals it offers, Deny,
// and the details.
func answerItems(p pending.Pending) []Item {
	items := []Item{{Label: "digest " + pending.Digest(p.Binding) + " · asked by wisp " + p.Request.Face, Disabled: true}}
	for _, scope := range menuScopes {
		if slices.Contains(p.Request.Scopes, scope) {
			items = append(items, Item{Key: requestKey(verbApprove, p, scope), Label: scopeLabel(p.Request, scope)})
		}
	}
	return append(items,
		Item{Key: requestKey(verbDeny, p, ""), Label: "Deny"},
		Item{Key: requestKey(verbDetails, p, ""), Label: "Details…"},
	)
}

// menuScopes are the scopes a request's submenu offers, in its order: the
// exact line's, then its prefix's.
var menuScopes = append(slices.Clone(pending.AllScopes), pending.PrefixScopes...)

func footer(v View) []Item {
	var items []Item
	if v.BannersOff != "" {
		items = append(items, Item{Label: "Banners off: " + shorten(v.BannersOff, 70), Tooltip: v.BannersOff, Disabled: true})
	}
	if v.CanEnable {
		items = append(items, Item{Key: KeyNotifications, Label: "Enable notifications…"})
	}
	return append(items,
		Item{Key: KeyAuditLog, Label: "Open audit log"},
		Item{Key: KeyPause, Label: "Pause banners", Checkbox: true, Checked: v.Paused},
		Item{Key: KeyQuit, Label: "Quit"},
	)
}
