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

// nextSerial numbers one banner about to be shown. The face reports it
// back with every event about that banner, so an event is matched to the
// banner it is about, not merely to its request: a request's banner and
// the Details banner that replaced it are told apart.
func (b *Bar) nextSerial(p pending.Pending) uint64 {
	b.serial++
	b.posted[b.serial] = posted{id: p.Request.ID, binding: p.Binding}
	return b.serial
}

func (b *Bar) raise(p pending.Pending) {
	banner := BannerFor(p, b.cfg.Home)
	banner.Serial = b.nextSerial(p)
	if err := b.cfg.Face.Show(banner); err != nil {
		b.tell(fmt.Sprintf("the banner for request %s could not be shown: %v", p.Request.ID, err))
		return
	}
	b.shown[p.Request.ID] = shownBanner{binding: p.Binding, group: group(p.Request), serial: banner.Serial}
}

func (b *Bar) withdraw(id string) {
	delete(b.shown, id)
	if err := b.cfg.Face.Withdraw(id); err != nil {
		b.tell(fmt.Sprintf("the banner for request %s could not be withdrawn: %v", id, err))
	}
}

// withdrawAll withdraws every banner this Bar shows, Details and the
// notice included.
func (b *Bar) withdrawAll() {
	if b.cfg.Face == nil {
		return
	}
	for id := range b.shown {
		b.withdraw(id)
	}
	if b.noticeShown {
		b.noticeShown = false
		b.cfg.Face.Withdraw(NoticeID)
	}
}

// forgetPosted drops what is known of banners whose request no longer
// waits: a click on one of them finds the request gone.
func (b *Bar) forgetPosted() {
	for serial, p := range b.posted {
		if _, ok := b.find(p.id); !ok {
			delete(b.posted, serial)
		}
	}
}

// bannerEvent acts on a click on a banner, or its dismissal. The answer is
// bound to the bytes that banner showed.
func (b *Bar) bannerEvent(ev BannerEvent) {
	if ev.ID == NoticeID {
		if ev.Closed {
			b.noticeShown = false
		}
		return
	}
	if ev.Closed {
		b.closed(ev)
		return
	}
	binding, ok := b.bindingShown(ev)
	if !ok {
		b.lateBannerEvent(ev)
		b.render()
		return
	}
	switch ev.Action {
	case ActionApprove:
		b.answer(click{verb: verbApprove, id: ev.ID, binding: binding, scope: pending.ScopeOnce})
	case ActionDeny:
		b.answer(click{verb: verbDeny, id: ev.ID, binding: binding})
	case ActionDetails:
		b.details(click{verb: verbDetails, id: ev.ID, binding: binding})
	default:
		b.tell(fmt.Sprintf("a banner sent the unknown action %q; nothing was answered", ev.Action))
	}
	b.render()
}

// closed handles a banner the person dismissed (or the server closed). It
// counts only for the banner that stands for the request now: the close of
// a banner that Details replaced changes nothing.
func (b *Bar) closed(ev BannerEvent) {
	s, shown := b.shown[ev.ID]
	if !shown || (ev.Serial != 0 && ev.Serial != s.serial) {
		return
	}
	delete(b.shown, ev.ID)
	b.dismissed[ev.ID] = s.binding
}

// bindingShown is the binding of the bytes the clicked banner showed: the
// banner the event names by its serial, or, from a face that names none,
// the one standing for the request.
func (b *Bar) bindingShown(ev BannerEvent) (string, bool) {
	if ev.Serial != 0 {
		p, ok := b.posted[ev.Serial]
		return p.binding, ok && p.id == ev.ID
	}
	s, ok := b.shown[ev.ID]
	return s.binding, ok
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
	d := DetailsFor(p, b.cfg.Now(), b.cfg.Home)
	d.Serial = b.nextSerial(p)
	if err := b.cfg.Face.ShowDetails(d); err != nil {
		b.tell(fmt.Sprintf("the details of request %s could not be shown: %v", c.id, err))
		return
	}
	b.shown[c.id] = shownBanner{binding: p.Binding, group: group(p.Request), details: true, serial: d.Serial}
	delete(b.dismissed, c.id)
}

// notify tells the person the outcome of a click on a banner of its own,
// where banners can be shown, and in the menu.
func (b *Bar) notify(msg string) {
	b.tell(msg)
	if b.bannersOn() {
		title, body, _ := strings.Cut(msg, ": ")
		err := b.cfg.Face.Show(Banner{ID: NoticeID, Title: "wisp: " + title, Body: body})
		if err != nil && b.cfg.Log != nil {
			b.cfg.Log("the notice could not be shown: " + err.Error())
		}
		b.noticeShown = err == nil
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
