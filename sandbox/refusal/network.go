package refusal

import (
	"net"
	"slices"
	"strings"
)

// Network: a connection refused while the network is off for confined
// commands (commandPolicy.sandbox.allowNetwork false). With the network off
// the sandbox refuses every connection that does not go through wisp's
// proxy, so the refusal is named as the sandbox's, with the domain list as
// the way to open it (issue 28 item 4).
const Network Verdict = "network-off"

// RefusedSocket: a Unix socket the sandbox refused: socket(AF_UNIX) with
// EPERM where it cannot tell a command's own sockets from the person's, or
// a connect to one of the person's with EACCES (Landlock ABI 9), unless
// commandPolicy.sandbox.allowUnixSockets.
const RefusedSocket Verdict = "refused-socket"

// lineKind is what a counted errno line is about, read from the errno, the
// system call named before it and the path it names, never from words
// elsewhere on the line (issue 32 item 6: npm's EROFS line carries the
// registry's URL, and Go's socket refusal names a path under /tmp).
type lineKind int

const (
	aboutFile lineKind = iota
	aboutNetwork
	aboutSocket
)

// kindOf classifies a line holding errno e. A read-only file system is
// always about a file: no connection is refused with EROFS. A path named
// (not a URL, not /dev/tcp) makes it about that file, whatever else the
// line says. Only a line that names no file is read for a connection.
func kindOf(line, prev string, e *errnoText, head, tail string) (lineKind, []string) {
	if e.name == "Read-only file system" {
		return aboutFile, pathsOn(line, head, tail)
	}
	if p, ok := unixSocketPath(line, e); ok {
		return aboutSocket, p
	}
	paths := pathsOn(line, head, tail)
	switch {
	case len(paths) > 0:
		return aboutFile, paths
	case isNetwork(line), pythonConnect(prev):
		return aboutNetwork, nil
	case e.name == "Operation not permitted" && pythonSocket(prev):
		return aboutSocket, nil // socket.socket(AF_UNIX): only Unix sockets are refused with EPERM
	}
	return aboutFile, nil
}

// goUnixOps are Go's net errors for a Unix socket: "listen unixgram PATH:
// socket: …", "dial unix PATH: connect: …".
var goUnixOps = []string{"listen unix ", "listen unixgram ", "listen unixpacket ",
	"dial unix ", "dial unixgram ", "dial unixpacket "}

// unixSocketPath reads a refused Unix socket: Go's net error, or Python's
// socketserver ("Cannot create server (<class '…UnixStreamServer'>, PATH):
// [Errno 1] Operation not permitted"). It gives the socket's path when the
// line names one.
func unixSocketPath(line string, e *errnoText) ([]string, bool) {
	for _, op := range goUnixOps {
		i := strings.Index(line, op)
		if i < 0 {
			continue
		}
		rest := line[i+len(op):]
		p, _, ok := strings.Cut(rest, ": ")
		if !ok || !strings.HasPrefix(p, "/") {
			return nil, true
		}
		return []string{p}, true
	}
	if e.name == "Operation not permitted" && strings.Contains(line, "Unix") && strings.Contains(line, "Server'>, ") {
		_, rest, _ := strings.Cut(line, "Server'>, ")
		if p, _, ok := strings.Cut(rest, ")"); ok && strings.HasPrefix(p, "/") {
			return []string{p}, true
		}
		return nil, true
	}
	return nil, false
}

// pythonConnect: the traceback line before "PermissionError: [Errno 13]
// Permission denied" is a connect.
func pythonConnect(prev string) bool {
	return strings.Contains(prev, ".connect(") || strings.Contains(prev, "create_connection(")
}

// pythonSocket: the traceback line before is the socket's creation.
func pythonSocket(prev string) bool {
	return strings.Contains(prev, "socket.socket.__init__(") || strings.Contains(prev, "socket.socket(")
}

var networkWords = setOf("connect", "connectx", "connecting", "connection", "socket", "bind", "urlopen", "sendto", "sendmsg")

// isNetwork: a refused connection (curl's "Failed to connect to …", bash's
// "connect:" and /dev/tcp/…, nc's and ssh's "connect to …", git's URL). It
// is asked only of a line that names no file. Words inside a path
// ("/x/connect/f", "connector.go") do not count.
func isNetwork(line string) bool {
	for _, s := range []string{"://", "/dev/tcp/", "/dev/udp/"} {
		if strings.Contains(line, s) {
			return true
		}
	}
	for _, w := range strings.Fields(line) {
		w = strings.Trim(w, ":,;.()[]<>'\"")
		if !strings.ContainsAny(w, "/.") && networkWords(strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// hostMarkers precede a host's name in a refused connection's message.
var hostMarkers = []string{
	"Failed to connect to ",    // curl, git over HTTP
	"Could not resolve host: ", // curl
	"connect to host ",         // ssh
	"connectx to ",             // BSD nc
	"getaddrinfo EAI_AGAIN ",   // Node
}

// hostsOn names the hosts a refused connection's line names: a URL's host,
// or the word after one of hostMarkers.
func hostsOn(line string) []string {
	var hosts []string
	add := func(h string) {
		h = strings.Trim(h, "'\"`,;:()[]")
		if h != "" && !contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	for rest := line; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			break
		}
		rest = rest[i+3:]
		end := strings.IndexAny(rest, "/ '\"`")
		if end < 0 {
			end = len(rest)
		}
		add(hostOf(rest[:end]))
	}
	for _, m := range hostMarkers {
		if _, rest, ok := strings.Cut(line, m); ok {
			word, _, _ := strings.Cut(rest, " ")
			add(word)
		}
	}
	return hosts
}

// hostOf takes the host from a URL's authority (user@host:port).
func hostOf(authority string) string {
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		authority = authority[i+1:]
	}
	if strings.HasPrefix(authority, "[") {
		if end := strings.IndexByte(authority, ']'); end > 0 {
			return authority[1:end]
		}
	}
	host, _, _ := strings.Cut(authority, ":")
	return host
}

// speaksHTTP: the line is an HTTP client's (a URL over HTTP, or curl's own
// words), which honours HTTP_PROXY and so reaches a host listed in
// commandPolicy.sandbox.allowedDomains through wisp's proxy. ssh, nc,
// bash's /dev/tcp and a bare socket connect directly.
func speaksHTTP(line string) bool {
	return strings.Contains(line, "http://") || strings.Contains(line, "https://") ||
		strings.HasPrefix(line, "curl: ") || strings.Contains(line, "Could not resolve host: ")
}

// isThisMachine: a loopback host, which clients reach directly (NO_PROXY
// names it), so the domain list cannot open it.
func isThisMachine(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// networkModelLine is the model's line for Network.
func (r Result) networkModelLine(offerOutside bool) string {
	line := "sandbox: the network is off for confined commands (commandPolicy.sandbox.allowNetwork)"
	if r.ViaProxy {
		return line + "; to reach " + r.hostsOr("a host") + ", the person can list it in commandPolicy.sandbox.allowedDomains, " +
			"and commands reach it through wisp's proxy: ask for that rather than to run the command outside the sandbox"
	}
	if r.thisMachine() {
		return withOffer(line+"; "+named(r.Hosts)+" is this machine, which confined commands reach only with the network on: commandPolicy.sandbox.allowedDomains would not serve", offerOutside)
	}
	return withOffer(line+"; this program connects directly, not through wisp's proxy, so commandPolicy.sandbox.allowedDomains would not serve", offerOutside)
}

// networkPersonNote is the person's note for Network.
func (r Result) networkPersonNote() string {
	note := "· the network is off for confined commands (commandPolicy.sandbox.allowNetwork)"
	if r.ViaProxy {
		return note + "; to let them reach " + r.hostsOr("a host") + ", list it in commandPolicy.sandbox.allowedDomains"
	}
	if r.thisMachine() {
		return note + ", which keeps them from this machine's own servers (" + named(r.Hosts) + ") too; type !! before the command to run it as yourself"
	}
	return note + ", and this program connects directly, not through wisp's proxy for commandPolicy.sandbox.allowedDomains; " +
		"type !! before the command to run it as yourself"
}

// thisMachine: every host named is a loopback one.
func (r Result) thisMachine() bool {
	return len(r.Hosts) > 0 && !slices.ContainsFunc(r.Hosts, func(h string) bool { return !isThisMachine(h) })
}

func (r Result) hostsOr(none string) string {
	if len(r.Hosts) == 0 {
		return none
	}
	return named(r.Hosts)
}

// socketModelLine is the model's line for RefusedSocket.
func (r Result) socketModelLine(offerOutside bool) string {
	return withOffer("sandbox: refused a Unix socket"+r.socketAt()+": "+r.socketWhy()+"; no policy rule denied it", offerOutside)
}

// socketPersonNote is the person's note for RefusedSocket.
func (r Result) socketPersonNote() string {
	return "· the sandbox refused a Unix socket" + r.socketAt() + ": " + r.socketWhy()
}

// socketWhy says which of the sandbox's refusals it was, by its errno:
// Landlock's (EACCES), a socket of a program outside the sandbox, which a
// confined command never reaches; or the seccomp filter's (EPERM), where
// the sandbox cannot tell a command's own sockets from the person's and
// refuses every one. Both say how to open them.
func (r Result) socketWhy() string {
	if r.Errno == "Permission denied" {
		return "it belongs to a program outside the sandbox, and confined commands reach only the Unix sockets they make themselves (commandPolicy.sandbox.allowUnixSockets opens every one)"
	}
	return "here confined commands may not make Unix sockets at all, since the sandbox cannot keep yours out of their reach without a mount namespace or Landlock ABI 9 (wisp doctor says which this machine lacks); commandPolicy.sandbox.allowUnixSockets opens every one"
}

func (r Result) socketAt() string {
	if len(r.Paths) == 0 {
		return ""
	}
	return " at " + named(r.Paths)
}
