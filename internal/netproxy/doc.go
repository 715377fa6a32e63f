// Package netproxy is wisp's own network proxy for confined commands: with
// commandPolicy.sandbox.allowNetwork false and allowedDomains set, the
// sandbox lets a command connect to this proxy alone, and the proxy lets
// through the hosts the operator listed, refuses those denied, and holds a
// connection to any other host while a person is asked (Asker).
//
// It speaks HTTP (absolute-URL requests for plain HTTP, CONNECT for TLS
// and anything else) and SOCKS5 (CONNECT only) on the same port, so curl,
// git, npm, pip, go and cargo use it through HTTP_PROXY, HTTPS_PROXY and
// ALL_PROXY unchanged. A refused HTTP request or CONNECT gets a 403 with a
// one-line body, `wisp: network to HOST refused: …`; a refused SOCKS5
// CONNECT gets "connection not allowed by ruleset".
//
// The decision is made on the name the client asked for, before any name
// is resolved. The proxy resolves it itself, and by default refuses a name
// that resolves to an address of this machine (loopback, link-local,
// unspecified, or any address of its interfaces, looked up as each
// connection is made): an allowed name pointed at 127.0.0.1 or at the
// machine's LAN address would otherwise reach the services on the person's
// machine that the sandbox keeps a command from.
//
// It imports only the standard library, and no net/http: never another wisp
// package. The runner wires it to the gate (approval) and the audit log.
// Its HTTP front is internal/netproxy/httpproxy, which registers itself
// (RegisterHTTP) in the binaries that link it (wisp-agent); without it (the
// lean wisp, which hands every run that wants the proxy to wisp-agent),
// Listen refuses to start.
package netproxy
