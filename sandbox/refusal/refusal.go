// Package refusal owns the refusal check of decisions D8 and D9
// (docs/decisions.md): when a confined command fails, it reads the command's output for
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
// A line is read by its errno and the path it names, never by words nearby
// (a URL, "socket"): a line naming a file is about that file. One naming
// none is read for a refused connection, which is the sandbox's only while
// the network is off (Input.NetworkOff), and is then named as the network
// being off (Network), with the domain list as the way to open it when the
// client speaks HTTP; with the network on the sandbox refuses no
// connection, so a refused one says nothing. A Unix socket refused is
// RefusedSocket while Unix sockets are off. A mode change refused with
// EPERM inside the roots is SetIDMode. On macOS, a set-ID program
// Seatbelt will not start is SetID, and a tool's own sandbox refused inside
// wisp's is NestedSandbox.
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
	// connection counted (Network); with the network on the sandbox refuses
	// no connection.
	NetworkOff bool
	// UnixSockets says Unix sockets are allowed: a refused one is then not
	// the sandbox's.
	UnixSockets bool
	// Command is the line that ran: it names the tool whose own sandbox
	// macOS refused (NestedSandbox).
	Command string
	// SetID says whether a real path is a set-user-ID or set-group-ID
	// program; nil stats it. Tests inject one.
	SetID func(string) bool
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
	// Hosts are the hosts a refused connection named (Network), and
	// ViaProxy says the client speaks HTTP, so that a host listed in
	// commandPolicy.sandbox.allowedDomains would serve.
	Hosts    []string
	ViaProxy bool
	// Switch is the tool's own switch that turns its sandbox off
	// (NestedSandbox), "" when wisp knows none.
	Switch string
	// GitLine is the git command to run outside the sandbox when what was
	// refused is a repository's git config (gitconfig.go), "" otherwise.
	GitLine string
}

// BySandbox reports whether the verdict names the sandbox as what refused
// (or may have refused) the command: every verdict but None and
// NotTheSandbox.
func (r Result) BySandbox() bool {
	return r.Verdict != None && r.Verdict != NotTheSandbox
}

// Certain reports whether the verdict rests on more than a guess: the
// sandbox refused something the output names. A command that exits 0 is
// reported only for these; a guess or another cause is not worth a line
// about a command that worked.
func (r Result) Certain() bool {
	return r.BySandbox() && r.Verdict != Guess && (r.Verdict != SetIDMode || len(r.Paths) > 0)
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
	found := scan(in.Output, scanMode{networkOff: in.NetworkOff, unixSockets: in.UnixSockets})
	if r, ok := checkSecrets(in, found); ok {
		return r
	}
	if !found.counted() {
		return Result{}
	}
	return judge(in, found)
}

// judge resolves the paths found and gives the verdict. A refused write
// comes first (it names what to do), then what Seatbelt alone refuses,
// then a refused socket or connection, and only then another cause or a
// guess: a line that names the sandbox's refusal is surer than one that
// names nothing.
func judge(in Input, found findings) Result {
	resolve := in.Resolve
	if resolve == nil {
		resolve = RealPath
	}
	r := Result{Errno: found.errno}
	setIDs := setIDPrograms(in, found.execs, resolve)
	unplaced := r.checkPaths(in, found.paths, resolve, setIDs)
	if found.lines == 0 && len(r.Paths) == 0 {
		return Result{} // only lines that count on a protected path, and none was
	}
	if r.Errno == "" {
		r.Errno = found.tentative
	}
	switch {
	case len(r.Refused) > 0:
		r.Verdict = Refused
		r.GitLine = gitConfigLine(in.Command, r.Protected)
	case found.nested:
		return Result{Verdict: NestedSandbox, Errno: "Operation not permitted", Switch: nestedSwitch(in.Command, in.Output)}
	case len(setIDs) > 0:
		return Result{Verdict: SetID, Paths: setIDs, Refused: setIDs, Errno: "Operation not permitted"}
	case found.modeChange:
		return Result{Verdict: SetIDMode, Paths: r.Paths, Errno: "Operation not permitted"}
	case found.socket:
		return Result{Verdict: RefusedSocket, Paths: resolveAll(absoluteAll(found.sockets, in), resolve), Errno: found.errno}
	case found.network:
		return Result{Verdict: Network, Hosts: found.hosts, ViaProxy: found.viaProxy, Errno: found.errno}
	case found.unnamed || unplaced || len(r.Paths) == 0:
		r.Verdict = Guess // some refusal named nothing that could be checked
	default:
		r.Verdict = NotTheSandbox
	}
	return r
}

// checkPaths places each path named, but the set-ID programs (skip), which
// were started, not written. It reports whether one could not be placed
// (~user, or relative with no directory), which leaves a guess.
func (r *Result) checkPaths(in Input, paths []namedPath, resolve func(string) string, skip []string) (unplaced bool) {
	place := newPlacer(in, resolve)
	for _, n := range paths {
		p, ok := absolute(n.raw, in.Dir, in.Home)
		switch {
		case !ok:
			unplaced = unplaced || !n.protectedOnly
		case contains(skip, resolve(p)):
		case !n.protectedOnly:
			r.add(place, resolve(p))
		case place.isProtected(resolve(p)):
			r.add(place, resolve(p))
		}
	}
	return unplaced
}

// absoluteAll makes each path absolute, leaving out those it cannot place.
func absoluteAll(paths []string, in Input) []string {
	var out []string
	for _, raw := range paths {
		if p, ok := absolute(raw, in.Dir, in.Home); ok {
			out = append(out, p)
		}
	}
	return out
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
