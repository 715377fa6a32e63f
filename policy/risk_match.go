package policy

import "strings"

// maxPositional is how many subcommand words are looked at.
const maxPositional = 4

// assessCommand adds what the tables say of one command (program first in
// words) to t and returns its level. The row with the longest matching
// subcommand sets the level; rows with flags or +args can raise it, and so
// can the program's argument check (argchecks.go); the reasons kept are
// those of the rows at the final level.
func assessCommand(program string, words []word, t *tally) Level {
	entry := lookupRisk(program)
	if entry == nil {
		t.add(Moderate, program+" is not on the risk lists, so it counts as moderate")
		return Moderate
	}
	rd := entry.reader(program)
	var buf [maxPositional]string
	positional := rd.positionalWords(words[1:], buf[:0])
	base := baseRow(entry.rows, positional)
	level := Moderate
	if base != nil {
		level = base.level
	}
	for i := range entry.rows {
		if r := &entry.rows[i]; r.modifies() && r.applies(words[1:], positional, rd) {
			level = max(level, r.level)
		}
	}
	addReasons(entry.rows, base, words[1:], positional, rd, level, t)
	if base == nil && level == Moderate {
		t.add(Moderate, program+" is not on the risk lists, so it counts as moderate")
	}
	if level == Low {
		level = checkLowArgs(program, entry, words, positional, rd, t)
	}
	t.top = max(t.top, level)
	return level
}

// checkLowArgs raises a command the rows rate low when its words cannot be
// read (an expansion or a pattern where a row's option or operand could
// be), or when its program's argument check finds a write or a command.
func checkLowArgs(program string, entry *programRisk, words []word, positional []string, rd flagReader, t *tally) Level {
	if reach, several := entry.reach(positional); reach > Low && rd.hasIndefinite(words[1:], several) {
		t.add(Moderate, program+"'s arguments are only known when the line runs, and may be ones that write a file or run a command")
		return Moderate
	}
	if check := argChecks[program]; check != nil {
		if level, reason := check(words[1:]); level > Low {
			t.add(level, reason)
			return level
		}
	}
	return Low
}

// reach is the highest level the program's modifying rows could give a
// command with these subcommand words, and whether one of them counts two
// words or more (uniq IN OUT).
func (e *programRisk) reach(positional []string) (Level, bool) {
	top, several := Level(0), false
	for i := range e.rows {
		r := &e.rows[i]
		if r.modifies() && hasPrefix(positional, r.subs) {
			top = max(top, r.level)
			several = several || r.args > 1
		}
	}
	return top, several
}

// lookupRisk finds a program's rows; a versioned name (python3.12,
// mkfs.ext4) falls back to the name before its first dot.
func lookupRisk(program string) *programRisk {
	if entry := riskFor(program); entry != nil {
		return entry
	}
	if dot := strings.IndexByte(program, '.'); dot > 0 {
		return riskFor(program[:dot])
	}
	return nil
}

func addReasons(rows []riskRow, base *riskRow, args []word, positional []string, rd flagReader, level Level, t *tally) {
	if base != nil && base.level == level && base.reason != "" {
		t.add(level, base.reason)
	}
	for i := range rows {
		if r := &rows[i]; r.modifies() && r.level == level && r.applies(args, positional, rd) {
			t.add(level, r.reason)
		}
	}
}

// baseRow is the row without flags or +args whose subcommand is the longest
// prefix of positional.
func baseRow(rows []riskRow, positional []string) *riskRow {
	var best *riskRow
	for i := range rows {
		r := &rows[i]
		if r.modifies() || !hasPrefix(positional, r.subs) {
			continue
		}
		if best == nil || len(r.subs) > len(best.subs) {
			best = r
		}
	}
	return best
}

func (r *riskRow) applies(args []word, positional []string, rd flagReader) bool {
	if !hasPrefix(positional, r.subs) {
		return false
	}
	if r.args > 0 && len(positional) >= len(r.subs)+r.args {
		return true
	}
	return len(r.flags) > 0 && rd.hasFlag(args, r.flags) || len(r.before) > 0 && rd.hasFlagBefore(args, r.before)
}

func hasPrefix(list, prefix []string) bool {
	if len(prefix) > len(list) {
		return false
	}
	for i, p := range prefix {
		if list[i] != p {
			return false
		}
	}
	return true
}

// flagReader is how one program reads its options.
type flagReader struct {
	values []string // options whose value may be the next word
	getopt bool     // a one-letter option in values takes the rest of a bundle
	// dashdash: -- ends the options. Not for find, whose expression comes
	// after its starting points and a -- before them (find -- . -delete).
	dashdash bool
}

// optionsAfterDashDash are the programs whose options -- does not end.
var optionsAfterDashDash = map[string]bool{"find": true}

func (e *programRisk) reader(program string) flagReader {
	return flagReader{values: e.options, getopt: e.getopt, dashdash: !optionsAfterDashDash[program]}
}

// argText is what a word gives a program to read as an option: its value
// when it is literal (so that '--output=a b' is --output), else its source
// text.
func argText(w word) string {
	if w.literal {
		return w.value
	}
	return w.text
}

// isOptionWord: a word that starts with - or + (and is not just that).
func isOptionWord(v string) bool {
	return len(v) > 1 && (v[0] == '-' || v[0] == '+')
}

// positionalWords returns the first words of args that are not options,
// skipping the values of options. After --, every word counts.
func (rd flagReader) positionalWords(args []word, out []string) []string {
	dashdash := false
	for i := 0; i < len(args) && len(out) < cap(out); i++ {
		v := argText(args[i])
		switch {
		case dashdash:
			out = append(out, v)
		case v == "--":
			dashdash = true
		case isOptionWord(v):
			if rd.takesNext(v) {
				i++
			}
		default:
			out = append(out, v)
		}
	}
	return out
}

// takesNext reports whether the option v takes the next word as its value.
func (rd flagReader) takesNext(v string) bool {
	if contains(rd.values, v) {
		return true
	}
	if !rd.getopt || len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		if rd.takesValue(v[i]) {
			return i == len(v)-1
		}
	}
	return false
}

// takesValue reports whether -c is one of the options that take a value.
func (rd flagReader) takesValue(c byte) bool {
	for _, o := range rd.values {
		if len(o) == 2 && o[0] == '-' && o[1] == c {
			return true
		}
	}
	return false
}

// hasFlag reports whether one of flags is among args: as written, as
// --flag=value, abbreviated (--outp for --output, as getopt_long and git
// take it), or a one-letter flag inside a bundle (-r in -rf).
func (rd flagReader) hasFlag(args []word, flags []string) bool {
	for _, a := range args {
		v := argText(a)
		if v == "--" && rd.dashdash {
			return false
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for _, f := range flags {
			if rd.flagMatches(v, f) {
				return true
			}
		}
	}
	return false
}

// hasFlagBefore reports whether one of flags comes before the first word
// that is not an option (git -c x status).
func (rd flagReader) hasFlagBefore(args []word, flags []string) bool {
	for i := 0; i < len(args); i++ {
		v := argText(args[i])
		if v == "--" || !isOptionWord(v) {
			return false
		}
		for _, f := range flags {
			if rd.flagMatches(v, f) {
				return true
			}
		}
		if rd.takesNext(v) {
			i++
		}
	}
	return false
}

func (rd flagReader) flagMatches(v, f string) bool {
	switch {
	case v == f:
		return true
	case strings.Contains(f, "="):
		return false // --location=global: that value only
	case len(f) > 2:
		return longMatches(v, f) || f[1] != '-' && longMatches(v, "-"+f) // go's -toolexec is --toolexec too
	case v[1] != '-':
		for i := 1; i < len(v); i++ {
			if v[i] == f[1] {
				return true
			}
			if rd.getopt && rd.takesValue(v[i]) {
				return false
			}
		}
	}
	return false
}

// longMatches: the long option f as v, as v=value, or, for --name,
// abbreviated (--outp=x).
func longMatches(v, f string) bool {
	name, _, _ := strings.Cut(v, "=")
	if name == f {
		return true
	}
	return strings.HasPrefix(f, "--") && len(name) > 2 && strings.HasPrefix(name, "--") && strings.HasPrefix(f, name)
}

// hasIndefinite reports whether one of args is only known when the line
// runs and could be an option (an expansion, or a pattern that could match
// a name starting with -), or, with several, could be more words than one
// (uniq * writes the second file it matches).
func (rd flagReader) hasIndefinite(args []word, several bool) bool {
	options := true
	for _, a := range args {
		if options && a.literal && a.value == "--" && rd.dashdash {
			options = false
			continue
		}
		if options && mayBeOption(a) || several && mayBeSeveral(a) {
			return true
		}
	}
	return false
}

// mayBeOption: a word whose value, once the shell has expanded it, could
// start with -.
func mayBeOption(w word) bool {
	if w.text == "" {
		return false
	}
	c := w.text[0]
	if !w.literal {
		return !isSafe(c) || c == '-'
	}
	return w.pattern && (c == '-' || strings.IndexByte("*?[{", c) >= 0)
}

// mayBeSeveral: a word the shell could make into several (an unquoted
// expansion, a glob, braces).
func mayBeSeveral(w word) bool {
	return !w.literal || w.pattern && strings.ContainsAny(w.text, "*?[{")
}
