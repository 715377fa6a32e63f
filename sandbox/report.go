package sandbox

import (
	"fmt"
	"os"
	"strings"
)

// Status is what the sandbox would do here, for `wisp doctor`.
type Status struct {
	// Backend is "landlock" or "seatbelt", or "" when there is none.
	Backend string
	// Err says why commands cannot be confined here (Detect's or Check's
	// error); callers fail closed on it.
	Err error
	// Landlock is what the kernel enforces (Linux only).
	Landlock *LandlockFeatures
	// Namespace is the kind of mount namespace the helper gets (Linux
	// only), and NamespaceWhy why there is none.
	Namespace    Namespace
	NamespaceWhy string
	// Nested is true when wisp runs inside another Seatbelt sandbox (macOS).
	Nested bool
	// Spec is the spec as the backend will enforce it: the roots, the
	// protected paths, and those it cannot cover.
	Spec Spec
	// Gaps is what the backend says it does not refuse (Gapper), beside
	// what Landlock's features tell.
	Gaps []string
	// DroppedEnv names the variables of wisp's environment that confined
	// commands go without (names only).
	DroppedEnv []string
}

// Report says what confining a command to spec means on this system, with
// exe as the helper where one is needed.
func Report(exe string, spec Spec) Status {
	_, dropped := spec.Env.Filter(os.Environ())
	b, err := Detect(exe)
	if err != nil {
		return Status{Spec: spec, Err: err, DroppedEnv: dropped}
	}
	st := Checked(b, spec)
	st.DroppedEnv = dropped
	describeBackend(&st, b)
	return st
}

// Checked is the part of the status that b itself says about spec: its
// name, the spec as it will enforce it (or why not), and what it does not
// refuse (Gapper). Report adds what it finds on this system.
func Checked(b Backend, spec Spec) Status {
	st := Status{Backend: b.Name()}
	st.Spec, st.Err = b.Check(spec)
	if g, ok := b.(Gapper); ok {
		st.Gaps = g.Gaps(st.Spec)
	}
	return st
}

// Summary is the one line `wisp doctor` prints.
func (s Status) Summary() string {
	if s.Err != nil {
		return "none: " + s.Err.Error()
	}
	parts := []string{s.mechanism()}
	if s.Nested {
		parts = append(parts, "wisp runs inside another sandbox, so commands run plainly under that one")
	}
	parts = append(parts, plural(len(s.Spec.Roots), "writable root")+", "+plural(len(s.Spec.Protected), "protected path"))
	if ns := s.namespaceLine(); ns != "" {
		parts = append(parts, ns)
	}
	for _, u := range s.Spec.Unprotected {
		parts = append(parts, fmt.Sprintf("NOT protected: %s (%s)", u.Path, u.Why))
	}
	parts = append(parts, s.readSummary())
	for _, u := range s.Spec.Unreadable {
		parts = append(parts, fmt.Sprintf("NOT unreadable: %s (%s)", u.Path, u.Why))
	}
	if n := s.networkSummary(); n != "" {
		parts = append(parts, n)
	}
	return strings.Join(parts, "; ")
}

func (s Status) mechanism() string {
	if s.Landlock == nil {
		return s.Backend
	}
	return fmt.Sprintf("landlock ABI %d enforces %s", s.Landlock.ABI, strings.Join(s.Landlock.Enforced(s.Spec.Network, s.UnixGuard()), ", "))
}

func (s Status) namespaceLine() string {
	switch s.Namespace {
	case NamespaceMount, NamespaceUser:
		return fmt.Sprintf("a %s namespace makes everything outside the roots read-only, metadata included, keeps the protected paths inside them read-only, and covers wisp's home and the secret folders", s.Namespace)
	case NamespaceNone:
		return "no mount namespace (" + s.NamespaceWhy + ")"
	}
	return ""
}

// UnixGuard is how this mode keeps the person's Unix sockets from a
// command (Landlock only).
func (s Status) UnixGuard() UnixGuard {
	viewed := s.Namespace == NamespaceMount || s.Namespace == NamespaceUser
	return s.Landlock.UnixGuard(s.Spec.UnixSockets, viewed)
}

// NamespaceGaps are what does not hold for want of a mount namespace.
func (s Status) NamespaceGaps() []string {
	if s.Namespace != NamespaceNone || s.Landlock == nil {
		return nil
	}
	return []string{
		"outside the roots a command can change the mode, owner and times of files you own (Landlock has no right for metadata, and no mount namespace can be had here for a read-only view); extended attributes are refused",
		"a command cannot open a pseudo-terminal it made by name (script, expect, a test's pty): by name its terminals and other sessions' are one folder, and only its own is granted",
		"nothing covers wisp's home or a secret folder (no mount namespace): a command can list every name in them, see their sizes and times, and watch them (inotify, fanotify) to see each read of a key and each new output of wisp's as it happens; it cannot read them",
	}
}

// ProcessGaps are what does not hold of a command's processes ending with
// its run: allowed to run on, or, without a PID namespace, ended by a
// helper the command itself can kill.
func (s Status) ProcessGaps() []string {
	switch {
	case s.Spec.Background:
		return []string{"processes a command starts in the background (setsid, nohup, a daemon) run on after it (commandPolicy.sandbox.allowBackground), and can write in the roots, .git included, after what it wrote there was put back"}
	case s.Namespace == NamespaceNone:
		return []string{"a command's processes end with its run, but without a PID namespace the helper that ends them shares the command's sandbox: a command that kills or stops it (kill -9 $PPID), or one wisp must kill with it after the grace period, leaves those that left its group running"}
	}
	return nil
}

// Lines is the full report: the summary's facts one a line, then every
// root, protected path and gap.
func (s Status) Lines() []string {
	if s.Err != nil {
		return []string{"sandbox: none: " + s.Err.Error()}
	}
	lines := []string{"sandbox: " + s.mechanism()}
	if ns := s.namespaceLine(); ns != "" {
		lines = append(lines, "namespace: "+ns)
	}
	for _, r := range s.Spec.Roots {
		lines = append(lines, "writable: "+r)
	}
	for _, p := range s.Spec.Protected {
		lines = append(lines, "protected: "+p)
	}
	for _, u := range s.Spec.Unprotected {
		lines = append(lines, fmt.Sprintf("NOT protected: %s (%s)", u.Path, u.Why))
	}
	lines = append(lines, s.readLines()...)
	lines = append(lines, s.networkLines()...)
	if s.Landlock != nil {
		gaps := append(append(s.Landlock.Gaps(s.Spec.Network, s.UnixGuard()), s.NamespaceGaps()...), readGaps()...)
		for _, g := range append(gaps, s.ProcessGaps()...) {
			lines = append(lines, "not covered: "+g)
		}
	}
	for _, g := range s.Gaps {
		lines = append(lines, "not covered: "+g)
	}
	return lines
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Namespace says how the helper gets a private mount namespace, in which it
// binds the protected paths that lie inside a root read-only.
type Namespace string

const (
	// NamespaceAuto finds out once, by a probe, which of the others works.
	NamespaceAuto Namespace = ""
	// NamespaceMount unshares a mount namespace in the helper itself; it
	// needs CAP_SYS_ADMIN (root).
	NamespaceMount Namespace = "mount"
	// NamespaceUser runs the command in a new user and mount namespace, as
	// an unprivileged user can where the system allows it.
	NamespaceUser Namespace = "user"
	// NamespaceNone uses no namespace: a protected path inside a root stays
	// writable, and the helper refuses to run if asked to protect one.
	NamespaceNone Namespace = "none"
)
