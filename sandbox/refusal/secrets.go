package refusal

import "strings"

// RefusedRead: a path named lies under a secret the sandbox keeps
// unreadable (commandPolicy.sandbox.denyRead). It comes before the other
// verdicts: what the model must hear is that the file is the person's to
// give, not a folder to ask for.
const RefusedRead Verdict = "refused-read"

// writePhrases mark a line about a write, which stays one even on a secret.
var writePhrases = []string{"for writing", "cannot create", "cannot remove", "cannot touch",
	"cannot move", "cannot overwrite", "cannot make directory", "cannot rename", "unable to create",
	"Read-only file system"}

// noteReads keeps the paths of a refusal line that may be a read: the
// kernel's answer to reading a secret is the same errno as to a write.
func (f *findings) noteReads(line, prev string, e *errnoText, head, tail string) {
	if e.protectedOnly || isLoginRefusal(tail) || isWrite(line) {
		return
	}
	kind, paths := kindOf(line, prev, e, head, tail)
	if kind != aboutFile {
		return
	}
	for _, p := range paths {
		if len(f.reads) < maxPaths {
			f.reads = append(f.reads, p)
		}
	}
}

// isWrite: the line says it is about a write.
func isWrite(line string) bool {
	for _, w := range writePhrases {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

// checkSecrets gives RefusedRead when a path the output names as refused
// lies under one of in.DenyRead and under none of in.AllowRead.
func checkSecrets(in Input, found findings) (Result, bool) {
	if len(in.DenyRead) == 0 || len(found.reads) == 0 {
		return Result{}, false
	}
	resolve := in.Resolve
	if resolve == nil {
		resolve = RealPath
	}
	r := Result{Verdict: RefusedRead, Errno: found.errno}
	for _, raw := range found.reads {
		p, ok := absolute(raw, in.Dir, in.Home)
		if !ok {
			continue
		}
		if real := resolve(p); underAny(real, in.DenyRead) && !underAny(real, in.AllowRead) && !contains(r.Paths, real) {
			r.Paths = append(r.Paths, real)
		}
	}
	if len(r.Paths) == 0 {
		return Result{}, false
	}
	r.Refused = r.Paths
	if r.Errno == "" {
		r.Errno = found.readErrno
	}
	return r, true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// secretReason is the clause after the path, in both the model's line and
// the person's note.
const secretReason = ": secrets are not readable in the sandbox (commandPolicy.sandbox.denyRead)"

// secretGive tells the model how the person can give it the file.
const secretGive = "; if you really need it, ask the person to paste it, or to run the command themselves with !!"

// secretModelLine is the model's line for RefusedRead.
func (r Result) secretModelLine() string {
	return "sandbox: refused reading " + named(r.Paths) + secretReason + secretGive
}

// secretPersonNote is the person's note for RefusedRead.
func (r Result) secretPersonNote() string {
	return "· the sandbox refused reading " + named(r.Paths) + secretReason + "; type !! before the command to run it as yourself"
}
