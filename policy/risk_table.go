package policy

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

//go:embed risk.txt
var riskText string

// riskRow is one expanded row of risk.txt.
type riskRow struct {
	subs  []string // subcommand words after the program
	flags []string // the row applies when one of these options is present
	// before are options that count only before the first subcommand word
	// (git -c x status, not git log -c).
	before []string
	// args is how many words must follow the subcommand for the row to
	// apply (+args is 1, +2args is 2); 0 when the row does not count them.
	args   int
	level  Level
	reason string
}

// modifies reports whether the row can only raise a level (-FLAG, ^-FLAG,
// +args).
func (r *riskRow) modifies() bool { return len(r.flags) > 0 || len(r.before) > 0 || r.args > 0 }

// programRisk is what the tables say about one program.
type programRisk struct {
	// options take a value, which is then not read as a subcommand or an
	// operand (git -C dir status, uniq -f 1 IN).
	options []string
	// getopt: the program reads its options as getopt does, so a one-letter
	// option in options takes the rest of a bundle as its value (date
	// -Iseconds holds no -s).
	getopt bool
	rows   []riskRow
}

// riskEntries holds what risk.txt says about each program asked about so
// far (nil for a program it does not list), read from the text on first
// use: parsing the whole table cost every wisp process that checked a line
// ~3,400 allocations at start, and a line names a handful of programs.
var riskEntries sync.Map // program name -> *programRisk

// riskFor returns risk.txt's rows and options for program, or nil.
func riskFor(program string) *programRisk {
	if e, ok := riskEntries.Load(program); ok {
		return e.(*programRisk)
	}
	e, _ := riskEntries.LoadOrStore(program, parseRiskEntry(riskText, program))
	return e.(*programRisk)
}

// parseRiskEntry reads only the lines of text that name program, which
// gives the same rows in the same order as reading the whole table does
// (a test pins it). The whole text's errors are for the tests to find:
// risk.txt is embedded, so a line that does not parse is a build's bug.
func parseRiskEntry(text, program string) *programRisk {
	table := map[string]*programRisk{}
	for line := range strings.Lines(text) {
		if linesProgram(line, program) {
			_ = addRiskLine(table, strings.Fields(line))
		}
	}
	return table[program]
}

// linesProgram reports whether a line of risk.txt is about program: its
// first word names it among its | alternatives, or it is program's options
// line.
func linesProgram(line, program string) bool {
	first, rest := nextWord(line)
	if first == "" || strings.HasPrefix(first, "#") {
		return false
	}
	if first == "options" || first == "getopt" {
		second, _ := nextWord(rest)
		return second == program
	}
	for alt := range strings.SplitSeq(first, "|") {
		if alt == program {
			return true
		}
	}
	return false
}

func nextWord(s string) (word, rest string) {
	s = strings.TrimLeft(s, " \t")
	end := strings.IndexAny(s, " \t\r\n")
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

func addRiskLine(table map[string]*programRisk, fields []string) error {
	if fields[0] == "options" || fields[0] == "getopt" {
		if len(fields) < 3 {
			return fmt.Errorf("%s needs a program and at least one option", fields[0])
		}
		e := entry(table, fields[1])
		e.options, e.getopt = fields[2:], fields[0] == "getopt"
		return nil
	}
	at := levelIndex(fields)
	if at < 1 {
		return fmt.Errorf("%q has no level (low, moderate or high) after its program", strings.Join(fields, " "))
	}
	level, _ := ParseLevel(fields[at])
	reason := strings.Join(fields[at+1:], " ")
	if level > Low && reason == "" {
		return fmt.Errorf("%q needs a reason: a person reads why it is %s", strings.Join(fields, " "), level)
	}
	var subs [][]string
	row := riskRow{level: level}
	for _, f := range fields[1:at] {
		switch {
		case strings.HasPrefix(f, "+"):
			n, err := argsCount(f)
			if err != nil {
				return err
			}
			row.args = n
		case strings.HasPrefix(f, "^-"):
			row.before = append(row.before, f[1:])
		case strings.HasPrefix(f, "-"):
			row.flags = append(row.flags, f)
		default:
			subs = append(subs, strings.Split(f, "|"))
		}
	}
	if row.args > 0 && len(subs)+row.args > maxPositional {
		return fmt.Errorf("%q counts more words than the %d that are read", strings.Join(fields, " "), maxPositional)
	}
	for _, program := range strings.Split(fields[0], "|") {
		for _, path := range subcommandPaths(subs) {
			r := row
			r.subs = path
			r.reason = expandReason(reason, program, path)
			entry(table, program).rows = append(entry(table, program).rows, r)
		}
	}
	return nil
}

// argsCount reads +args (one word or more) and +Nargs (N or more).
func argsCount(f string) (int, error) {
	digits, ok := strings.CutSuffix(f[1:], "args")
	if !ok {
		return 0, fmt.Errorf("%q is not +args or +Nargs", f)
	}
	if digits == "" {
		return 1, nil
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not +args or +Nargs", f)
	}
	return n, nil
}

func entry(table map[string]*programRisk, program string) *programRisk {
	if table[program] == nil {
		table[program] = &programRisk{}
	}
	return table[program]
}

func levelIndex(fields []string) int {
	for i, f := range fields {
		if _, err := ParseLevel(f); err == nil {
			return i
		}
	}
	return -1
}

// subcommandPaths expands alternatives: [[stash] [list show]] is
// [stash list], [stash show].
func subcommandPaths(subs [][]string) [][]string {
	paths := [][]string{nil}
	for _, alternatives := range subs {
		var next [][]string
		for _, p := range paths {
			for _, a := range alternatives {
				next = append(next, append(append([]string(nil), p...), a))
			}
		}
		paths = next
	}
	return paths
}

func expandReason(reason, program string, subs []string) string {
	command := strings.Join(append([]string{program}, subs...), " ")
	reason = strings.ReplaceAll(reason, "$command", command)
	return strings.ReplaceAll(reason, "$program", program)
}
