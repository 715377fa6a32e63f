package bar

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/pending"
)

// bannersOn reports whether banners may be raised now.
func (b *Bar) bannersOn() bool { return b.cfg.Face != nil && b.off.Off == "" }

// syncBanners raises and withdraws banners so they match the list.
func (b *Bar) syncBanners() {
	if b.cfg.Face == nil {
		return
	}
	plan := planBanners(b.shown, b.dismissed, b.list, b.paused || !b.bannersOn())
	for _, id := range plan.withdraw {
		b.withdraw(id)
	}
	for _, p := range plan.raise {
		b.raise(p)
	}
}

func (b *Bar) raise(p pending.Pending) {
	if err := b.cfg.Face.Show(BannerFor(p, b.cfg.Home)); err != nil {
		b.tell(fmt.Sprintf("the banner for request %s could not be shown: %v", p.Request.ID, err))
		return
	}
	b.shown[p.Request.ID] = shownBanner{binding: p.Binding, group: group(p.Request)}
}

func (b *Bar) withdraw(id string) {
	delete(b.shown, id)
	if err := b.cfg.Face.Withdraw(id); err != nil {
		b.tell(fmt.Sprintf("the banner for request %s could not be withdrawn: %v", id, err))
	}
}

func (b *Bar) withdrawAll() {
	for id := range b.shown {
		b.withdraw(id)
	}
}

// bannerEvent acts on a click on a banner, or its dismissal. The answer is
// bound to the bytes that banner showed.
func (b *Bar) bannerEvent(ev BannerEvent) {
	if ev.ID == NoticeID {
		return
	}
	s, shown := b.shown[ev.ID]
	if ev.Closed {
		if shown {
			delete(b.shown, ev.ID)
			b.dismissed[ev.ID] = s.binding
		}
		return
	}
	if !shown {
		b.lateBannerEvent(ev)
		b.render()
		return
	}
	switch ev.Action {
	case ActionApprove:
		b.answer(click{verb: verbApprove, id: ev.ID, binding: s.binding, scope: pending.ScopeOnce})
	case ActionDeny:
		b.answer(click{verb: verbDeny, id: ev.ID, binding: s.binding})
	case ActionDetails:
		b.details(click{verb: verbDetails, id: ev.ID, binding: s.binding})
	default:
		b.tell(fmt.Sprintf("a banner sent the unknown action %q; nothing was answered", ev.Action))
	}
	b.render()
}

// details shows everything about the request, when it still is what was
// shown.
func (b *Bar) details(c click) {
	p, ok := b.current(c)
	if !ok {
		return
	}
	if b.cfg.Face == nil {
		b.tell("banners are off here (" + b.off.Off + "); the item's tooltip holds the whole line")
		return
	}
	if err := b.cfg.Face.ShowDetails(DetailsFor(p, b.cfg.Now(), b.cfg.Home)); err != nil {
		b.tell(fmt.Sprintf("the details of request %s could not be shown: %v", c.id, err))
		return
	}
	b.shown[c.id] = shownBanner{binding: p.Binding, group: group(p.Request), details: true}
	delete(b.dismissed, c.id)
}

// notify tells the person the outcome of a click on a banner of its own,
// where banners can be shown, and in the menu.
func (b *Bar) notify(msg string) {
	b.tell(msg)
	if b.bannersOn() {
		title, body, _ := strings.Cut(msg, ": ")
		if err := b.cfg.Face.Show(Banner{ID: NoticeID, Title: "wisp: " + title, Body: body}); err != nil && b.cfg.Log != nil {
			b.cfg.Log("the notice could not be shown: " + err.Error())
		}
	}
}

// lateBannerEvent handles a click on a banner already withdrawn: a server
// reporting one click twice, or a click in the instant before the banner
// went. Where this Bar answered the request, the click is answered again
// with the same binding, which writes nothing new (or says the first
// answer stands); otherwise the request is gone.
func (b *Bar) lateBannerEvent(ev BannerEvent) {
	binding, ok := b.answered[ev.ID]
	switch {
	case !ok:
		b.gone(ev.ID)
	case ev.Action == ActionApprove:
		b.answer(click{verb: verbApprove, id: ev.ID, binding: binding, scope: pending.ScopeOnce})
	case ev.Action == ActionDeny:
		b.answer(click{verb: verbDeny, id: ev.ID, binding: binding})
	}
}
