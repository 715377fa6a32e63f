package bar

import (
	"errors"
	"fmt"

	"github.com/wisp-sh/wisp/pending"
)

// menuClick acts on a menu item; it reports whether the person quit.
func (b *Bar) menuClick(key string) (quit bool) {
	switch key {
	case KeyQuit:
		if b.cfg.Quit != nil {
			b.cfg.Quit()
		}
		return true
	case KeyPause:
		b.paused = !b.paused
		b.syncBanners()
	case KeyAuditLog:
		b.open("the audit log", func() error { return b.cfg.Desktop.OpenAuditLog(b.cfg.AuditFile) })
	case KeyNotifications:
		b.open("the notification settings", b.cfg.Desktop.OpenNotificationSettings)
	default:
		b.requestClick(key)
	}
	b.render()
	return false
}

func (b *Bar) open(what string, open func() error) {
	if err := open(); err != nil {
		b.tell(fmt.Sprintf("could not open %s: %v", what, err))
	}
}

func (b *Bar) requestClick(key string) {
	c, ok := parseKey(key)
	if !ok {
		b.tell(fmt.Sprintf("the menu sent the unknown item %q; nothing was answered", key))
		return
	}
	if c.verb == verbDetails {
		b.details(c)
		return
	}
	b.answer(c)
}

// current returns the request c is about, if it still waits with the bytes
// that were shown; otherwise it tells the person why nothing happens.
func (b *Bar) current(c click) (pending.Pending, bool) {
	p, ok := b.find(c.id)
	if !ok {
		b.gone(c.id)
		return pending.Pending{}, false
	}
	if p.Binding != c.binding {
		b.notify(fmt.Sprintf("request changed: request %s is not what was shown (digest %s, now %s); nothing was answered, look at it again",
			c.id, pending.Digest(c.binding), pending.Digest(p.Binding)))
		return pending.Pending{}, false
	}
	return p, true
}

// answer writes the person's decision through pending, bound to the bytes
// shown. A repeated click writes nothing new.
func (b *Bar) answer(c click) {
	p, ok := b.current(c)
	if !ok {
		return
	}
	decision := pending.DecisionDeny
	if c.verb == verbApprove {
		decision = pending.DecisionApprove
	}
	a, err := b.cfg.Channel.Answer(p, decision, c.scope, By)
	switch {
	case errors.Is(err, pending.ErrGone):
		b.gone(c.id)
	case errors.Is(err, pending.ErrAlreadyAnswered):
		b.notify(fmt.Sprintf("already answered: request %s was answered first (%s, %s, by %s), and the first answer stands", c.id, a.Decision, a.Scope, a.By))
	case err != nil:
		b.notify(fmt.Sprintf("not answered: request %s: %v", c.id, err))
	default:
		b.markAnswered(p, a)
	}
}

// markAnswered withdraws the request's banner at once (servers keep resident
// banners after a click) and shows the request as answered.
func (b *Bar) markAnswered(p pending.Pending, a pending.Answer) {
	if _, ok := b.shown[p.Request.ID]; ok {
		b.withdraw(p.Request.ID)
	}
	b.answered[p.Request.ID] = p.Binding
	b.answers[p.Request.ID] = a
	for i := range b.list {
		if b.list[i].Request.ID == p.Request.ID {
			b.list[i].Answered = true
		}
	}
	b.tell(fmt.Sprintf("%s by %s: %s", verbed(a), visible(a.By), line(p.Request)))
	b.noticeAbout = p.Request.ID
}

func verbed(a pending.Answer) string {
	if a.Decision == pending.DecisionApprove {
		return "approved " + a.Scope
	}
	return "denied"
}
