package bar

import (
	"net"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/pending"
)

// A network request (pending.KindNetwork) asks whether a confined command
// may reach one host through wisp's proxy: its banner says so in its own
// words, and its buttons allow rather than approve, since nothing runs.

// networkTitle is a network request's banner title, `wisp: allow network
// to HOST:PORT?`; ok is false for a request of another kind.
func networkTitle(r pending.Request) (string, bool) {
	host, port, _, ok := pending.NetworkTarget(r)
	if !ok {
		return "", false
	}
	return "wisp: allow network to " + visible(net.JoinHostPort(host, strconv.Itoa(port))) + "?", true
}

// networkScopeLabels name each scope for a network request.
var networkScopeLabels = map[string]string{
	pending.ScopeOnce:    "Allow once",
	pending.ScopeSession: "Allow for this session",
	pending.ScopeProject: "Allow for this project",
	pending.ScopeAlways:  "Allow always",
}

// scopeLabel is how the banner and the menu offer scope for r.
func scopeLabel(r pending.Request, scope string) string {
	if r.Kind == pending.KindNetwork {
		return networkScopeLabels[scope]
	}
	if base, ok := strings.CutSuffix(scope, pending.PrefixSuffix); ok {
		return prefixScopeLabels[base] + ", holding " + visible(shorten(pending.HeldPrefix(r), 60))
	}
	return scopeLabels[scope]
}
