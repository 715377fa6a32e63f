package approval

import "fmt"

// The thresholds an unset approval.threshold takes. Confined, the sandbox
// is the boundary: a moderate line (a write in the project, a build, a
// test) can only change what the sandbox lets it, so asking is kept for
// what the sandbox cannot undo (high: rm -r, git push, gh). Unconfined
// (the sandbox off, or wisp inside another sandbox whose bounds it does not
// know) nothing of wisp's holds a write back, so every write asks.
const (
	ConfinedDefault   = "high"
	UnconfinedDefault = "moderate"
)

// Confinement is how the gate's commands run, which picks the default
// threshold.
type Confinement int

const (
	Confined   Confinement = iota // the kernel sandbox, not nested
	SandboxOff                    // --unsafe, or commandPolicy.sandbox.enabled false
	Nested                        // wisp runs inside another sandbox
)

// Threshold is the approval.threshold that applies, and why.
type Threshold struct {
	Level string // low, moderate, high or never
	Why   string
}

// ResolveThreshold returns the threshold that applies: the one the operator
// set, always as set, or else the default for how commands run. Outside-
// sandbox requests ask every time whatever it returns (docs/decisions.md, D16).
func ResolveThreshold(set string, c Confinement) Threshold {
	if set != "" {
		return Threshold{set, fmt.Sprintf("approval.threshold is set to %s", set)}
	}
	switch c {
	case Confined:
		return Threshold{ConfinedDefault, "approval.threshold is unset and commands run confined: " +
			"the sandbox is the boundary, so only what it cannot undo asks (rm -r, git push, gh …)"}
	case Nested:
		return Threshold{UnconfinedDefault, "approval.threshold is unset and wisp runs inside another sandbox, " +
			"whose bounds wisp does not know, so every write asks"}
	}
	return Threshold{UnconfinedDefault, "approval.threshold is unset and the sandbox is off, " +
		"so nothing confines a command and every write asks"}
}

// String is doctor's line: the level, then why.
func (t Threshold) String() string {
	return t.Level + ": " + t.Why
}
