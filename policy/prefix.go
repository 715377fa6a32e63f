package policy

import (
	"strings"
)

// PrefixMark ends a held prefix as people see it and approvals.json keeps
// it: "go test …" holds go test with any other arguments.
const PrefixMark = " …"

// Command is one simple command of a line as a held prefix sees it.
type Command struct {
	// Text is the command as a message shows it.
	Text string
	// Level is its own level, without the rules on the whole line.
	Level Level
	// Words are the program as written, then its subcommand words and
	// operands as the risk table reads them (options skipped): what a held
	// prefix is matched against.
	Words []string
	// Prefix is what a person may hold for it ("go test"), "" when only
	// its exact line can be held; ExactWhy then says why.
	Prefix   string
	ExactWhy string
}

// Commands is a line's simple commands, and the highest level the rules
// on the whole line give it (redirections, $( ), eval …; 0 when none).
type Commands struct {
	Commands []Command
	Rules    Level
}

// LineCommands reads line's simple commands for held prefixes. A line
// that cannot be checked has none and returns the error.
func LineCommands(line string) (Commands, error) {
	c := getChecker()
	defer c.release()
	c.analyze(line)
	if c.failure != nil {
		return Commands{}, &lineError{c.failure.reason}
	}
	var out Commands
	for _, n := range c.notes {
		out.Rules = max(out.Rules, n.level)
	}
	for i := range c.segments {
		out.Commands = append(out.Commands, commandOf(&c.segments[i]))
	}
	return out, nil
}

type lineError struct{ reason string }

func (e *lineError) Error() string { return e.reason }

// holdsAnyCode are programs whose prefix would hold whatever code they are
// given: a held "python3 …" or "sh …" is a held everything.
var holdsAnyCode = map[string]bool{"eval": true, "source": true, ".": true, "xargs": true, "env": true,
	"exec": true, "command": true, "builtin": true, "sudo": true, "doas": true, "su": true}

// publishes are the subcommands of high rows that destroy or publish:
// offered as their exact line only, never as a prefix.
var publishes = map[string]map[string]bool{
	"git":   {"push": true},
	"cargo": {"publish": true, "yank": true, "owner": true, "login": true},
	"npm":   registryActs, "pnpm": registryActs, "yarn": registryActs, "bun": registryActs,
}

var registryActs = map[string]bool{"publish": true, "unpublish": true, "deprecate": true, "login": true,
	"adduser": true, "logout": true, "owner": true, "access": true, "token": true}

// scriptRunners take the script's name as a subcommand word of their own:
// npm run test is held as "npm run test", not "npm run".
var scriptRunners = map[string]bool{"run": true, "run-script": true, "exec": true, "x": true}

// subcommandWord is what a subcommand looks like; a path, an option or a
// NAME=value is an operand and never part of a prefix.
func subcommandWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case 'a' <= c && c <= 'z':
		case i > 0 && ('0' <= c && c <= '9' || c == ':' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return w != "" // [a-z][a-z0-9:_-]*, without a regexp compiled at every start
}

// commandOf reads one segment: its level alone, its words, and the prefix
// a person may hold for it.
func commandOf(seg *segment) Command {
	var t tally
	cmd := Command{Text: seg.text, Level: assessSegment(seg, &t)}
	if seg.dynamic || seg.program == "" {
		cmd.ExactWhy = "its program is only known when the line runs"
		return cmd
	}
	entry := lookupRisk(seg.program)
	rd := flagReader{dashdash: true}
	if entry != nil {
		rd = entry.reader(seg.program)
	}
	var buf [maxPositional]string
	positional := rd.positionalWords(seg.words[1:], buf[:0])
	cmd.Words = append([]string{seg.words[0].text}, positional...)
	cmd.Prefix, cmd.ExactWhy = prefixOf(seg, entry, positional, cmd.Level, rd)
	return cmd
}

// prefixOf is the prefix a person may hold for a command, or why only its
// exact line can be held.
func prefixOf(seg *segment, entry *programRisk, positional []string, level Level, rd flagReader) (string, string) {
	program := seg.program
	switch {
	case len(seg.all) != len(seg.words) || seg.wrapNote != "":
		return "", "it runs through a wrapper or with variables set on the line, which a prefix cannot see into"
	case interpreters[program] || shells[program] || holdsAnyCode[program]:
		return "", "a prefix of " + program + " would hold any code it is given"
	case seg.call == nil:
		return "", "it is run by another command"
	}
	var subs []string
	baseLevel := Moderate
	if entry != nil {
		if base := baseRow(entry.rows, positional); base != nil {
			subs, baseLevel = base.subs, base.level
		}
		for i := range entry.rows {
			if r := &entry.rows[i]; r.modifies() && r.applies(seg.words[1:], positional, rd) {
				return "", "its options or arguments raise its risk above what a prefix of it holds"
			}
		}
	}
	if level != baseLevel {
		return "", "its options or arguments raise its risk above what a prefix of it holds"
	}
	if level == High && (len(subs) == 0 || publishes[program][subs[0]]) {
		return "", "it destroys or publishes, so only this exact line can be held"
	}
	if !entry.hasSubcommands() {
		positional = nil // touch notes.txt: an operand, never a subcommand
	}
	return strings.Join(append([]string{seg.words[0].text}, prefixWords(subs, positional)...), " "), ""
}

// hasSubcommands reports whether the table names subcommands of the
// program (git push, go test): only then is its first word one.
func (e *programRisk) hasSubcommands() bool {
	if e == nil {
		return false
	}
	for i := range e.rows {
		if len(e.rows[i].subs) > 0 {
			return true
		}
	}
	return false
}

// prefixWords are the subcommand words a prefix keeps: the row's own,
// or, for a program with subcommands whose row names none of them, its
// first subcommand word (and a script runner's script: npm run test).
func prefixWords(subs, positional []string) []string {
	if len(subs) > 0 {
		return subs
	}
	var out []string
	for _, w := range positional {
		if !subcommandWord(w) || len(out) == 2 || len(out) == 1 && !scriptRunners[out[0]] {
			break
		}
		out = append(out, w)
	}
	return out
}

// HoldsCommand reports whether the held prefix (without PrefixMark)
// covers cmd: cmd can be held by a prefix at all, and its words begin
// with the prefix's.
func HoldsCommand(prefix string, cmd Command) bool {
	if cmd.Prefix == "" {
		return false
	}
	held := strings.Fields(prefix)
	if len(held) == 0 || len(held) > len(cmd.Words) {
		return false
	}
	for i, w := range held {
		if cmd.Words[i] != w {
			return false
		}
	}
	return true
}
