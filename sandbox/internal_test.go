package sandbox

import (
	"slices"
	"testing"
)

func TestHelperArgsRoundTrip(t *testing.T) {
	h := helperArgs{roots: []string{"/p", "/tmp"}, protect: []string{"/p/.git/hooks"}, noNetwork: true, ns: NamespaceUser,
		hide: []string{"/h/.wisp"}, argv: []string{"/bin/sh", "-c", "echo --root -- $HOME"}}
	args := h.encode()
	if args[0] != HelperCommand {
		t.Fatalf("encode starts with %q", args[0])
	}
	got, err := parseHelperArgs(args[1:])
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.roots, h.roots) || !slices.Equal(got.protect, h.protect) || got.noNetwork != h.noNetwork ||
		got.ns != h.ns || !slices.Equal(got.hide, h.hide) || !slices.Equal(got.argv, h.argv) {
		t.Fatalf("round trip gave %+v, want %+v", got, h)
	}
}

func TestParseHelperArgsRejects(t *testing.T) {
	for _, args := range [][]string{
		{"--root", "relative", "--", "/bin/sh"},
		{"--root", "/a/../b", "--", "/bin/sh"},
		{"--protect"},
		{"--hide", "~/.wisp", "--", "/bin/sh"},
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

func TestLandlockFeatures(t *testing.T) {
	for _, tc := range []struct {
		abi          int
		scopingFixed bool
		filter       bool
		network      bool
		enforced     []string
		gaps         int
	}{
		{1, false, false, false, []string{"filesystem writes", "other terminals and devices"}, 6},
		{3, false, false, true, []string{"filesystem writes", "truncation", "other terminals and devices"}, 3},
		{4, false, false, false, []string{"filesystem writes", "truncation", "TCP", "other terminals and devices"}, 5},
		{7, true, false, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "signal and abstract-socket scoping", "other terminals and devices"}, 4},
		{7, true, true, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "MPTCP", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets", "setuid and setgid modes", "listen, TCP Fast Open and every other socket family", "other terminals and devices"}, 0},
		{7, true, true, true, []string{"filesystem writes", "truncation", "device ioctl", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets", "setuid and setgid modes", "other terminals and devices"}, 0},
		{10, true, false, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "signal and abstract-socket scoping", "other terminals and devices"}, 3},
	} {
		f := landlockFeatures(tc.abi, tc.scopingFixed)
		f.SocketFilter = tc.filter
		if got := f.Enforced(tc.network, false); !slices.Equal(got, tc.enforced) {
			t.Errorf("ABI %d filter %v network %v: enforced %q, want %q", tc.abi, tc.filter, tc.network, got, tc.enforced)
		}
		if got := f.Gaps(tc.network, false); len(got) != tc.gaps {
			t.Errorf("ABI %d filter %v network %v: gaps %q, want %d", tc.abi, tc.filter, tc.network, got, tc.gaps)
		}
	}
}
