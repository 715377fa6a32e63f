package landlock

import (
	"slices"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

func TestHelperArgsRoundTrip(t *testing.T) {
	h := helperArgs{roots: []string{"/p", "/tmp"}, protect: []string{"/p/.git/hooks"}, noNetwork: true, ns: sandbox.NamespaceUser,
		hide: []string{"/h/.wisp"}, socketHomes: []string{"/run/user", "/tmp/.X11-unix"}, argv: []string{"/bin/sh", "-c", "echo --root -- $HOME"}}
	args := h.encode()
	if args[0] != sandbox.HelperCommand {
		t.Fatalf("encode starts with %q", args[0])
	}
	got, err := parseHelperArgs(args[1:])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.roots, h.roots) || !slices.Equal(got.protect, h.protect) || got.noNetwork != h.noNetwork ||
		got.ns != h.ns || !slices.Equal(got.hide, h.hide) || !slices.Equal(got.socketHomes, h.socketHomes) || !slices.Equal(got.argv, h.argv) {
		t.Fatalf("round trip gave %+v, want %+v", got, h)
	}
}

func TestParseHelperArgsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--root", "relative", "--", "/bin/sh"},
		{"--root", "/a/../b", "--", "/bin/sh"},
		{"--protect"},
		{"--hide", "~/.wisp", "--", "/bin/sh"},
		{"--socket-home", "run/user", "--", "/bin/sh"},
		{"--ns", "maybe", "--", "/bin/sh"},
		{"--bogus", "--", "/bin/sh"},
		{"--root", "/p"},
		{"--root", "/p", "--", "sh", "-c", "true"},
		{"--root", "/p", "--"},
	} {
		if _, err := parseHelperArgs(args); err == nil {
			t.Errorf("parseHelperArgs(%q) accepted it", args)
		}
	}
}

func TestProxyFlagsRoundTrip(t *testing.T) {
	h := helperArgs{roots: []string{"/p"}, noNetwork: true, proxyPort: 3128, argv: []string{"/bin/sh"}}
	got, err := parseHelperArgs(h.encode()[1:])
	if err != nil || got.proxyPort != 3128 || !got.noNetwork {
		t.Fatalf("parse(encode) = %+v, %v; want the proxy port back", got, err)
	}
}

func TestProxyFlagsRefused(t *testing.T) {
	for _, args := range [][]string{
		{"--proxy-port", "3128", "--", "/bin/sh"},                  // without --no-network it would mean nothing
		{"--no-network", "--proxy-port", "0", "--", "/bin/sh"},     // not a port
		{"--no-network", "--proxy-port", "65536", "--", "/bin/sh"}, // not a port
		{"--no-network", "--proxy-port", "+3128", "--", "/bin/sh"}, // not as written
		{"--no-network", "--proxy-port", "3128x", "--", "/bin/sh"}, // not a number
	} {
		if _, err := parseHelperArgs(args); err == nil {
			t.Errorf("parseHelperArgs(%q) took it", args)
		}
	}
}
