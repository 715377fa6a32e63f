package refusal

import (
	"bytes"
	"slices"
	"sort"
	"strings"
)

// errnoText is one errno message the sandbox causes. A line matches it
// with either case of its first letter, so the C library's "Permission
// denied" and the lower-case forms of zsh, Go and Node ("permission
// denied: /x", "EACCES: permission denied, open '/x'") are both read.
type errnoText struct {
	name string
	// protectedOnly: the sandbox causes this errno only on a protected
	// path, so a line with it counts only for a path that is one.
	protectedOnly bool
}

var errnoTexts = []errnoText{
	{"Operation not permitted", false}, // EPERM: Seatbelt, file flags
	{"Permission denied", false},       // EACCES: Landlock, file modes
	{"Read-only file system", false},   // EROFS: a read-only bind
	// EBUSY: a rename over a protected file bound read-only on Linux (git
	// config writes .git/config.lock and renames it onto .git/config).
	{"Device or resource busy", true},
}

// quickNeedles find every errno text above (either case) and Homebrew's
// marker, one pass each. Each starts with a byte that is rare in build and
// test logs, which keeps bytes.Index on its IndexByte path: needles that
// began with "e", "T" or "P" made the scan of 16 KiB of go test output
// without any errno cost 5 to 35 times as much.
var quickNeedles = [][]byte{
	[]byte("peration not permitted"), []byte("mission denied"), []byte("y file system"),
	[]byte("busy"), []byte("y your user:"),
}

// networkOffTexts report a refused TCP connection without the errno text.
// While the network is off Landlock refuses every TCP connection (EACCES)
// before it leaves the machine, so these count then, and only then.
// A name lookup fails too: the resolver's UDP socket is refused.
var networkOffTexts = []string{
	"Couldn't connect to server",           // curl and git over HTTP (libcurl)
	"connect EACCES",                       // Node and npm
	"Could not resolve host: ",             // curl and git over HTTP
	"Temporary failure in name resolution", // glibc's resolver (Python, wget)
	"getaddrinfo EAI_AGAIN",                // Node and npm
}

// networkOffNeedles find those, each from a byte rare in logs, as
// quickNeedles do.
var networkOffNeedles = [][]byte{[]byte("'t connect to server"), []byte("CCES"),
	[]byte("Could not resolve"), []byte("y failure in name"), []byte("I_AGAIN")}

// networkOffErrno is what the kernel returned for those.
const networkOffErrno = "Permission denied"

// brewMarker opens Homebrew's list: it checks its directories before it
// writes and reports the sandbox's refusal only this way (docs/decisions.md, D9).
var brewMarker = []byte("The following directories are not writable by your user:")

// npm names the path of a failed file operation on a line of its own.
var (
	npmPathPrefixes = []string{"npm ERR! path ", "npm error path "}
	npmNeedle       = []byte("path ")
)

// notWritable is Result.Errno when Homebrew's list is all there was.
const notWritable = "not writable"

// mayHoldRefusal is the cheap first pass: an output without any errno text
// and without Homebrew's list needs nothing more.
func mayHoldRefusal(out []byte, networkOff bool) bool {
	for _, n := range quickNeedles {
		if bytes.Contains(out, n) {
			return true
		}
	}
	for _, n := range networkOffNeedles {
		if networkOff && bytes.Contains(out, n) {
			return true
		}
	}
	return false
}

// findings is what the lines yield before anything is resolved.
type findings struct {
	paths     []namedPath // as the output names them, in order, distinct
	unnamed   bool        // a counted errno line named no path that can be checked
	errno     string      // the errno text of the first counted line
	lines     int         // counted lines
	tentative string      // the errno of lines that count only for a protected path
	// npm's path lines count once npm itself printed a counted errno line;
	// it prints them for every failure (ENOENT too).
	npmPaths   []string
	npmRefused bool
	// reads are the paths of errno lines that may be reads, and readErrno
	// their errno, for a secret refused (RefusedRead).
	reads     []string
	readErrno string
	// network: a connection refused with the network off, to hosts, by a
	// client that speaks HTTP (viaProxy) on every such line.
	network  bool
	hosts    []string
	viaProxy bool
	// socket: a Unix socket refused, at sockets when named.
	socket  bool
	sockets []string
	// execs are the paths of EPERM lines that may name a program that could
	// not be started; nested, a tool's own sandbox refused.
	execs  []string
	nested bool
	// modeChange: an EPERM line about changing a file's mode (SetIDMode).
	modeChange bool
}

// scanMode is what of the sandbox decides whether a line counts.
type scanMode struct {
	networkOff  bool // a refused connection counts
	unixSockets bool // Unix sockets are allowed: a refused one does not count
}

// namedPath is a path as the output gave it.
type namedPath struct {
	raw           string
	protectedOnly bool // counts only if it lies on a protected path
}

func (f findings) counted() bool { return f.lines > 0 || f.tentative != "" }

func (f *findings) addPath(p string, protectedOnly bool) {
	for i := range f.paths {
		if f.paths[i].raw == p {
			f.paths[i].protectedOnly = f.paths[i].protectedOnly && protectedOnly
			return
		}
	}
	if len(f.paths) < maxPaths {
		f.paths = append(f.paths, namedPath{p, protectedOnly})
	}
}

func (f *findings) count(errno string) {
	f.lines++
	if f.errno == "" {
		f.errno = errno
	}
}

// countNetwork counts a refused connection and the hosts it names.
func (f *findings) countNetwork(errno, line string) {
	if !f.network {
		f.viaProxy = true
	}
	f.count(errno)
	f.network = true
	hosts := hostsOn(line)
	f.viaProxy = f.viaProxy && speaksHTTP(line) && !slices.ContainsFunc(hosts, isThisMachine)
	for _, h := range hosts {
		if !contains(f.hosts, h) && len(f.hosts) < maxNamed+1 {
			f.hosts = append(f.hosts, h)
		}
	}
}

// countSocket counts a refused Unix socket and the path it names.
func (f *findings) countSocket(errno string, paths []string) {
	f.count(errno)
	f.socket = true
	for _, p := range paths {
		if !contains(f.sockets, p) {
			f.sockets = append(f.sockets, p)
		}
	}
}

// noteExecs keeps what an EPERM line may name as a program not started:
// the paths it names, or the whole head ("/bin/ps: ").
func (f *findings) noteExecs(head string, paths []string) {
	if p, ok := execHead(head); ok {
		paths = append(paths, p)
	}
	for _, p := range paths {
		if len(f.execs) < maxPaths && !contains(f.execs, p) {
			f.execs = append(f.execs, p)
		}
	}
}

// countPaths counts a line and what it names; naming nothing, it is unnamed.
func (f *findings) countPaths(errno string, paths []string) {
	f.count(errno)
	f.unnamed = f.unnamed || len(paths) == 0
	for _, p := range paths {
		f.addPath(p, false)
	}
}

// scan reads the lines that matter, in the order the output has them.
func scan(out []byte, m scanMode) findings {
	var f findings
	for _, start := range interestingLines(out, m.networkOff) {
		line := lineAt(out, start)
		if strings.Contains(line, string(brewMarker)) {
			readBrewList(out[start:], &f)
			continue
		}
		readLine(line, lineBefore(out, start), m, &f)
	}
	for _, p := range f.npmPaths {
		if f.npmRefused {
			f.addPath(p, false)
		}
	}
	return f
}

// readBrewList takes the paths listed after Homebrew's marker, up to the
// first line that is not one.
func readBrewList(from []byte, f *findings) {
	found, marker := false, true
	for line := range bytes.Lines(from) {
		l := strings.TrimSpace(string(line))
		if marker {
			marker = false
			continue
		}
		if !strings.HasPrefix(l, "/") && !strings.HasPrefix(l, "~") {
			break
		}
		f.addPath(l, false)
		found = true
	}
	f.count(notWritable)
	f.unnamed = f.unnamed || !found
}

// interestingLines gives the start of every line holding a needle, sorted
// and distinct. It searches the whole output per needle rather than line by
// line, which keeps a long output with one refusal cheap.
func interestingLines(out []byte, networkOff bool) []int {
	var starts []int
	add := func(needle []byte) {
		for off := 0; ; {
			i := bytes.Index(out[off:], needle)
			if i < 0 {
				return
			}
			at := off + i
			starts = append(starts, bytes.LastIndexByte(out[:at], '\n')+1)
			off = at + len(needle)
		}
	}
	needles := append(slices.Clip(quickNeedles), npmNeedle)
	if networkOff {
		needles = append(needles, networkOffNeedles...)
	}
	for _, n := range needles {
		add(n)
	}
	sort.Ints(starts)
	return distinct(starts)
}

func distinct(sorted []int) []int {
	out := sorted[:0]
	for i, v := range sorted {
		if i == 0 || v != sorted[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// lineBefore is the line before the one starting at start, "" for the first.
func lineBefore(out []byte, start int) string {
	if start == 0 {
		return ""
	}
	return lineAt(out, bytes.LastIndexByte(out[:start-1], '\n')+1)
}

// lineAt is the line starting at start, without its end and any \r.
func lineAt(out []byte, start int) string {
	end := bytes.IndexByte(out[start:], '\n')
	if end < 0 {
		end = len(out) - start
	}
	line := strings.TrimRight(string(out[start:start+end]), "\r")
	if i := strings.LastIndexByte(line, '\r'); i >= 0 {
		line = line[i+1:] // a progress line redrawn: the last drawing is what shows
	}
	return strings.TrimRight(line, " \t")
}
