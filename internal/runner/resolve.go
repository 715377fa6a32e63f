package runner

// Wording of decisions D15, D21 and D26 (docs/decisions.md): the product's
// text, shown to the model and to the person.
const (
	switchOffModel = "running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); " +
		"run it without outsideSandbox, or ask the person to run it themselves"
	switchOff = "running outside the sandbox is turned off here (commandPolicy.sandbox.allowOutsideSandbox is false); "
	// DefaultInSandboxHint ends the person's refusal in chat.
	DefaultInSandboxHint = "type it after a single ! to run it in the sandbox"

	changedNothingOffModel    = "sandbox: outsideSandbox changed nothing: the sandbox is off here"
	changedNothingNestedModel = "sandbox: outsideSandbox changed nothing: wisp runs inside another sandbox, which confined this command"
	changedNothingOffPerson   = "!! changes nothing here: the sandbox is off, so every command runs without it"
	changedNothingNestPerson  = "!! changes nothing here: wisp runs inside another sandbox, which confines this command"

	ranOutsideLine      = "sandbox: ran outside the sandbox, as the person approved, this once"
	ranOutsideTypedLine = "sandbox: ran outside the sandbox, as the person typed it"
	// OutsideTypedNote marks a person's !! line before it runs (docs/decisions.md, D27).
	OutsideTypedNote = "! running OUTSIDE the sandbox, as you typed it: it may write anywhere you can"
)

// Mode is what a request comes to, given the settings: confined, plainly
// (sandbox off, or under another sandbox), or outside the sandbox.
type Mode int

const (
	ModeConfined Mode = iota
	ModeSandboxOff
	ModeNested
	ModeOutside
	ModeRefused // outsideSandbox asked for while the operator's switch is off
)

// Resolve says what a request comes to (docs/decisions.md, D15 and
// D21): the switch is checked before nesting, so
// off refuses in both; with the sandbox off the request changes nothing.
func (r *Runner) Resolve(outside bool) Mode {
	switch {
	case !r.sandboxOn():
		return ModeSandboxOff
	case outside && !r.Config.CommandPolicy.Sandbox.AllowOutsideSandbox:
		return ModeRefused
	case r.Nested:
		return ModeNested
	case outside:
		return ModeOutside
	}
	return ModeConfined
}

func (r *Runner) sandboxOn() bool {
	return r.Config.CommandPolicy.Sandbox.Enabled && !r.Unsafe
}

// ignoredReason is policy.decision's outsideSandboxIgnored.
func ignoredReason(m Mode) string {
	switch m {
	case ModeSandboxOff:
		return "sandbox-off"
	case ModeNested:
		return "nested"
	}
	return ""
}

func changedNothing(m Mode, origin Origin) string {
	switch {
	case m == ModeSandboxOff && origin == Person:
		return changedNothingOffPerson
	case m == ModeSandboxOff:
		return changedNothingOffModel
	case m == ModeNested && origin == Person:
		return changedNothingNestPerson
	case m == ModeNested:
		return changedNothingNestedModel
	}
	return ""
}
