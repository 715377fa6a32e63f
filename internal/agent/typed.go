package agent

import "strings"

// Typed is a line the person typed after ! or !!: a command they run
// themselves, with no approval and no time limit.
type Typed struct {
	// Command is what follows the marks, trimmed; empty for a bare ! or !!,
	// which runs nothing.
	Command string
	// OutsideSandbox is set by !!: the person runs it outside the sandbox.
	OutsideSandbox bool
}

// ParseTyped reads a line as decision D25 says: a line
// that starts with the two marks together, !!, is a command the person
// runs outside the sandbox, what follows trimmed (!!x and !! x alike); a
// line that starts with one ! is a command run in the sandbox. Only the
// marks together count, so ! !x runs the command !x in the sandbox, and
// !!!x runs !x outside. ok is false for a line that is not a command.
func ParseTyped(line string) (t Typed, ok bool) {
	switch {
	case strings.HasPrefix(line, "!!"):
		return Typed{Command: strings.TrimSpace(line[2:]), OutsideSandbox: true}, true
	case strings.HasPrefix(line, "!"):
		return Typed{Command: strings.TrimSpace(line[1:])}, true
	}
	return Typed{}, false
}

// Marks is how the line was typed: ! or !!.
func (t Typed) Marks() string {
	if t.OutsideSandbox {
		return "!!"
	}
	return "!"
}
