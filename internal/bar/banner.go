package bar

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// Banner is one notification for a request, keyed by the request id.
type Banner struct {
	ID      string
	Title   string
	Body    string
	Actions []BannerAction
	// Urgent asks for the most urgent banner the system offers, kept on
	// screen until it is answered: a request to run outside the sandbox.
	Urgent bool
	// Serial numbers this banner among all the Bar showed; the face
	// reports it back in each BannerEvent about it.
	Serial uint64
}

// BannerAction is one button: Key comes back in the BannerEvent.
type BannerAction struct {
	Key, Label string
}

// BannerEvent is what the person did to a banner: an action, or closing it.
type BannerEvent struct {
	ID     string
	Action string // ActionApprove, ActionDeny, ActionDetails; "" when closed
	Closed bool
	// Serial is the Serial of the banner the event is about, or 0 when the
	// face cannot tell (the event is then about the banner shown now).
	Serial uint64
}

// Details is everything about one request, for a person who asked to see
// more: Text holds every field, unshortened (but escaped).
type Details struct {
	ID      string
	Title   string
	Text    string
	Actions []BannerAction
	Urgent  bool   // as Banner.Urgent
	Serial  uint64 // as Banner.Serial
}

// BannerFor is the banner for p: the title of its kind, then the line, the
// folder, the first reason and the digest that `wisp approvals pending`
// shows, so the person can match the two.
func BannerFor(p pending.Pending, home string) Banner {
	r := p.Request
	body := []string{visible(r.Command), "in " + visible(Folder(r.Cwd, home))}
	if len(r.Reasons) > 0 {
		body = append(body, visible(r.Reasons[0]))
	}
	body = append(body, "digest "+pending.Digest(p.Binding))
	return Banner{ID: r.ID, Title: BannerTitle(r), Body: strings.Join(body, "\n"), Actions: bannerActions(r), Urgent: r.OutsideSandbox}
}

// bannerActions are Approve once (where offered) and Deny as buttons, and
// the body's click, which opens details.
func bannerActions(r pending.Request) []BannerAction {
	var actions []BannerAction
	if slices.Contains(r.Scopes, pending.ScopeOnce) {
		actions = append(actions, BannerAction{ActionApprove, scopeLabel(r, pending.ScopeOnce)})
	}
	return append(actions, BannerAction{ActionDeny, "Deny"}, BannerAction{ActionDetails, "Details"})
}

// DetailsFor is the whole of p, for the details view.
func DetailsFor(p pending.Pending, now time.Time, home string) Details {
	r := p.Request
	text := []string{visible(r.Command), "in " + visible(Folder(r.Cwd, home))}
	for _, reason := range r.Reasons {
		text = append(text, visible(reason))
	}
	text = append(text,
		fmt.Sprintf("risk %s · asked by wisp %s (process %d) · %s · expires %s", r.Level, visible(r.Face),
			r.Requester.PID, age(now, r.RequestedAt), r.ExpiresAt.Local().Format("15:04:05")),
		"offers "+strings.Join(r.Scopes, ", "),
		"request "+r.ID+" · digest "+pending.Digest(p.Binding),
		"binding "+p.Binding,
	)
	return Details{ID: r.ID, Title: BannerTitle(r), Text: strings.Join(text, "\n"), Actions: bannerActions(r), Urgent: r.OutsideSandbox}
}

// shownBanner is what a raised banner showed.
type shownBanner struct {
	binding string
	group   string
	details bool // shown because the person asked for details: kept while paused
	serial  uint64
}

// posted is what one banner showed, by its serial: a click on it answers
// for these bytes, whichever banner of the request stands now.
type posted struct {
	id, binding string
}

// bannerPlan is what to change so that the banners match the state.
type bannerPlan struct {
	raise    []pending.Pending
	withdraw []string
}

// planBanners compares the banners shown with the waiting requests. A
// banner stays while its request waits unanswered with the same bytes; one
// whose request changed is raised again. Paused, all are withdrawn but the
// details the person asked for. Nothing is raised while paused, for a
// request the person dismissed, for a request identical to one from the
// same requester that already has a banner, or past max banners standing.
func planBanners(shown map[string]shownBanner, dismissed map[string]string, list []pending.Pending, paused bool) bannerPlan {
	return planBannersUpTo(MaxBanners, shown, dismissed, list, paused)
}

// MaxBanners is how many banners may stand at once: past it, requests wait
// in the menu until a banner goes, so a burst of requests is never a flood
// of banners.
const MaxBanners = 5

func planBannersUpTo(max int, shown map[string]shownBanner, dismissed map[string]string, list []pending.Pending, paused bool) bannerPlan {
	var plan bannerPlan
	keep := map[string]bool{}
	groups := map[string]bool{}
	for _, p := range list {
		if s, ok := shown[p.Request.ID]; ok && s.binding == p.Binding && !p.Answered && (!paused || s.details) {
			keep[p.Request.ID], groups[s.group] = true, true
		}
	}
	for id := range shown {
		if !keep[id] {
			plan.withdraw = append(plan.withdraw, id)
		}
	}
	slices.Sort(plan.withdraw)
	if paused {
		return plan
	}
	for _, p := range slices.Backward(list) { // oldest first: the first filed gets the banner
		g := group(p.Request)
		if len(keep)+len(plan.raise) >= max {
			break
		}
		if keep[p.Request.ID] || p.Answered || groups[g] || dismissed[p.Request.ID] == p.Binding {
			continue
		}
		groups[g] = true
		plan.raise = append(plan.raise, p)
	}
	return plan
}

// group is what makes two requests identical for the banners: the same
// requester asking the same thing of the same kind in the same folder.
func group(r pending.Request) string {
	return fmt.Sprintf("%d/%s\x00%s\x00%s\x00%s\x00%s", r.Requester.PID, r.Requester.StartTime, r.Kind, r.Level, r.Cwd, r.Command)
}
