package policy

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed risk.txt
var riskText string

// riskRow is one expanded row of risk.txt.
type riskRow struct {
	subs   []string // subcommand words after the program
	flags  []string // the row applies when one of these options is present
	args   bool     // the row applies when words follow the subcommand
	level  Level
	reason string
}

// modifies reports whether the row can only raise a level (-FLAG, +args).
func (r *riskRow) modifies() bool { return len(r.flags) > 0 || r.args }

// programRisk is what the tables say about one program.
type programRisk struct {
	options []string // options that take a value before a subcommand
	rows    []riskRow
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
	if first == "options" {
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
	if fields[0] == "options" {
		if len(fields) < 3 {
			return fmt.Errorf("options needs a program and at least one option")
		}
		entry(table, fields[1]).options = fields[2:]
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
		case f == "+args":
			row.args = true
		case strings.HasPrefix(f, "-"):
			row.flags = append(row.flags, f)
		default:
			subs = append(subs, strings.Split(f, "|"))
		}
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
