package refusal

import "strings"

// SetIDMode: a command's change of a file's mode was refused with EPERM
// inside the roots, which is how the sandbox refuses a set-user-ID or
// set-group-ID bit (Landlock's seccomp filter, where the bit could grant
// more than the person's own rights; Seatbelt's file-write-setugid,
// always). The line does not show the mode, so the note also names what
// else refuses a mode change: a file of someone else's, or an immutable one.
const SetIDMode Verdict = "set-id-mode"

// modeChangeTexts mark a line about changing a file's mode: GNU chmod,
// install and cp, BSD chmod, Go's *PathError and Node's.
var modeChangeTexts = []string{
	"changing permissions of ", "change permissions of ", "preserving permissions for ",
	"setting permissions for ", "Unable to change file mode", "chmod ",
}

// isModeChange: an EPERM line about a mode change, or Python's
// PermissionError under a call of os.chmod.
func isModeChange(line, prev string, e *errnoText) bool {
	if e.name != "Operation not permitted" {
		return false
	}
	for _, t := range modeChangeTexts {
		if strings.Contains(line, t) {
			return true
		}
	}
	return strings.Contains(line, "[Errno 1]") && strings.Contains(prev, "chmod(")
}

// setIDModeModelLine is the model's line for SetIDMode.
func (r Result) setIDModeModelLine(offerOutside bool) string {
	line := "sandbox: refused a set-user-ID or set-group-ID mode" + r.onPaths() + " (" + r.errnoText() + "): " +
		setIDModeRule() + "; no policy rule denied it; if the mode had neither bit, the file is someone else's or immutable"
	if offerOutside {
		return line + offer
	}
	return line + "; the person can run the command themselves with !!"
}

// setIDModePersonNote is the person's note for SetIDMode.
func (r Result) setIDModePersonNote() string {
	return "· the sandbox refused a set-user-ID or set-group-ID mode" + r.onPaths() + ": " + setIDModeRule() +
		"; if the mode had neither bit, the file is someone else's or immutable; type !! before the command to run it as yourself"
}

func (r Result) onPaths() string {
	if len(r.Paths) == 0 {
		return ""
	}
	return " on " + named(r.Paths)
}

// setIDModeRule says what each system's sandbox allows.
func setIDModeRule() string {
	if goos == "darwin" {
		return "macOS's sandbox lets no command set those bits (file-write-setugid)"
	}
	return "a confined command may set them only where they grant no one more than the person's own rights " +
		"(none as root; set-group-ID that others may run only on a group of the person's alone)"
}
