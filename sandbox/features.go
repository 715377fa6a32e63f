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
		UDP:         abi >= 10,
	}
}

// Enforced lists what holds, as short phrases, for a network and Unix
// socket setting.
func (f LandlockFeatures) Enforced(network, unixSockets bool) []string {
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
	add(!unixSockets && f.SocketFilter, "Unix sockets")
	add(f.SocketFilter, "setuid and setgid modes beyond your own rights")
	add(!network && f.SocketFilter, "listen, TCP Fast Open and every other socket family")
	add(f.Filesystem, "other terminals and devices")
	return out
}

// Gaps lists what does not hold here, as phrases a person can act on.
func (f LandlockFeatures) Gaps(network, unixSockets bool) []string {
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
	switch {
	case unixSockets:
		add(true, "Unix sockets are allowed (commandPolicy.sandbox.allowUnixSockets): a command can reach D-Bus, systemd --user, tmux and docker, which run commands outside the sandbox")
	case !f.SocketFilter:
		add(true, "Unix sockets are not restricted (no seccomp filter for this CPU): a command can reach D-Bus, systemd --user, tmux and docker")
	}
	return out
}
