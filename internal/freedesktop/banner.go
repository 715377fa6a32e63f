package freedesktop

import (
	"errors"
	"fmt"
	"strings"

	"github.com/godbus/dbus/v5"
)

// Banner is one notification wisp shows for a request.
type Banner struct {
	ID      string // the request id; Show and Withdraw are keyed by it
	Title   string // the summary line, plain text
	Body    string // plain text; escaped where the server reads markup
	Actions []Action
	// Category is the optional category hint (say "x-wisp.approval");
	// empty sends none.
	Category string
	// Icon is an optional icon name or file:// URI; empty sends none.
	Icon string
	// Urgency is the urgency hint: UrgencyCritical for what may not wait
	// (a request to run outside the sandbox).
	Urgency Urgency
	// Resident asks the server to keep the banner after a click.
	Resident bool
	// Expire lets the server's default timeout close the banner (a notice);
	// without it the banner stays until it is withdrawn or dismissed.
	Expire bool
	// Serial is the caller's number for this banner, reported back in the
	// Events about it; 0 when unused.
	Serial uint64
}

// Urgency is a banner's urgency, as the specification numbers it.
type Urgency byte

// The urgency levels: critical banners stay until acted on (dunst, GNOME).
const (
	UrgencyLow      Urgency = 0
	UrgencyNormal   Urgency = 1
	UrgencyCritical Urgency = 2
)

// Action is one button: Key comes back in the event, Label is shown. The key
// "default" is the click on the banner's body, not a button.
type Action struct {
	Key, Label string
}

// DefaultAction is the action key servers send for a click on the banner's
// body. The bar maps it to "open details", never to an approval.
const DefaultAction = "default"

// Event is what the person did to a banner this Notifier posted.
type Event struct {
	ID     string // the request id of the banner
	Action string // the action's key; "" when the banner closed
	Closed bool
	Reason uint32 // why it closed: ReasonExpired, ReasonDismissed, ...
	Serial uint64 // the Serial of the banner last shown in that notification
}

// Reasons a banner closed, as org.freedesktop.Notifications numbers them.
const (
	ReasonExpired   uint32 = 1 // its timeout ran out
	ReasonDismissed uint32 = 2 // the person dismissed it
	ReasonClosed    uint32 = 3 // a CloseNotification call, not this Notifier's
	ReasonUndefined uint32 = 4
)

// ErrInvalidBanner is wrapped by Show's errors for a banner it cannot post.
var ErrInvalidBanner = errors.New("invalid banner")

// The fixed parts of every Notify call.
const (
	appName       = "wisp"
	expireNever   = int32(0)
	expireDefault = int32(-1)
	capActions    = "actions"
	capBodyMarkup = "body-markup"
)

func (b Banner) validate() error {
	if b.ID == "" {
		return fmt.Errorf("%w: it has no request id", ErrInvalidBanner)
	}
	seen := map[string]bool{}
	for _, a := range b.Actions {
		if a.Key == "" {
			return fmt.Errorf("%w: request %s has an action without a key (label %q)", ErrInvalidBanner, b.ID, a.Label)
		}
		if seen[a.Key] {
			return fmt.Errorf("%w: request %s has the action key %q twice", ErrInvalidBanner, b.ID, a.Key)
		}
		seen[a.Key] = true
	}
	return nil
}

// flatActions lays the actions out as the wire wants them: key, label, ...
func (b Banner) flatActions() []string {
	flat := make([]string, 0, 2*len(b.Actions))
	for _, a := range b.Actions {
		flat = append(flat, a.Key, a.Label)
	}
	return flat
}

func (b Banner) hints() map[string]dbus.Variant {
	hints := map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(b.Urgency))}
	if b.Resident {
		hints["resident"] = dbus.MakeVariant(true)
	}
	if b.Category != "" {
		hints["category"] = dbus.MakeVariant(b.Category)
	}
	return hints
}

func (b Banner) expireTimeout() int32 {
	if b.Expire {
		return expireDefault
	}
	return expireNever
}

// markupEscaper turns plain text into the markup subset servers accept, so
// a "<" in a command line is shown, not parsed as the start of a tag.
var markupEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// bodyFor returns the body as the server should receive it.
func (b Banner) bodyFor(markup bool) string {
	if markup {
		return markupEscaper.Replace(b.Body)
	}
	return b.Body
}
