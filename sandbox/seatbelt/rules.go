package seatbelt

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/sandbox"
)

// The sections of the Seatbelt profile but the network's (profile.go), in
// the order Profile writes them. Each is fixed text but for the
// number of parameters it names; each rule says why it is there, since a
// profile that reads like a boundary and is not one is worse than none.

func writeBase(b *strings.Builder, _ sandbox.Spec) {
	b.WriteString("(allow default)\n")
}

// writeWrites allows writes under the roots alone. Seatbelt's file-write*
// covers a file's metadata too (mode, owner, times, flags, extended
// attributes), so outside the roots nothing changes at all, as Linux's
// read-only view gives.
func writeWrites(b *strings.Builder, spec sandbox.Spec) {
	b.WriteString("\n; Writes, metadata included, only under the roots.\n")
	b.WriteString("(deny file-write*)\n")
	if len(spec.Roots) > 0 {
		b.WriteString("(allow file-write*\n")
		writeFilters(b, "subpath", "ROOT", len(spec.Roots))
		b.WriteString(")\n")
	}
}

// writeDevices keeps a command to the devices programs need, as Linux
// does: a disk read raw holds every file (the modes of /dev/disk* stop a
// person, not root), and /dev/bpf* and /dev/pf reach the network and the
// firewall beneath the profile's rules. Every name in /dev can still be
// listed and looked up, and each terminal written as today: the profile
// cannot tell the command's own terminal from another of the person's.
func writeDevices(b *strings.Builder, _ sandbox.Spec) {
	b.WriteString("\n; Devices: only what programs need, never a disk, bpf or pf.\n")
	b.WriteString("(deny file-read* file-write* (subpath \"/dev\"))\n")
	b.WriteString("(allow file-read-metadata (subpath \"/dev\"))\n")
	b.WriteString("(allow file-read-data (literal \"/dev\"))\n")
	b.WriteString("(allow file-read* file-write*\n")
	for _, dev := range seatbeltDevices {
		fmt.Fprintf(b, "  %s\n", dev)
	}
	b.WriteString(")\n")
}

// seatbeltDevices are the device files any command may read and write,
// fixed text that no input reaches: Linux's list (null, zero, random,
// urandom, tty, ptmx), the descriptors' aliases, the terminals, and two
// that macOS's own libraries open: dyld's dtracehelper and autofs_nowait,
// which keeps a file lookup from waiting on an automount.
var seatbeltDevices = []string{
	`(literal "/dev/null")`,
	`(literal "/dev/zero")`,
	`(literal "/dev/random")`,
	`(literal "/dev/urandom")`,
	`(literal "/dev/tty")`,
	`(literal "/dev/ptmx")`,
	`(literal "/dev/stdin")`,
	`(literal "/dev/stdout")`,
	`(literal "/dev/stderr")`,
	`(subpath "/dev/fd")`,
	`(regex #"^/dev/ttys[0-9]+$")`,
	`(literal "/dev/dtracehelper")`,
	`(literal "/dev/autofs_nowait")`,
}

// writeProtected denies the protected paths after the roots' allow, and
// pins each folder on the way to one inside a root (seatbeltPins).
func writeProtected(b *strings.Builder, spec sandbox.Spec) {
	if len(spec.Protected) > 0 {
		b.WriteString("\n; Never writable, even inside a root: wisp's home (the model would approve\n")
		b.WriteString("; itself) and every file git reads for hooks or config (it would run them\n")
		b.WriteString("; at the person's next git command, outside the sandbox).\n")
		b.WriteString("(deny file-write*\n")
		writeFilters(b, "subpath", "PROTECT", len(spec.Protected))
		b.WriteString(")\n")
	}
	if n := len(seatbeltPins(spec)); n > 0 {
		b.WriteString("\n; The folders above them inside a root are not renamed or removed: a rule\n")
		b.WriteString("; follows a path, so .git moved aside would leave its hooks writable.\n")
		b.WriteString("(deny file-write-unlink\n")
		writeFilters(b, "literal", "PIN", n)
		b.WriteString(")\n")
	}
}

// writeSetugid refuses a setuid or setgid mode anywhere, inside the roots
// too: a setuid copy of a shell made by a command run as root runs as root
// for whoever starts it. Linux's filter lets a person set the bits where
// they grant no more than the person's own rights (landlock/setid_linux.go),
// but file-write-setugid sees neither who runs nor which bit, and every Mac
// account shares the group staff, most the group admin (which writes
// /usr/local): a setgid file of theirs would hand those on. So none, here.
func writeSetugid(b *strings.Builder, _ sandbox.Spec) {
	b.WriteString("\n; No setuid or setgid file, anywhere.\n")
	b.WriteString("(deny file-write-setugid)\n")
}

// writeReads denies reading the secrets, after the allow default, and
// gives back the allowRead entries inside them after that: the last
// matching rule wins.
func writeReads(b *strings.Builder, spec sandbox.Spec) {
	if len(spec.DenyRead) == 0 {
		return
	}
	b.WriteString("\n; Secrets are not readable (commandPolicy.sandbox.denyRead).\n")
	b.WriteString("(deny file-read*\n")
	writeFilters(b, "subpath", "DENYREAD", len(spec.DenyRead))
	b.WriteString(")\n")
	if len(spec.AllowRead) > 0 {
		b.WriteString("\n; Given back by commandPolicy.sandbox.allowRead.\n")
		b.WriteString("(allow file-read*\n")
		writeFilters(b, "subpath", "ALLOWREAD", len(spec.AllowRead))
		b.WriteString(")\n")
	}
}

// writeHidden denies reading wisp's home, metadata included, after the
// secrets and what allowRead gives back, so that no allowRead entry can
// give it back: its outputs, threads and audit log hold what commands run
// outside the sandbox printed, and the model reaches them through wisp.
func writeHidden(b *strings.Builder, spec sandbox.Spec) {
	if len(spec.Hidden) == 0 {
		return
	}
	b.WriteString("\n; wisp's home is not readable either: its outputs and threads hold what\n")
	b.WriteString("; commands run outside the sandbox printed.\n")
	b.WriteString("(deny file-read*\n")
	writeFilters(b, "subpath", "HIDE", len(spec.Hidden))
	b.WriteString(")\n")
}

// writeProcesses keeps signals and process information inside the sandbox,
// as Landlock's scoping does: a command cannot stop or kill wisp, nor look
// into its descriptors, its memory regions or its other processes. Seatbelt
// has no rule for the environment and arguments that sysctl's
// KERN_PROCARGS2 gives of a process of the same user, so that stays open
// (docs/trust.md says so).
func writeProcesses(b *strings.Builder, _ sandbox.Spec) {
	b.WriteString("\n; Signals reach only processes inside this sandbox, never wisp.\n")
	b.WriteString("(deny signal)\n(allow signal (target same-sandbox))\n")
	b.WriteString("\n; Nor does process information: wisp's descriptors and memory are its own.\n")
	b.WriteString("(deny process-info* (target others))\n(allow process-info* (target same-sandbox))\n")
}

// writeLocalServices closes, unless Unix sockets are allowed, the ways a
// macOS command asks another program to run something outside the
// sandbox, as a Linux one would through D-Bus: Apple events (Terminal's
// `do script`), Launch Services (`open` of a script or an app), and the
// tools that submit launchd jobs or send Apple events. A program of the
// command's own can still ask launchd through its API; docs/trust.md says so.
func writeLocalServices(b *strings.Builder, spec sandbox.Spec) {
	if spec.UnixSockets {
		return
	}
	b.WriteString("\n; Nor a program that another runs for it outside the sandbox: Apple events,\n")
	b.WriteString("; Launch Services (`open`), launchd jobs. allowUnixSockets gives them back.\n")
	b.WriteString("(deny appleevent-send)\n(deny lsopen)\n")
	b.WriteString("(deny process-exec\n")
	for _, tool := range []string{"/bin/launchctl", "/usr/bin/osascript", "/usr/bin/open"} {
		fmt.Fprintf(b, "  (literal %q)\n", tool)
	}
	b.WriteString(")\n")
}

// writeFilters names n parameters of one list as filters of one kind.
func writeFilters(b *strings.Builder, kind, prefix string, n int) {
	for i := 0; i < n; i++ {
		fmt.Fprintf(b, "  (%s (param \"%s_%d\"))\n", kind, prefix, i)
	}
}
