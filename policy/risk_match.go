package policy

import "strings"

// maxPositional is how many subcommand words are looked at.
const maxPositional = 4

// assessCommand adds what the tables say of one command (program first in
// words) to t and returns its level. The row with the longest matching
// subcommand sets the level; rows with flags or +args can raise it; the
// reasons kept are those of the rows at the final level.
func assessCommand(program string, words []word, t *tally) Level {
	entry := lookupRisk(program)
	if entry == nil {
		t.add(Moderate, program+" is not on the risk lists, so it counts as moderate")
		return Moderate
	}
	var buf [maxPositional]string
	positional := positionalWords(words[1:], entry.options, buf[:0])
	base := baseRow(entry.rows, positional)
	level := Moderate
	if base != nil {
		level = base.level
	}
	for i := range entry.rows {
		if r := &entry.rows[i]; r.modifies() && r.applies(words[1:], positional) {
			level = max(level, r.level)
		}
	}
	addReasons(entry.rows, base, words[1:], positional, level, t)
	if base == nil && level == Moderate {
		t.add(Moderate, program+" is not on the risk lists, so it counts as moderate")
	}
	t.top = max(t.top, level)
	return level
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

func addReasons(rows []riskRow, base *riskRow, args []word, positional []string, level Level, t *tally) {
	if base != nil && base.level == level && base.reason != "" {
		t.add(level, base.reason)
	}
	for i := range rows {
		if r := &rows[i]; r.modifies() && r.level == level && r.applies(args, positional) {
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

func (r *riskRow) applies(args []word, positional []string) bool {
	if !hasPrefix(positional, r.subs) {
		return false
	}
	if r.args && len(positional) > len(r.subs) {
		return true
	}
	return len(r.flags) > 0 && hasFlag(args, r.flags)
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

// positionalWords returns the first words of args that are not options,
// skipping the values of options. After --, every word counts.
func positionalWords(args []word, options []string, out []string) []string {
	dashdash := false
	for i := 0; i < len(args) && len(out) < cap(out); i++ {
		v := args[i].text
		switch {
		case dashdash:
			out = append(out, v)
		case v == "--":
			dashdash = true
		case strings.HasPrefix(v, "-") && len(v) > 1 || strings.HasPrefix(v, "+"):
			if contains(options, v) {
				i++
			}
		default:
			out = append(out, v)
		}
	}
	return out
}

// hasFlag reports whether one of flags is among args: as written, as
// --flag=value, or a one-letter flag inside a bundle (-r in -rf).
func hasFlag(args []word, flags []string) bool {
	for _, a := range args {
		v := a.text
		if v == "--" {
			return false
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for _, f := range flags {
			if flagMatches(v, f) {
				return true
			}
		}
	}
	return false
}

func flagMatches(v, f string) bool {
	switch {
	case v == f:
		return true
	case strings.HasPrefix(f, "--"):
		return strings.HasPrefix(v, f+"=")
	case len(f) == 2 && v[1] != '-':
		return strings.IndexByte(v[1:], f[1]) >= 0
	}
	return false
}
