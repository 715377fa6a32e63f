package sandbox

import (
	"slices"
	"strings"
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
		{7, true, true, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "MPTCP", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets (socketpair works)", "setuid and setgid modes beyond your own rights", "listen, TCP Fast Open and every other socket family", "other terminals and devices"}, 1},
		{7, true, true, true, []string{"filesystem writes", "truncation", "device ioctl", "signal and abstract-socket scoping", "typing into the terminal (TIOCSTI)", "Unix sockets (socketpair works)", "setuid and setgid modes beyond your own rights", "other terminals and devices"}, 1},
		{10, true, false, false, []string{"filesystem writes", "truncation", "device ioctl", "TCP", "UDP", "signal and abstract-socket scoping", "other programs' Unix sockets (by path and abstract; a command's own work)", "other terminals and devices"}, 2},
	} {
		f := LandlockFeaturesOf(tc.abi, tc.scopingFixed)
		f.SocketFilter = tc.filter
		if got := f.Enforced(tc.network, f.UnixGuard(false, false)); !slices.Equal(got, tc.enforced) {
			t.Errorf("ABI %d filter %v network %v: enforced %q, want %q", tc.abi, tc.filter, tc.network, got, tc.enforced)
		}
		if got := f.Gaps(tc.network, f.UnixGuard(false, false)); len(got) != tc.gaps {
			t.Errorf("ABI %d filter %v network %v: gaps %q, want %d", tc.abi, tc.filter, tc.network, got, tc.gaps)
		}
	}
}

// TestUnixGuard: a command's own Unix sockets work wherever the person's
// can be kept from it (Landlock ABI 9, or a mount namespace's view with
// abstract sockets scoped), are refused where they cannot, and every mode
// but ABI 9 names in the report what it leaves open.
func TestUnixGuard(t *testing.T) {
	for _, tc := range []struct {
		name           string
		abi            int
		filter, viewed bool
		allowed        bool
		want           UnixGuard
		enforced, gap  string
	}{
		{"abi 7, no namespace", 7, true, false, false, UnixRefused, "Unix sockets (socketpair works)", "cannot make Unix sockets of its own (no mount namespace"},
		{"abi 7, a namespace", 7, true, true, false, UnixHidden, "hidden from view", "binds after the command started"},
		{"abi 9, no namespace", 9, true, false, false, UnixByDomain, "by path and abstract", ""},
		{"abi 9, no filter", 9, false, false, false, UnixByDomain, "by path and abstract", ""},
		{"abi 5, a namespace", 5, true, true, false, UnixRefused, "Unix sockets (socketpair works)", "cannot scope abstract sockets"},
		{"no filter", 7, false, false, false, UnixUnguarded, "", "not restricted"},
		{"allowed", 9, true, true, true, UnixAllowed, "", "allowUnixSockets"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := LandlockFeaturesOf(tc.abi, true)
			f.SocketFilter = tc.filter
			g := f.UnixGuard(tc.allowed, tc.viewed)
			if g != tc.want {
				t.Fatalf("guard %d, want %d", g, tc.want)
			}
			enforced := strings.Join(f.Enforced(true, g), ", ")
			if tc.enforced != "" && !strings.Contains(enforced, tc.enforced) {
				t.Errorf("enforced %q lacks %q", enforced, tc.enforced)
			}
			gaps := strings.Join(f.Gaps(true, g), "\n")
			switch {
			case tc.gap == "" && strings.Contains(gaps, "socket"):
				t.Errorf("a gap for sockets where none is left: %q", gaps)
			case tc.gap != "" && !strings.Contains(gaps, tc.gap):
				t.Errorf("gaps %q lack %q", gaps, tc.gap)
			}
		})
	}
}
