package bar

import (
	"strings"

	"github.com/wisp-sh/wisp/pending"
)

// What a menu item or a banner button does. A menu item's Key is the verb,
// and for a request also its id, the binding of the bytes it showed and,
// for an approval, the scope: "approve:<id>:<binding>:<scope>".
const (
	verbApprove = "approve"
	verbDeny    = "deny"
	verbDetails = "details"

	KeyAuditLog      = "audit-log"
	KeyPause         = "pause"
	KeyQuit          = "quit"
	KeyNotifications = "enable-notifications"
)

// Banner action keys: what a banner's buttons send back.
const (
	ActionApprove = "approve"
	ActionDeny    = "deny"
	// ActionDetails is the click on the banner's body (freedesktop's
	// "default"): it opens details, never approves.
	ActionDetails = "default"
)

// click is a parsed key about one request.
type click struct {
	verb, id, binding, scope string
}

func requestKey(verb string, p pending.Pending, scope string) string {
	key := verb + ":" + p.Request.ID + ":" + p.Binding
	if scope != "" {
		key += ":" + scope
	}
	return key
}

// parseKey reads a request key; ok is false for any other key.
func parseKey(key string) (click, bool) {
	parts := strings.Split(key, ":")
	if len(parts) < 3 || len(parts) > 4 {
		return click{}, false
	}
	c := click{verb: parts[0], id: parts[1], binding: parts[2]}
	if len(parts) == 4 {
		c.scope = parts[3]
	}
	switch {
	case c.verb == verbApprove && c.scope != "":
	case (c.verb == verbDeny || c.verb == verbDetails) && c.scope == "":
	default:
		return click{}, false
	}
	return c, true
}
