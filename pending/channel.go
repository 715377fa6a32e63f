package pending

import (
	"crypto/rand"
	"io"
	"path/filepath"
	"time"
)

// DefaultTimeout is how long a request waits when the channel is given no
// other timeout (config's approval.timeoutSeconds default).
const DefaultTimeout = 10 * time.Minute

// DefaultSettle is how long a watcher gathers further events after it has
// rescanned, so a burst of files costs one rescan.
const DefaultSettle = 25 * time.Millisecond

// Channel is the pending folder, as one side of the channel sees it.
type Channel struct {
	// Dir is the pending folder (config.Home.PendingDir()).
	Dir string
	// Now is the clock for requestedAt, expiresAt, answeredAt and expiry.
	Now func() time.Time
	// Timeout is how long a filed request waits before it expires.
	Timeout time.Duration
	// Settle is how long Watch gathers events into one rescan.
	Settle time.Duration
	// OnRefused hears of every file refused: on the requester's side a bad
	// answer (which is removed; the gate audits it), on a face's side a
	// request that cannot be listed. It may be nil.
	OnRefused func(file string, reason error)

	random io.Reader                 // the source of ids
	self   func() (Requester, error) // names the requester
	gone   func(Requester) bool      // tells a stale request
}

// Option sets one of a Channel's settings in New.
type Option func(*Channel)

// WithClock sets the clock.
func WithClock(now func() time.Time) Option { return func(c *Channel) { c.Now = now } }

// WithTimeout sets how long a filed request waits.
func WithTimeout(d time.Duration) Option { return func(c *Channel) { c.Timeout = d } }

// WithSettle sets how long Watch gathers a burst of events.
func WithSettle(d time.Duration) Option { return func(c *Channel) { c.Settle = d } }

// WithRefusals sets the callback that hears of refused files.
func WithRefusals(fn func(file string, reason error)) Option {
	return func(c *Channel) { c.OnRefused = fn }
}

// WithIDSource sets where request ids come from (crypto/rand by default).
// Only tests change it, to know an id before it is filed.
func WithIDSource(r io.Reader) Option { return func(c *Channel) { c.random = r } }

// New returns the channel over the pending folder dir. It touches nothing
// on disk: the folder is created (0700) by the first File or Watch.
func New(dir string, opts ...Option) *Channel {
	c := &Channel{Dir: dir, Now: time.Now, Timeout: DefaultTimeout, Settle: DefaultSettle, random: rand.Reader, self: self, gone: requesterGone}
	for _, opt := range opts {
		opt(c)
	}
	return c
}

func (c *Channel) requestPath(id string) string { return filepath.Join(c.Dir, requestName(id)) }
func (c *Channel) answerPath(id string) string  { return filepath.Join(c.Dir, answerName(id)) }

func (c *Channel) now() time.Time { return c.Now().UTC() }

func (c *Channel) refused(file string, reason error) {
	if c.OnRefused != nil {
		c.OnRefused(file, reason)
	}
}
