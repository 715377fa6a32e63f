package sandbox

import (
	"slices"
	"testing"
)

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
		{7, true, true, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "MPTCP", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets", "setuid and setgid modes beyond your own rights", "listen, TCP Fast Open and every other socket family", "other terminals and devices"}, 0},
		{7, true, true, true, []string{"filesystem writes", "truncation", "device ioctl", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets", "setuid and setgid modes beyond your own rights", "other terminals and devices"}, 0},
		{10, true, false, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "signal and abstract-socket scoping", "other terminals and devices"}, 3},
	} {
		f := LandlockFeaturesOf(tc.abi, tc.scopingFixed)
		f.SocketFilter = tc.filter
		if got := f.Enforced(tc.network, false); !slices.Equal(got, tc.enforced) {
			t.Errorf("ABI %d filter %v network %v: enforced %q, want %q", tc.abi, tc.filter, tc.network, got, tc.enforced)
		}
		if got := f.Gaps(tc.network, false); len(got) != tc.gaps {
			t.Errorf("ABI %d filter %v network %v: gaps %q, want %d", tc.abi, tc.filter, tc.network, got, tc.gaps)
		}
	}
}
