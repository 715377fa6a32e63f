package refusal

import "strings"

// quoted is one quoted string on a line; start and end bound it with its
// quotes.
type quoted struct {
	text       string
	start, end int
}

// quotedPaths reads GNU's 'PATH' and ‘PATH’ (the quotes follow the
// locale), Python's '…' and "…", Node's "open '/x'". A pair joined by " to "
// or " -> " is a rename (mv, Python, Node), which writes both directories,
// except where one side is only read or only text: a copy's source, a
// symbolic link's target.
func quotedPaths(line, tool string) []string {
	qs := quotedStrings(line)
	switch {
	case len(qs) == 0:
		return nil
	case strings.Contains(line, "symbolic link"): // GNU: 'LINK' -> 'TARGET'
		qs = qs[:1]
	case strings.Contains(line, "symlink '"): // Node: symlink 'TARGET' -> 'LINK'
		qs = qs[len(qs)-1:]
	}
	var out []string
	for i, q := range qs {
		if isCopySource(line, qs, i) || isMessage(q.text) || !looksLikePath(q.text, tool) {
			continue
		}
		out = append(out, q.text)
	}
	return out
}

// isCopySource: git's "cannot copy 'A' to 'B'" writes only B.
func isCopySource(line string, qs []quoted, i int) bool {
	if i+1 >= len(qs) || line[qs[i].end:qs[i+1].start] != " to " {
		return false
	}
	return strings.HasSuffix(strings.TrimSpace(line[:qs[i].start]), "copy")
}

// quotedStrings finds ‘…’ anywhere, and '…' or "…" whose quotes stand
// outside words, so the apostrophe of "couldn't" opens nothing.
func quotedStrings(line string) []quoted {
	var out []quoted
	for i := 0; i < len(line); i++ {
		q, ok := quotedAt(line, i)
		if ok {
			out = append(out, q)
			i = q.end - 1
		}
	}
	return out
}

func quotedAt(line string, i int) (quoted, bool) {
	const open, shut = "‘", "’"
	if strings.HasPrefix(line[i:], open) {
		j := strings.Index(line[i+len(open):], shut)
		if j < 0 {
			return quoted{}, false
		}
		body := i + len(open)
		return quoted{line[body : body+j], i, body + j + len(shut)}, true
	}
	c := line[i]
	if c != '\'' && c != '"' || i > 0 && isWordByte(line[i-1]) {
		return quoted{}, false
	}
	for j := i + 1; j < len(line); j++ {
		if line[j] == c && (j+1 == len(line) || !isWordByte(line[j+1])) {
			return quoted{line[i+1 : j], i, j + 1}, true
		}
	}
	return quoted{}, false
}

func isWordByte(b byte) bool {
	return b == '_' || b == '\\' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

// isMessage: a quoted string that holds an errno text or an escaped line
// end is a message quoted whole (a Go test's got: "…\n"), not a path.
func isMessage(text string) bool {
	e, _ := findErrno(text)
	return e != nil || strings.Contains(text, `\n`)
}

// inQuotedMessage: the byte at is inside a quoted message (isMessage),
// whose text quotes another program's output, so its words are no path.
func inQuotedMessage(line string, at int) bool {
	for _, q := range quotedStrings(line) {
		if q.start < at && at < q.end && isMessage(q.text) {
			return true
		}
	}
	return false
}
