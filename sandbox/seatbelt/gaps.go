package seatbelt

import "github.com/wisp-sh/wisp/sandbox"

// Gaps lists what the macOS profile does not refuse, for `wisp
// sandbox report` (docs/trust.md's table "Seatbelt at parity with Linux"
// says the same, beside what Linux does).
func Gaps(spec sandbox.Spec) []string {
	gaps := []string{
		"a command can read the arguments and environment of wisp and of your other processes (sysctl's KERN_PROCARGS2, for which Seatbelt has no rule): keep secrets out of wisp's environment",
		"a command can write to every terminal of yours (/dev/ttys*), and type into its controlling terminal (TIOCSTI), which is wisp's when it runs in wisp's terminal",
		"a process that leaves the command's group (setsid, a daemon) outlives the run",
	}
	if spec.UnixSockets {
		return append(gaps, "Unix sockets, Apple events, open, launchctl and osascript are allowed (commandPolicy.sandbox.allowUnixSockets): a command can reach docker, tmux and the agents, and have other programs run commands outside the sandbox")
	}
	return append(gaps, "Mach services stay reachable, and a program of the command's own can ask launchd to run a job outside the sandbox")
}
