package bar

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/newest"
	"github.com/wisp-sh/wisp/pending"
)

// By is how wisp-bar signs its answers.
const By = "wisp-bar"

// NoticeID is the id of the one banner that tells the outcome of a click
// (a request gone, an answer already there); each notice replaces the last.
const NoticeID = "wisp-bar-notice"

// ageRefresh is how often the menu's ages are brought up to date while
// something waits. It re-renders the menu only; the folder is never polled.
const ageRefresh = 30 * time.Second

// Tray shows the menu. SetMenu is called from the Bar's loop only.
type Tray interface {
	SetMenu(Menu)
}

// Face is the platform's banners: freedesktop notifications on Linux,
// UNUserNotificationCenter on macOS.
type Face interface {
	// Show raises the banner, or replaces the one shown for b.ID.
	Show(b Banner) error
	// Withdraw removes the banner for a request id; an id with no banner
	// is not an error.
	Withdraw(id string) error
	// ShowDetails shows everything about one request, with its buttons.
	ShowDetails(d Details) error
	// Events reports the person's clicks and dismissals.
	Events() <-chan BannerEvent
}

// Desktop does what the menu's other items ask of the system.
type Desktop interface {
	// OpenAuditLog shows the audit log at file as a person reads it (the
	// summary `wisp logs` prints), not its raw JSON lines.
	OpenAuditLog(file string) error
	OpenNotificationSettings() error
}

// Config is what a Bar is made of. Channel, Tray and Desktop are required.
type Config struct {
	Channel *pending.Channel
	Tray    Tray
	Desktop Desktop
	// Face raises banners; nil means none, and BannersOff says why.
	Face       Face
	BannersOff string
	AuditFile  string
	Home       string // the person's home directory, shown as "~"
	MaxShown   int
	Now        func() time.Time
	Log        func(msg string) // hears notices and problems; may be nil
	Quit       func()           // called when the person picks Quit
	// WatchRetry is how long after a failed watch it is tried again; 0
	// means DefaultWatchRetry.
	WatchRetry time.Duration
}

// DefaultWatchRetry is how long wisp-bar waits before watching the folder
// again after the watch failed.
const DefaultWatchRetry = 5 * time.Second

// Bar is the helper's state and loop.
type Bar struct {
	cfg Config

	clicks  chan string
	status  *newest.Value[BannerStatus] // the newest banner status reported
	refresh chan struct{}
	lists   *newest.Value[[]pending.Pending] // the newest list Watch gave
	ended   chan struct{}                    // a requester ended
	exits   *exitWatch                       // nil where the system cannot tell

	// Owned by the loop.
	list   []pending.Pending
	shown  map[string]shownBanner
	posted map[uint64]posted // banners shown for requests still listed
	serial uint64            // the last banner's serial
	// noticeShown: the notice banner may be on screen.
	noticeShown   bool
	dismissed     map[string]string         // request id -> binding of the banner dismissed
	answered      map[string]string         // request id -> binding this Bar answered
	answers       map[string]pending.Answer // answers beside the requests listed
	finished      map[string]pending.Answer // answers of requests no longer listed
	finishedOrder []string                  // finished's ids, oldest first
	paused        bool
	off           BannerStatus
	notice        string
	// noticeAbout is the request an answer's notice tells of: the notice
	// leaves the menu with the request, once wisp took the answer.
	noticeAbout string
	// watchProblem says why the folder is not watched, until a retry.
	watchProblem string
	lastMenu     *Menu
}

// BannerStatus says whether banners can be shown, and if not why.
type BannerStatus struct {
	Off       string // why banners are off; "" when they are on
	CanEnable bool   // the person can turn them on (macOS settings)
}

// New makes a Bar; Run starts it.
func New(cfg Config) *Bar {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Bar{
		cfg:       cfg,
		clicks:    make(chan string, 64),
		status:    newest.New[BannerStatus](),
		refresh:   make(chan struct{}, 1),
		lists:     newest.New[[]pending.Pending](),
		ended:     make(chan struct{}, 1),
		shown:     map[string]shownBanner{},
		posted:    map[uint64]posted{},
		dismissed: map[string]string{},
		answered:  map[string]string{},
		answers:   map[string]pending.Answer{},
		finished:  map[string]pending.Answer{},
		off:       BannerStatus{Off: cfg.BannersOff},
	}
}

// Click reports a click on the menu item with key. It never blocks: a
// click that finds 64 others queued is dropped, as a busy menu drops it.
func (b *Bar) Click(key string) {
	select {
	case b.clicks <- key:
	default:
	}
}

// SetBannerStatus reports that banners became available or not. It never
// blocks: the loop takes the newest status.
func (b *Bar) SetBannerStatus(s BannerStatus) { b.status.Put(s) }

// Refresh asks for the menu to be recomputed (the menu was opened: the
// ages shown may be old).
func (b *Bar) Refresh() {
	select {
	case b.refresh <- struct{}{}:
	default:
	}
}

// Run watches the pending folder and serves clicks until ctx is done or
// the person quits. When the folder cannot be watched (no inotify instance
// left, an unsafe folder) the menu says so, the watch is retried every
// WatchRetry, and meanwhile the folder is listed at each retry so the menu
// still shows what waits. When Run returns, its banners are withdrawn and
// the watcher has stopped.
func (b *Bar) Run(ctx context.Context) error {
	w := &watching{errs: make(chan error, 1)}
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer func() { stopWatch(); w.wg.Wait() }() // nothing touches the folder after Run
	b.startWatch(watchCtx, w)
	ticker := time.NewTicker(ageRefresh)
	defer ticker.Stop()
	defer b.withdrawAll() // nobody can answer this Bar's banners once it is gone
	b.exits = newExitWatch(b.requesterEnded)
	if b.exits != nil {
		defer b.exits.stopAll()
	}
	b.render()
	return b.loop(ctx, watchCtx, w, ticker.C)
}

// watching is the folder's watcher goroutine, restarted after an error.
type watching struct {
	errs  chan error
	wg    sync.WaitGroup
	retry <-chan time.Time
}

func (b *Bar) startWatch(ctx context.Context, w *watching) {
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		w.errs <- b.cfg.Channel.Watch(ctx, b.received)
	}()
}

// watchFailed says what is wrong, lists the folder once where it is safe
// to, and arms the retry.
func (b *Bar) watchFailed(err error, w *watching) {
	b.watchProblem = fmt.Sprintf("wisp-bar cannot watch the pending folder (it tries again every %s): %v", b.retryEvery(), err)
	if b.cfg.Log != nil {
		b.cfg.Log(b.watchProblem)
	}
	if !errors.Is(err, pending.ErrUnsafeFolder) {
		if list, lerr := b.cfg.Channel.List(); lerr == nil {
			b.received(list)
		}
	}
	w.retry = time.After(b.retryEvery())
	b.render()
}

func (b *Bar) retryEvery() time.Duration {
	if b.cfg.WatchRetry > 0 {
		return b.cfg.WatchRetry
	}
	return DefaultWatchRetry
}

func (b *Bar) loop(ctx, watchCtx context.Context, w *watching, tick <-chan time.Time) error {
	events := b.faceEvents()
	for {
		select {
		case <-ctx.Done():
			return nil
		case err := <-w.errs:
			if err != nil && watchCtx.Err() == nil {
				b.watchFailed(err, w)
			}
		case <-w.retry:
			w.retry, b.watchProblem = nil, ""
			b.startWatch(watchCtx, w)
		case <-b.lists.Ready():
			b.update()
		case key := <-b.clicks:
			if b.menuClick(key) {
				return nil
			}
		case ev, ok := <-events:
			if !ok {
				events = nil
				continue
			}
			b.bannerEvent(ev)
		case <-b.status.Ready():
			b.setStatus(b.status.Take())
		case <-b.refresh:
			b.render()
		case <-b.ended:
			b.relist()
		case <-tick:
			if b.exits == nil && len(b.list) > 0 {
				b.relist() // no word of a requester's death here but a listing
			}
			b.render()
		}
	}
}

func (b *Bar) faceEvents() <-chan BannerEvent {
	if b.cfg.Face == nil {
		return nil
	}
	return b.cfg.Face.Events()
}

// received is Watch's callback: it keeps only the newest list, so a slow
// loop never holds the watcher up.
func (b *Bar) received(list []pending.Pending) { b.lists.Put(list) }

func (b *Bar) update() {
	b.list = slices.Clone(b.lists.Take()) // the loop marks answers in its copy; Watch keeps its own
	b.forgetGone(b.dismissed)
	b.forgetGone(b.answered)
	b.forgetPosted()
	b.dropNoticeOfGone()
	b.rememberFinished()
	b.readAnswers()
	b.watchRequesters()
	b.syncBanners()
	b.render()
}

// readAnswers reads the answers of the requests listed as answered, for
// the menu to say what they were.
func (b *Bar) readAnswers() {
	b.answers = map[string]pending.Answer{}
	for _, p := range b.list {
		if !p.Answered {
			continue
		}
		if a, ok := b.cfg.Channel.AnswerOf(p); ok {
			b.answers[p.Request.ID] = a
		}
	}
}

// forgetGone drops the entries of requests that no longer wait.
func (b *Bar) forgetGone(byID map[string]string) {
	for id := range byID {
		if _, ok := b.find(id); !ok {
			delete(byID, id)
		}
	}
}

func (b *Bar) view() View {
	return View{
		Pending: b.list, Now: b.cfg.Now(), Home: b.cfg.Home, MaxShown: b.cfg.MaxShown,
		Paused: b.paused, BannersOff: b.off.Off, CanEnable: b.off.CanEnable, Notice: cmp.Or(b.watchProblem, b.notice),
		Answers: b.answers,
	}
}

// render hands the menu to the tray when it changed.
func (b *Bar) render() {
	m := BuildMenu(b.view())
	if b.lastMenu != nil && reflect.DeepEqual(*b.lastMenu, m) {
		return
	}
	b.lastMenu = &m
	b.cfg.Tray.SetMenu(m)
}

func (b *Bar) find(id string) (pending.Pending, bool) {
	for _, p := range b.list {
		if p.Request.ID == id {
			return p, true
		}
	}
	return pending.Pending{}, false
}

// dropNoticeOfGone takes an answer's notice out of the menu once its
// request is no longer listed: a grey line about a request that is gone
// only says something stale.
func (b *Bar) dropNoticeOfGone() {
	if b.noticeAbout == "" {
		return
	}
	if _, listed := b.find(b.noticeAbout); !listed {
		b.notice, b.noticeAbout = "", ""
	}
}

func (b *Bar) tell(msg string) {
	b.notice, b.noticeAbout = msg, ""
	if b.cfg.Log != nil {
		b.cfg.Log(msg)
	}
}

// setStatus takes a change of what banners can do. Off, every banner is
// taken as gone (a notification server that left took them with it), so
// that they are raised again, on the next server, once banners are back.
func (b *Bar) setStatus(s BannerStatus) {
	b.off = s
	if s.Off != "" {
		b.withdrawAll()
	}
	b.syncBanners()
	b.render()
}
