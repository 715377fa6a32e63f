package refusal

import (
	"strings"
)

// readLine reads one line that holds an errno text or npm's path line; prev
// is the line before it (a Python traceback's call). A counted line either
// names paths or, naming none, makes the verdict at most a guess. Lines the
// sandbox cannot have caused are not counted: a refused read (reads are
// never confined), ssh's refused login, a refused connection while the
// network is on, and a refused Unix socket while they are allowed.
func readLine(line, prev string, m scanMode, f *findings) {
	if p, ok := npmPath(line); ok {
		f.npmPaths = append(f.npmPaths, p)
		return
	}
	e, at := findErrno(line)
	if e == nil {
		if m.networkOff && isNetworkOffText(line) {
			f.countNetwork(networkOffErrno, line)
		}
		return
	}
	head, tail := line[:at], line[at+len(e.name):]
	f.noteReads(line, prev, e, head, tail)
	if f.readErrno == "" && !e.protectedOnly {
		f.readErrno = e.name
	}
	switch {
	case e.protectedOnly:
		f.tentative = e.name
		for _, p := range pathsOn(line, head, tail) {
			f.addPath(p, true)
		}
	case isNested(line, e):
		f.nested = true
		f.count(e.name)
	case isLoginRefusal(tail), isRead(line):
	default:
		f.readCounted(line, prev, m, e, head, tail)
	}
}

// readCounted reads a line that counts, by what it is about.
func (f *findings) readCounted(line, prev string, m scanMode, e *errnoText, head, tail string) {
	kind, paths := kindOf(line, prev, e, head, tail)
	switch kind {
	case aboutSocket:
		if !m.unixSockets {
			f.countSocket(e.name, paths)
		}
	case aboutNetwork:
		if m.networkOff {
			f.countNetwork(e.name, line)
		}
	default:
		if e.name == "Operation not permitted" && startsPrograms(line, head) {
			f.noteExecs(head, paths)
		}
		f.modeChange = f.modeChange || isModeChange(line, prev, e)
		f.countPaths(e.name, paths)
		f.npmRefused = f.npmRefused || strings.HasPrefix(line, "npm ")
	}
}

func isNetworkOffText(line string) bool {
	for _, t := range networkOffTexts {
		if strings.Contains(line, t) {
			return true
		}
	}
	return false
}

// findErrno finds the first errno text on the line, either case of its
// first letter, and where it starts.
func findErrno(line string) (*errnoText, int) {
	for i := range errnoTexts {
		e := &errnoTexts[i]
		lower := strings.ToLower(e.name[:1]) + e.name[1:]
		at := strings.Index(line, e.name)
		if j := strings.Index(line, lower); j >= 0 && (at < 0 || j < at) {
			at = j
		}
		if at >= 0 {
			return e, at
		}
	}
	return nil, 0
}

// npmPath reads npm's "npm error path /x" (npm 7+: "npm ERR! path /x").
func npmPath(line string) (string, bool) {
	for _, prefix := range npmPathPrefixes {
		if p, ok := strings.CutPrefix(line, prefix); ok && looksLikePath(p, "npm") {
			return p, true
		}
	}
	return "", false
}

// pathsOn tries the shapes in order, from the most to the least certain.
func pathsOn(line, head, tail string) []string {
	if inQuotedMessage(line, len(head)) {
		return nil // a Go test's got: "…: permission denied: \"a\"\n…"
	}
	if paths, ok := tarPaths(line); ok {
		return paths
	}
	tool := firstField(line)
	if paths := quotedPaths(line, tool); len(paths) > 0 {
		return paths
	}
	if paths := renamePaths(head); len(paths) > 0 {
		return paths
	}
	if p, ok := verbPath(head, tool); ok {
		return []string{p}
	}
	if p, ok := strings.CutPrefix(tail, ": "); ok && looksLikePath(p, tool) {
		return []string{p} // zsh: permission denied: /x
	}
	if p, ok := fieldPath(head, tail, tool); ok {
		return []string{p}
	}
	return nil
}

// tarPaths reads GNU tar's "tar: PATH: Cannot open: …". A relative member
// name is relative to tar's -C directory, which the output does not say, so
// it is not checked (the line counts as naming no path); the compressor's
// "tar (child): ARCHIVE" is relative to where tar ran.
func tarPaths(line string) ([]string, bool) {
	child := strings.HasPrefix(line, "tar (child): ")
	rest, ok := strings.CutPrefix(line, "tar: ")
	if child {
		rest = strings.TrimPrefix(line, "tar (child): ")
	} else if !ok {
		return nil, false
	}
	i := strings.Index(rest, ": Cannot ")
	if i <= 0 {
		return nil, false
	}
	p := rest[:i]
	if !child && !strings.HasPrefix(p, "/") {
		return nil, true
	}
	return []string{p}, true
}

// renamePaths reads BSD mv's "mv: rename A to B: …": a rename writes both
// directories, so both are checked.
func renamePaths(head string) []string {
	field, ok := lastField(head)
	if !ok {
		return nil
	}
	rest, ok := strings.CutPrefix(field, "rename ")
	from, to, found := strings.Cut(rest, " to ")
	if !ok || !found {
		return nil
	}
	return []string{from, to}
}

// writeVerbs precede an unquoted path: dash's "cannot create PATH", git's
// "cannot mkdir PATH" and "could not lock config file PATH", sed's
// "couldn't open temporary file PATH", a perl die's "Cannot open PATH".
var writeVerbs = []string{
	"cannot create ", "cannot mkdir ", "could not lock config file ",
	"couldn't open temporary file ", "unable to create file ", "could not create ",
	"cannot open ", "Cannot open ", "can't open ", "Can't open ", "can't create ",
	"Can't create ", "cannot write ", "cannot remove ", "failed to open ",
	"unable to write ", "could not write ", "Unable to change file mode on ",
}

func verbPath(head, tool string) (string, bool) {
	body, ok := strings.CutSuffix(head, ": ")
	if !ok {
		return "", false
	}
	for _, verb := range writeVerbs {
		if i := strings.Index(body, verb); i >= 0 {
			return pathInField(body[i+len(verb):], tool)
		}
	}
	return "", false
}

// fieldPath reads "name: PATH: errno" (sh, bash, tee, BSD touch, mkdir, cp,
// …), where the errno ends the line or a perl die's " at -e line 1." does.
func fieldPath(head, tail, tool string) (string, bool) {
	if !endsMessage(tail) {
		return "", false
	}
	field, ok := lastField(head)
	if !ok {
		return "", false
	}
	return pathInField(field, tool)
}

// lastField is the text between the last two ": " of head, which must end
// with ": ". The first field is the program's name or a label (Error:), so
// a line with a single field has none.
func lastField(head string) (string, bool) {
	body, ok := strings.CutSuffix(head, ": ")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(body, ": ")
	if i < 0 {
		return "", false
	}
	return body[i+2:], true
}

// pathInField takes a path from a field of free text: the whole field when
// it starts like a path (spaces and all) or is one word, else its last word
// if that has a slash ("Cannot open /x/f" in a perl die). A relative name
// with a space in it cannot be told from the words around it.
func pathInField(field, tool string) (string, bool) {
	field = strings.TrimSpace(field)
	if startsLikePath(field) || !strings.ContainsAny(field, " \t") {
		return field, looksLikePath(field, tool)
	}
	words := strings.Fields(field)
	last := words[len(words)-1]
	return last, strings.Contains(last, "/") && looksLikePath(last, tool)
}

func startsLikePath(s string) bool {
	for _, p := range []string{"/", "./", "../", "~/"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return s == "~"
}

// endsMessage: nothing after the errno but a full stop or perl's location.
func endsMessage(tail string) bool {
	tail = strings.TrimSpace(tail)
	if tail == "" || tail == "." {
		return true
	}
	rest, ok := strings.CutPrefix(tail, "at ")
	return ok && strings.Contains(rest, " line ")
}

// firstField is the program that printed the line: the text before its
// first colon, as a base name ("sh", "touch", "/bin/sh" → "sh").
func firstField(line string) string {
	name, _, _ := strings.Cut(line, ":")
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSpace(name)
}
