package sandbox

// LandlockFeatures is what Landlock enforces at one ABI version, as the
// helper uses it. Each field is true when that guarantee holds.
type LandlockFeatures struct {
	ABI int
	// Filesystem: writes outside the roots are refused (ABI 1).
	Filesystem bool
	// Refer: renames and links between folders inside the roots work; below
	// ABI 2 they fail with EXDEV, and tools fall back to copying.
	Refer bool
	// Truncate: truncate(2) outside the roots is refused (ABI 3).
	Truncate bool
	// TCP: with the network off, TCP connect and bind are refused (ABI 4).
	TCP bool
	// DeviceIoctl: ioctl on device files is limited to terminals (ABI 5).
	DeviceIoctl bool
	// Scoping: signals and abstract Unix sockets cannot reach wisp or any
	// process outside the sandbox (ABI 6, when the kernel has the fix for
	// the signal scoping erratum).
	Scoping bool
	// UnixPaths: connecting to a Unix socket by path is refused unless the
	// socket was made inside the same sandbox (ABI 9, resolve_unix).
	UnixPaths bool
	// UDP: with the network off, UDP is refused too (ABI 10).
	UDP bool
	// SocketFilter: a seccomp filter refuses typing into the terminal
	// (TIOCSTI, TIOCLINUX) and setuid or setgid modes that could grant more
	// than the person's own rights (every one, as root), and with the network
	// off every socket but Unix, netlink and plain TCP (UDP, Multipath TCP,
	// which Landlock does not see), listen, TCP Fast Open and io_uring. Not a Landlock feature: it depends on the CPU architecture
	// the filter is written for.
	SocketFilter bool
}

// LandlockFeaturesOf returns what ABI abi enforces. scopingFixed says whether
// the kernel reports the fix for the signal scoping erratum, without which
// scoping is not used (as go-landlock does).
func LandlockFeaturesOf(abi int, scopingFixed bool) LandlockFeatures {
	return LandlockFeatures{
		ABI:         abi,
		Filesystem:  abi >= 1,
		Refer:       abi >= 2,
		Truncate:    abi >= 3,
		TCP:         abi >= 4,
		DeviceIoctl: abi >= 5,
		Scoping:     abi >= 6 && scopingFixed,
		UnixPaths:   abi >= 9,
		UDP:         abi >= 10,
	}
}

// UnixGuard is how a command's own Unix sockets are let work while the
// person's (ssh-agent, D-Bus, docker, systemd, X11, tmux) stay out of its
// reach. Through those another program runs a command for the caller,
// outside the sandbox.
type UnixGuard int

const (
	// UnixUnguarded: nothing refuses a Unix socket (no seccomp filter for
	// this CPU, and no Landlock rule or view that would do).
	UnixUnguarded UnixGuard = iota
	// UnixRefused: socket(AF_UNIX) is refused, so a command has no Unix
	// socket of its own either; socketpair still works.
	UnixRefused
	// UnixHidden: the mount namespace hides the person's sockets (every
	// socket bound when the command starts, and the folders that hold
	// them: /run/user/UID, /tmp/.X11-unix, tmux's, ssh-agent's), and
	// Landlock's scoping the abstract ones; a command's own work.
	UnixHidden
	// UnixByDomain: Landlock refuses connecting to a socket made outside
	// the sandbox, by path (ABI 9) or abstract (scoping); a command's own
	// work anywhere.
	UnixByDomain
	// UnixAllowed: commandPolicy.sandbox.allowUnixSockets opens every one.
	UnixAllowed
)

// UnixGuard says how Unix sockets are kept here: allowed is
// allowUnixSockets, viewed says the helper has a mount namespace. Both
// the helper and the report ask this, so that what doctor says is what the
// helper does.
func (f LandlockFeatures) UnixGuard(allowed, viewed bool) UnixGuard {
	switch {
	case allowed:
		return UnixAllowed
	case f.UnixPaths && f.Scoping:
		return UnixByDomain
	case viewed && f.Scoping:
		return UnixHidden
	case f.SocketFilter:
		return UnixRefused
	}
	return UnixUnguarded
}

// Enforced lists what holds, as short phrases, for a network and Unix
// socket setting.
func (f LandlockFeatures) Enforced(network bool, unix UnixGuard) []string {
	var out []string
	add := func(ok bool, what string) {
		if ok {
			out = append(out, what)
		}
	}
	add(f.Filesystem, "filesystem writes")
	add(f.Truncate, "truncation")
	add(f.DeviceIoctl, "device ioctl")
	add(!network && f.TCP, "TCP")
	add(!network && (f.UDP || f.SocketFilter), "UDP")
	add(!network && f.SocketFilter, "MPTCP")
	add(f.Scoping, "signal and abstract-socket scoping")
	add(f.SocketFilter, "typing into the terminal (TIOCSTI)")
	add(unix == UnixByDomain, "other programs' Unix sockets (by path and abstract; a command's own work)")
	add(unix == UnixHidden, "other programs' Unix sockets (hidden from view; a command's own work)")
	add(unix == UnixRefused, "Unix sockets (socketpair works)")
	add(f.SocketFilter, "setuid and setgid modes beyond your own rights")
	add(!network && f.SocketFilter, "listen, TCP Fast Open and every other socket family")
	add(f.Filesystem, "other terminals and devices")
	return out
}

// Gaps lists what does not hold here, as phrases a person can act on.
func (f LandlockFeatures) Gaps(network bool, unix UnixGuard) []string {
	var out []string
	add := func(missing bool, what string) {
		if missing {
			out = append(out, what)
		}
	}
	add(!f.Refer, "renames between folders fail with EXDEV (Landlock ABI < 2)")
	add(!f.Truncate, "truncate(2) outside the roots is not refused (Landlock ABI < 3)")
	add(!network && !f.TCP, "network off is not enforced: Landlock ABI < 4 has no TCP rules")
	add(!network && f.TCP && !f.UDP && !f.SocketFilter, "network off covers TCP only, not UDP (Landlock ABI < 10)")
	add(!network && f.TCP && !f.SocketFilter, "network off does not cover Multipath TCP (Landlock does not see it)")
	add(!f.Scoping, "a command can signal wisp and other processes of yours (no Landlock scoping)")
	add(!f.SocketFilter, "a command can type into your terminal with TIOCSTI (no seccomp filter for this CPU)")
	if gap := unix.gap(f); gap != "" {
		out = append(out, gap)
	}
	return out
}

// gap is what the guard leaves open, or "".
func (g UnixGuard) gap(f LandlockFeatures) string {
	switch g {
	case UnixAllowed:
		return "Unix sockets are allowed (commandPolicy.sandbox.allowUnixSockets): a command can reach D-Bus, systemd --user, tmux and docker, which run commands outside the sandbox"
	case UnixUnguarded:
		return "Unix sockets are not restricted (no seccomp filter for this CPU): a command can reach D-Bus, systemd --user, tmux and docker"
	case UnixRefused:
		why := "no mount namespace here to hide yours, and Landlock ABI < 9 cannot refuse them by path"
		if !f.Scoping {
			why = "Landlock cannot scope abstract sockets here (ABI < 6, or the scoping erratum unfixed)"
		}
		return "a command cannot make Unix sockets of its own (" + why + "), so test suites that bind one fail; socketpair works, and commandPolicy.sandbox.allowUnixSockets opens every socket, yours included"
	case UnixHidden:
		return "a Unix socket another program binds after the command started, outside /run/user, /tmp/.X11-unix and tmux's and ssh-agent's folders, or a hard link to one of yours made earlier inside a root, is reachable until the command ends (Landlock ABI < 9 has no rule for sockets by path; the view is made at the start, and a served helper starts afresh when a new socket appears)"
	}
	return ""
}
