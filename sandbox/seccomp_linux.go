package sandbox

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
// Unless Unix sockets are allowed: socket(AF_UNIX), EPERM. Landlock does not
// see a Unix socket by path before ABI 9, and through one another program
// runs a command for the caller, outside the sandbox: systemd --user
// (systemd-run), tmux (send-keys), docker. socketpair stays open, so pipes
// between a command's own processes keep working. io_uring, which can make
// sockets of its own, is refused too.
//
// With the network off: Landlock refuses TCP connect and bind, but not
// Multipath TCP (socket(…, IPPROTO_MPTCP), as `curl --mptcp` opens), nor
// UDP below ABI 10, nor sockets made through io_uring. An AF_INET or
// AF_INET6 socket that is not plain TCP, and io_uring_setup, fail with
// EACCES, the errno Landlock gives, so a refusal reads the same whichever
// layer made it. Plain TCP is left to Landlock.

// seccompData offsets (struct seccomp_data; the low 32 bits of an argument
// come first on these little-endian machines).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
	offArg2 = 32
)

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
func commandFilter(networkOff, unixOff bool) ([]unix.SockFilter, error) {
	p := &bpfProgram{jumps: map[int][2]string{}, labels: map[string]int{}}
	p.load(offArch)
	p.jump(unix.BPF_JEQ, seccompArch, "", "deny") // a foreign ABI could name other syscalls
	p.load(offNr)
	if x32SyscallBit != 0 {
		p.jump(unix.BPF_JGE, x32SyscallBit, "deny", "")
	}
	p.jump(unix.BPF_JEQ, unix.SYS_IOCTL, "ioctl", "")
	if networkOff || unixOff {
		p.jump(unix.BPF_JEQ, unix.SYS_IO_URING_SETUP, "deny", "")
		p.jump(unix.BPF_JEQ, unix.SYS_SOCKET, "", "allow")
		p.load(offArg0)
		if unixOff {
			p.jump(unix.BPF_JEQ, unix.AF_UNIX, "refuse", "")
		}
		if !networkOff {
			p.jump(unix.BPF_JEQ, 0, "allow", "allow") // any other family
		}
	}
	if networkOff {
		p.jump(unix.BPF_JEQ, unix.AF_INET, "inet", "")
		p.jump(unix.BPF_JEQ, unix.AF_INET6, "inet", "allow")
		p.labels["inet"] = len(p.insns)
		p.load(offArg1)
		p.and(0xf) // the socket type, without SOCK_NONBLOCK and SOCK_CLOEXEC
		p.jump(unix.BPF_JEQ, unix.SOCK_STREAM, "", "deny")
		p.load(offArg2)
		p.jump(unix.BPF_JEQ, 0, "allow", "")
		p.jump(unix.BPF_JEQ, unix.IPPROTO_TCP, "allow", "deny")
	} else if !unixOff {
		p.jump(unix.BPF_JEQ, 0, "allow", "allow") // every other syscall
	}
	p.labels["ioctl"] = len(p.insns)
	p.load(offArg1) // the low 32 bits: what the kernel reads
	p.jump(unix.BPF_JEQ, unix.TIOCSTI, "refuse", "")
	p.jump(unix.BPF_JEQ, unix.TIOCLINUX, "refuse", "allow")
	p.ret("allow", unix.SECCOMP_RET_ALLOW)
	p.ret("deny", unix.SECCOMP_RET_ERRNO|uint32(unix.EACCES))
	p.ret("refuse", unix.SECCOMP_RET_ERRNO|uint32(unix.EPERM))
	return p.resolve()
}

// installFilter installs the filter on the calling thread, which execs
// next, or on every thread of a served helper. no_new_privs must be set
// already.
func installFilter(networkOff, unixOff, allThreads bool) error {
	insns, err := commandFilter(networkOff, unixOff)
	if err != nil {
		return err
	}
	prog := unix.SockFprog{Len: uint16(len(insns)), Filter: &insns[0]}
	var flags uintptr
	if allThreads {
		flags = unix.SECCOMP_FILTER_FLAG_TSYNC // every thread, or none
	}
	r, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, flags, uintptr(unsafe.Pointer(&prog)))
	switch {
	case errno != 0:
		return fmt.Errorf("install the seccomp filter: %w", errno)
	case r != 0: // TSYNC: the id of a thread that could not be synchronised
		return fmt.Errorf("install the seccomp filter: thread %d could not take it", r)
	}
	return nil
}
