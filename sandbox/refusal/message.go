package refusal

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

const (
	// maxNamed and rootsBudget bound the line (docs/decisions.md, D10): at most three paths,
	// and about 240 bytes of roots.
	maxNamed    = 3
	rootsBudget = 240
	more        = ", …"
	// offer ends the model's line when the operator allows a run outside
	// the sandbox (docs/decisions.md, D23).
	offer = "; if it must, ask again with outsideSandbox true (the person approves each run)"
)

// goos picks the other causes named for not-the-sandbox; tests set it.
var goos = runtime.GOOS

// ModelLine is the one line the model reads after the command's output, in
// decision D10's wording; empty for None. offerOutside (the operator's
// allowOutsideSandbox) adds decision D23's offer to refused and guess.
func (r Result) ModelLine(roots []string, offerOutside bool) string {
	var line string
	switch r.Verdict {
	case RefusedRead:
		return r.secretModelLine()
	case Network:
		return r.networkModelLine(offerOutside)
	case RefusedSocket:
		return r.socketModelLine(offerOutside)
	case SetID:
		return r.setIDModelLine(offerOutside)
	case SetIDMode:
		return r.setIDModeModelLine(offerOutside)
	case NestedSandbox:
		return r.nestedModelLine(offerOutside)
	case Refused:
		line = "sandbox: refused writing to " + r.refusedClause(roots)
		if r.GitLine != "" {
			line += r.gitConfigModel()
		}
	case NotTheSandbox:
		line = "sandbox: not the sandbox: " + r.insideClause()
	case Guess:
		line = "sandbox: the sandbox may have refused this (" + r.errnoText() +
			", no path to check: a network connection, a process, or a file the error does not name); no policy rule denied it"
	default:
		return ""
	}
	return withOffer(line, offerOutside && r.Verdict != NotTheSandbox)
}

// withOffer ends line with decision D23's offer when the operator allows the run
// outside the sandbox.
func withOffer(line string, offerOutside bool) string {
	if offerOutside {
		return line + offer
	}
	return line
}

// PersonNote is the note the person reads under a command they typed, in
// decision D10's wording; empty for None.
func (r Result) PersonNote(roots []string) string {
	switch r.Verdict {
	case RefusedRead:
		return r.secretPersonNote()
	case Network:
		return r.networkPersonNote()
	case RefusedSocket:
		return r.socketPersonNote()
	case SetID:
		return r.setIDPersonNote()
	case SetIDMode:
		return r.setIDModePersonNote()
	case NestedSandbox:
		return r.nestedPersonNote()
	case Refused:
		if r.GitLine != "" {
			return "· the sandbox refused writing to " + r.refusedClause(roots) + r.gitConfigNote()
		}
		return "· the sandbox refused writing to " + r.refusedClause(roots)
	case NotTheSandbox:
		return "· not the sandbox: " + r.insideClause()
	case Guess:
		return "· the sandbox may have refused it (no path to check), " + r.errnoText() + "; no policy rule denied it"
	}
	return ""
}

// refusedClause: "/x; commands may write only under <roots>". A protected
// path lies inside a root, so the clause says it is excluded; the Seatbelt profile of decision D10 had
// none inside its roots and its wording does not.
func (r Result) refusedClause(roots []string) string {
	s := named(r.Refused) + "; commands may write only under " + bounded(roots)
	if len(roots) == 0 {
		s = named(r.Refused) + "; commands may write nowhere here"
	}
	if len(r.Protected) > 0 {
		s += ", and not under " + named(r.Protected)
	}
	return s
}

func (r Result) insideClause() string {
	verb := " is"
	if len(r.Paths) > 1 {
		verb = " are"
	}
	return named(r.Paths) + verb + " inside the writable roots, so something else refused it (" + otherCauses(r.Errno) + ")"
}

func (r Result) errnoText() string {
	if r.Errno != "" {
		return r.Errno
	}
	if goos == "darwin" {
		return "Operation not permitted"
	}
	return "Permission denied"
}

// otherCauses fills not-the-sandbox's parenthesis with what refuses a
// write inside the roots, for the errno seen.
func otherCauses(errno string) string {
	switch {
	case errno == "Read-only file system":
		return "a read-only file system"
	case errno == notWritable:
		return "file permissions or ownership"
	case goos == "darwin" && errno == "Operation not permitted":
		return "file permissions, file flags or System Integrity Protection"
	case goos == "darwin":
		return "file permissions or an access control list"
	case errno == "Operation not permitted":
		return "file permissions or file attributes such as immutable"
	}
	return "file permissions"
}

// named joins at most three paths, then ", …".
func named(paths []string) string {
	if len(paths) <= maxNamed {
		return strings.Join(paths, ", ")
	}
	return strings.Join(paths[:maxNamed], ", ") + more
}

// bounded joins roots within about 240 bytes (the first always), then ", …".
func bounded(roots []string) string {
	var b strings.Builder
	for i, root := range roots {
		if i > 0 && b.Len()+len(", ")+len(root) > rootsBudget {
			return b.String() + more
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(root)
	}
	return b.String()
}

// Folders are the directories holding the refused paths outside the roots
// (not the protected ones, which no grant may open), once each: the folder
// decision D13's grant nudge would name before widening it to a repository root.
func Folders(r Result) []string {
	if r.Verdict == RefusedRead {
		return nil // a secret is the person's to give, not a folder to grant
	}
	var out []string
	for _, p := range r.Refused {
		if underAny(p, r.Protected) {
			continue
		}
		if dir := filepath.Dir(p); !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}
