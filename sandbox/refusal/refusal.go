// Package refusal owns the refusal check of ADR 0054 (and pr-513 for
// Linux): when a confined command fails, it reads the command's output for
// the kernel's errno text and the paths the output names, resolves each path
// as the sandbox's roots are resolved, and gives one verdict: the sandbox
// refused the write, something else refused it, or the sandbox may have
// refused it (no path to check). It also words the line the model reads and
// the note the person reads.
//
// The check reads text the command printed, which a command could forge: the
// verdict changes only what the model and the person are told, never what
// runs or what the sandbox allows.
//
// A refused network connection is a guess, worded as 0054's guess line
// (which names "a network connection"), not a line of its own: with the
// network off Landlock refuses every TCP connection with EACCES, but so can
// another security module, and Landlock leaves UDP alone, so the output
// alone cannot make it certain; and no record gives a network line's
// wording. It counts only while the network is off (Input.NetworkOff): with
// it on the sandbox refuses no connection, so a refused one says nothing.
// A refused read says nothing, but one of a secret (Input.DenyRead), which
// is RefusedRead: the only reads the sandbox refuses.
package refusal

import "slices"

// Verdict is the outcome of the check.
type Verdict string

const (
	// None: the output holds no errno text the sandbox causes (or only ones
	// it cannot cause, such as a refused read), so there is nothing to say.
	None Verdict = ""
	// Refused: a path named lies outside every writable root, or on or
	// under a protected path.
	Refused Verdict = "refused"
	// NotTheSandbox: every path named lies inside the writable roots and
	// off the protected paths, so something else refused it.
	NotTheSandbox Verdict = "not-the-sandbox"
	// Guess: an errno text with no path to check (a network connection, a
	// process, or a file the error does not name).
	Guess Verdict = "guess"
)

// Input is what the check reads: the command's output (stdout and stderr
// combined) and the sandbox it ran under.
type Input struct {
	Output []byte
	// Dir is the directory the command ran in; relative paths are made
	// absolute from it. Home expands ~ and ~/….
	Dir, Home string
	// Roots are the writable roots and Protected the paths refused even
	// inside them, as the sandbox applied them.
	Roots, Protected []string
	// NetworkOff says the sandbox cut the network: only then is a refused
	// connection counted (as a guess); with the network on the sandbox
	// refuses no connection.
	NetworkOff bool
	// DenyRead are the secrets the sandbox keeps unreadable, AllowRead the
	// entries inside them it gives back (real paths, as the spec has them):
	// a refused path under a secret is RefusedRead.
	DenyRead, AllowRead []string
	// Resolve gives a path's real path; nil means RealPath. Tests inject
	// one so fixtures need not exist on disk.
	Resolve func(string) string
}

// Result is the verdict and what it rests on.
type Result struct {
	Verdict Verdict
	// Paths are the real paths checked, in the order the output named them.
	Paths []string
	// Refused are those of Paths outside every root or on a protected path.
	Refused []string
	// Protected are the protected paths that some of Refused lie on or under.
	Protected []string
	// Errno is the errno text seen ("Operation not permitted", "Permission
	// denied", "Read-only file system"), or "not writable" for Homebrew's
	// list alone.
	Errno string
}

// maxPaths bounds how many distinct paths one output has resolved and
// checked, so that an rm -rf over a large tree costs a bounded number of
// lookups; the first ones named are the ones checked.
const maxPaths = 64

// Check reads in.Output and gives the verdict. Output without any errno text
// or Homebrew's not-writable list returns None after one scan.
func Check(in Input) Result {
	if !mayHoldRefusal(in.Output, in.NetworkOff) {
		return Result{}
	}
	found := scan(in.Output, in.NetworkOff)
	if r, ok := checkSecrets(in, found); ok {
		return r
	}
	if !found.counted() {
		return Result{}
	}
	return judge(in, found)
}

// judge resolves the paths found and gives the verdict.
func judge(in Input, found findings) Result {
	r := Result{Errno: found.errno}
	unplaced := r.checkPaths(in, found.paths)
	if found.lines == 0 && len(r.Paths) == 0 {
		return Result{} // only lines that count on a protected path, and none was
	}
	if r.Errno == "" {
		r.Errno = found.tentative
	}
	switch {
	case len(r.Refused) > 0:
		r.Verdict = Refused
	case found.unnamed || unplaced || len(r.Paths) == 0:
		r.Verdict = Guess // some refusal named nothing that could be checked
	default:
		r.Verdict = NotTheSandbox
	}
	return r
}

// checkPaths places each path named. It reports whether one could not be
// placed (~user, or relative with no directory), which leaves a guess.
func (r *Result) checkPaths(in Input, paths []namedPath) (unplaced bool) {
	resolve := in.Resolve
	if resolve == nil {
		resolve = RealPath
	}
	place := newPlacer(in, resolve)
	for _, n := range paths {
		p, ok := absolute(n.raw, in.Dir, in.Home)
		switch {
		case !ok:
			unplaced = unplaced || !n.protectedOnly
		case !n.protectedOnly:
			r.add(place, resolve(p))
		case place.isProtected(resolve(p)):
			r.add(place, resolve(p))
		}
	}
	return unplaced
}

// add records one resolved path once, and whether it was refused.
func (r *Result) add(place placer, p string) {
	if slices.Contains(r.Paths, p) {
		return
	}
	r.Paths = append(r.Paths, p)
	inside, protected := place.where(p)
	if protected != "" && !slices.Contains(r.Protected, protected) {
		r.Protected = append(r.Protected, protected)
	}
	if !inside || protected != "" {
		r.Refused = append(r.Refused, p)
	}
}
