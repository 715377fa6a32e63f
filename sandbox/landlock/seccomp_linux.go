package landlock

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A confined command's seccomp filter closes what Landlock leaves open.
//
// Always: the TIOCSTI and TIOCLINUX ioctls, which push characters into a
// terminal's input (CVE-2017-5226 in bubblewrap; Flatpak filters them the
// same way). A command in wisp's session could otherwise type into the
// person's terminal: a line into wisp chat (a `!!` there runs outside the
// sandbox), or into the shell after wisp exits. They fail with EPERM. The
// kernel reads the request as 32 bits, so only the low half is compared.
//
// A mode with a setuid or setgid bit (chmod, open or mknod with one) that
// could grant rights the person does not hold alone, EPERM: every such
// mode as root, whose setuid copy of a shell runs as root for anyone who
// starts it, outside the sandbox (setid_linux.go has the rule for each
// identity). openat2, whose mode the filter cannot read, fails with ENOSYS,
// and callers fall back to openat.
//
// Without a read-only view of what lies outside the roots (no mount
// namespace), or where an access list could open a set-group-ID file to
// others (setid_linux.go): setting or removing extended attributes,
// EOPNOTSUPP, which tools read as "not supported here" (Landlock has no
// right for them).
//
// Unless Unix sockets are allowed: socket(AF_UNIX), EPERM. Landlock does not
// see a Unix socket by path before ABI 9, and through one another program
// runs a command for the caller, outside the sandbox: systemd --user
// (systemd-run), tmux (send-keys), docker. socketpair stays open, so pipes
// between a command's own processes keep working. io_uring, which can make
// sockets of its own, is refused too.
//
// With the network off: Landlock refuses TCP connect and bind, but not
// Multipath TCP (socket(…, IPPROTO_MPTCP), as `curl --mptcp` opens), nor
// UDP below ABI 10, nor sockets made through io_uring, nor a TCP Fast Open
// send (sendto or sendmsg with MSG_FASTOPEN connects without connect()),
// nor listen() on a socket never bound (the kernel binds it to a free port
// on every address). So: a socket of any family but Unix, netlink (the
// machine's own routing tables) and plain TCP over IPv4 or IPv6 (AF_VSOCK
// reaches the hypervisor's host), listen, a send with MSG_FASTOPEN and
// io_uring_setup fail with EACCES, the errno Landlock gives, so that a
// refusal reads the same whichever layer made it. Plain TCP is left to
// Landlock.

// filterRules say what a command's filter refuses besides what it always
// does.
type filterRules struct {
	networkOff bool // no network: the socket families, listen, Fast Open
	unixOff    bool // no Unix sockets
	noView     bool // no read-only view outside the roots: extended attributes

	// setID is which set-ID bits a mode may carry (setid_linux.go).
	setID setIDRule
}

// modeSyscall is a syscall that sets a file's mode, and which argument
// holds the mode.
type modeSyscall struct {
	nr  uint32
	arg int
}

// xattrSyscalls change a file's extended attributes.
var xattrSyscalls = []uint32{
	unix.SYS_SETXATTR, unix.SYS_LSETXATTR, unix.SYS_FSETXATTR, unix.SYS_SETXATTRAT,
	unix.SYS_REMOVEXATTR, unix.SYS_LREMOVEXATTR, unix.SYS_FREMOVEXATTR, unix.SYS_REMOVEXATTRAT,
}

// seccompData offsets (struct seccomp_data; the low 32 bits of an argument
// come first on these little-endian machines).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
	offArg2 = 32
	offArg3 = 40
)

// argOffset is where argument i's low 32 bits lie.
func argOffset(i int) uint32 { return offArg0 + uint32(8*i) }

// bpfProgram assembles a classic BPF program with labelled jumps.
type bpfProgram struct {
	insns  []unix.SockFilter
	jumps  map[int][2]string // instruction index -> true and false labels ("" = next)
	labels map[string]int
}

func (p *bpfProgram) load(off uint32) {
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (p *bpfProgram) and(k uint32) {
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

func (p *bpfProgram) jump(op uint16, k uint32, ifTrue, ifFalse string) {
	p.jumps[len(p.insns)] = [2]string{ifTrue, ifFalse}
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (p *bpfProgram) ret(label string, k uint32) {
	p.labels[label] = len(p.insns)
	p.insns = append(p.insns, unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k})
}

func (p *bpfProgram) resolve() ([]unix.SockFilter, error) {
	for at, targets := range p.jumps {
		for i, label := range targets {
			offset := 0
			if label != "" {
				to, ok := p.labels[label]
				if !ok || to <= at || to-at-1 > 255 {
					return nil, fmt.Errorf("bpf: bad jump from %d to %q", at, label)
				}
				offset = to - at - 1
			}
			if i == 0 {
				p.insns[at].Jt = uint8(offset)
			} else {
				p.insns[at].Jf = uint8(offset)
			}
		}
	}
	return p.insns, nil
}

// commandFilter builds the filter for this machine's architecture.
func commandFilter(r filterRules) ([]unix.SockFilter, error) {
	p := &bpfProgram{jumps: map[int][2]string{}, labels: map[string]int{}}
	p.load(offArch)
	p.jump(unix.BPF_JEQ, seccompArch, "", "deny") // a foreign ABI could name other syscalls
	p.load(offNr)
	if x32SyscallBit != 0 {
		p.jump(unix.BPF_JGE, x32SyscallBit, "deny", "")
	}
	p.jump(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "")
	p.setIDModes(r.setID)
	p.jump(unix.BPF_JEQ, unix.SYS_OPENAT2, "nosys", "")
	if r.noView || r.setID.lockedACLs() {
		for _, nr := range xattrSyscalls {
			p.jump(unix.BPF_JEQ, nr, "noxattr", "")
		}
	}
	if r.networkOff {
		p.jump(unix.BPF_JEQ, unix.SYS_LISTEN, "deny", "")
		p.jump(unix.BPF_JEQ, unix.SYS_SENDTO, "flags3", "")
		p.jump(unix.BPF_JEQ, unix.SYS_SENDMMSG, "flags3", "")
		p.jump(unix.BPF_JEQ, unix.SYS_SENDMSG, "flags2", "")
	}
	if r.networkOff || r.unixOff {
		p.jump(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "deny", "")
		p.jump(unix.BPF_JEQ, unix.SYS_SOCKET, "socket", "")
	}
	p.setIDRing(r.setID)
	p.jump(unix.BPF_JEQ, 0, "allow", "allow") // every other syscall
	p.socket(r)
	p.ioctl()
	p.setIDChecks(r.setID)
	if r.networkOff {
		p.maskedZero("flags2", offArg2, unix.MSG_FASTOPEN, "deny")
		p.maskedZero("flags3", offArg3, unix.MSG_FASTOPEN, "deny")
	}
	p.ret("allow", unix.SECCOMP_RET_ALLOW)
	p.ret("deny", unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	p.ret("refuse", unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	p.ret("nosys", unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
	p.ret("noxattr", unix.SECCOMP_RET_ERRNO|uint32(unix.EOPNOTSUPP))
	return p.resolve()
}

// socket is the check of socket(2)'s family, type and protocol.
func (p *bpfProgram) socket(r filterRules) {
	if !r.networkOff && !r.unixOff {
		return
	}
	p.labels["socket"] = len(p.insns)
	p.load(offArg0)
	if r.unixOff {
		p.jump(unix.BPF_JEQ, unix.AF_UNIX, "refuse", "")
	}
	if !r.networkOff {
		p.jump(unix.BPF_JEQ, 0, "allow", "allow") // any other family
		return
	}
	p.jump(unix.BPF_JEQ, unix.AF_UNIX, "allow", "")
	p.jump(unix.BPF_JEQ, unix.AF_NETLINK, "allow", "")
	p.jump(unix.BPF_JEQ, unix.AF_INET, "inet", "")
	p.jump(unix.BPF_JEQ, unix.AF_INET6, "inet", "deny")
	p.labels["inet"] = len(p.insns)
	p.load(offArg1)
	p.and(0xf) // the socket type, without SOCK_NONBLOCK and SOCK_CLOEXEC
	p.jump(unix.BPF_JEQ, unix.SOCK_STREAM, "", "deny")
	p.load(offArg2)
	p.jump(unix.BPF_JEQ, 0, "allow", "")
	p.jump(unix.BPF_JEQ, unix.IPPROTO_TCP, "allow", "deny")
}

// ioctl refuses the requests that type into a terminal.
func (p *bpfProgram) ioctl() {
	p.labels["ioctl"] = len(p.insns)
	p.load(offArg1) // the low 32 bits: what the kernel reads
	p.jump(unix.BPF_JEQ, unix.TIOCSTI, "refuse", "")
	p.jump(unix.BPF_JEQ, unix.TIOCLINUX, "refuse", "allow")
}

// maskedZero, at label, allows the call when the argument at off has none
// of the bits in mask, and goes to otherwise when it has one.
func (p *bpfProgram) maskedZero(label string, off, mask uint32, otherwise string) {
	p.labels[label] = len(p.insns)
	p.load(off)
	p.and(mask)
	p.jump(unix.BPF_JEQ, 0, "allow", otherwise)
}

// installFilter installs the filter on the calling thread, which execs
// next, or on every thread of a served helper. no_new_privs must be set
// already.
func installFilter(r filterRules, allThreads bool) error {
	insns, err := commandFilter(r)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(insns)), Filter: &insns[0]}
	var flags uintptr
	if allThreads {
		flags = unix.SECCOMP_FILTER_FLAG_TSYNC // every thread, or none
	}
	tid, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	switch {
	case errno != 0:
		return fmt.Errorf("install the seccomp filter: %w", errno)
	case tid != 0: // TSYNC: the id of a thread that could not be synchronised
		return fmt.Errorf("install the seccomp filter: thread %d could not take it", tid)
	}
	return nil
}
