package policy

import "strings"

// sed's script can run commands (the e command, the e flag of s///) and
// write files (w, W, the w flag of s///), as -i does. sedArgs finds the
// script among sed's words as GNU sed's getopt_long reads them, and reads
// it as GNU sed 4.9 and BSD sed parse scripts. What it cannot read (a
// script from a file, an expansion, an option it does not know) counts as
// moderate: it may hold such a command.
const (
	sedRuns       = "sed's e command runs a shell command"
	sedWrites     = "sed's w command writes a file"
	sedFromFile   = "sed -f reads its script from a file, which may write files or run commands"
	sedUnreadable = "wisp cannot read this sed script, so it may write files or run commands"
	sedUnknown    = "sed's script or options are only known when the line runs, and may write files or run commands"
)

// sedLongFlags are the long options of GNU sed that take no value and
// change nothing sedArgs looks at.
var sedLongFlags = []string{"quiet", "silent", "debug", "posix", "regexp-extended", "separate",
	"unbuffered", "null-data", "zero-terminated", "follow-symlinks", "binary", "help", "version"}

// sedArgs is the argument check of sed.
func sedArgs(args []word) (Level, string) {
	scripts, reason := sedScripts(args)
	if reason != "" {
		return Moderate, reason
	}
	if reason := sedScriptRisk(strings.Join(scripts, "\n")); reason != "" {
		return Moderate, reason
	}
	return Low, ""
}

// sedScripts returns sed's script pieces (-e's, joined by newlines as sed
// joins them, or the first operand), or why they cannot be known. An
// in-place edit (-i, -I) is the table's; --sandbox refuses e, w and r.
func sedScripts(args []word) ([]string, string) {
	var scripts []string
	var first *word
	dashdash, fromE := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := argText(a)
		switch {
		case dashdash || v == "-" || !strings.HasPrefix(v, "-"):
			if !dashdash && mayBeOption(a) {
				return nil, sedUnknown // $x may be -e'1e cmd'
			}
			if first == nil {
				first = &args[i]
			}
		case !a.literal:
			return nil, sedUnknown
		case v == "--":
			dashdash = true
		case strings.HasPrefix(v, "--"):
			s, next, reason := sedLongOption(args, i)
			if reason != "" || next < 0 {
				return nil, reason
			}
			if s != nil {
				scripts, fromE = append(scripts, *s), true
			}
			i = next
		default:
			s, next, reason := sedShortOptions(args, i)
			if reason != "" || next < 0 {
				return nil, reason
			}
			if s != nil {
				scripts, fromE = append(scripts, *s), true
			}
			i = next
		}
	}
	if fromE {
		return scripts, ""
	}
	if first == nil {
		return nil, ""
	}
	if !first.literal || first.pattern {
		return nil, sedUnknown
	}
	return []string{first.value}, ""
}

// sedLongOption reads the long option args[i] (--expression=SCRIPT) as
// sedShortOptions reads a bundle. --sandbox ends the reading: GNU sed then
// refuses e, w and r. An abbreviation is not read, so it counts as moderate.
func sedLongOption(args []word, i int) (*string, int, string) {
	name, value, eq := strings.Cut(args[i].value[2:], "=")
	switch {
	case name == "expression":
		s, next, ok := optionValue(args, i, value, eq)
		if !ok {
			return nil, 0, sedUnknown
		}
		return &s, next, ""
	case name == "file":
		return nil, 0, sedFromFile
	case name == "sandbox", name == "in-place":
		return nil, -1, ""
	case name == "line-length" && !eq:
		return nil, i + 1, ""
	case name == "line-length" || contains(sedLongFlags, name):
		return nil, i, ""
	}
	return nil, 0, "sed --" + name + " is not an option wisp reads, so it may write files or run commands"
}

// sedShortOptions reads the bundle args[i] (-ne 's/x/y/'): a script given
// with e, and the index of the last word it took. A negative index means
// the rest is the table's (-i, -I).
func sedShortOptions(args []word, i int) (*string, int, string) {
	v := args[i].value
	for j := 1; j < len(v); j++ {
		switch v[j] {
		case 'n', 'r', 'E', 's', 'u', 'z', 'b', 'a':
		case 'i', 'I':
			return nil, -1, ""
		case 'f':
			return nil, 0, sedFromFile
		case 'e', 'l':
			value, next, ok := optionValue(args, i, v[j+1:], j+1 < len(v))
			if !ok {
				return nil, 0, sedUnknown
			}
			if v[j] == 'l' {
				return nil, next, ""
			}
			return &value, next, ""
		default:
			return nil, 0, "sed -" + string(v[j]) + " is not an option wisp reads, so it may write files or run commands"
		}
	}
	return nil, i, ""
}

// optionValue is the value of the option at args[i]: attached, or the next
// word, which must be literal. It returns the index of the last word used.
func optionValue(args []word, i int, attached string, hasAttached bool) (string, int, bool) {
	if hasAttached {
		return attached, i, true
	}
	if i+1 >= len(args) || !args[i+1].literal {
		return "", i, false
	}
	return args[i+1].value, i + 1, true
}

// sedScriptRisk is why script can write a file or run a command, or "".
// GNU sed 4.9 reads a bracket expression in a regular expression as one
// piece (s/[/]/x/), older seds do not: the script is read both ways, and
// what either finds counts.
func sedScriptRisk(script string) string {
	if r := (&sedParser{s: script, brackets: true}).risk(); r != "" {
		return r
	}
	return (&sedParser{s: script}).risk()
}

type sedParser struct {
	s        string
	i        int
	brackets bool
	reads    bool // an r or R command was read (for the tests' oracle)
}

func (p *sedParser) eof() bool { return p.i >= len(p.s) }

func (p *sedParser) peek() byte {
	if p.eof() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedParser) blanks() {
	for !p.eof() && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// toEOL skips to the end of the line: text of a, i, c, a file name of r.
func (p *sedParser) toEOL() {
	for !p.eof() && p.s[p.i] != '\n' {
		p.i++
	}
}

// risk reads every command of the script.
func (p *sedParser) risk() string {
	for {
		for !p.eof() && strings.IndexByte(" \t\n;", p.s[p.i]) >= 0 {
			p.i++
		}
		if p.eof() {
			return ""
		}
		if !p.addresses() {
			return sedUnreadable
		}
		p.blanks()
		for p.peek() == '!' {
			p.i++
			p.blanks()
		}
		if p.eof() {
			return sedUnreadable
		}
		if r := p.command(); r != "" {
			return r
		}
	}
}

// command reads one command after its address.
func (p *sedParser) command() string {
	cmd := p.s[p.i]
	p.i++
	switch cmd {
	case 'e':
		return sedRuns
	case 'w', 'W':
		return sedWrites
	case '{':
		return ""
	case 'r', 'R':
		p.reads = true
		p.toEOL()
		return ""
	case '#', 'a', 'i', 'c':
		p.toEOL()
		return ""
	case ':', 'b', 't', 'T', 'v':
		p.label()
		return ""
	case 's':
		return p.substitute()
	case 'y':
		if p.eof() || p.peek() == '\n' || p.peek() == '\\' {
			return sedUnreadable
		}
		delim := p.s[p.i]
		p.i++
		for range 2 { // y/SOURCE/DEST/: two parts, each up to the delimiter
			if !p.part(delim, false) {
				return sedUnreadable
			}
		}
	case 'q', 'Q', 'l', 'L':
		p.blanks()
		p.digits()
	case '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
	default:
		return sedUnreadable
	}
	if !p.endOfCommand() {
		return sedUnreadable
	}
	return ""
}

// label reads a label as GNU sed does: to a blank, ; or the end of the line.
func (p *sedParser) label() {
	p.blanks()
	for !p.eof() && strings.IndexByte(" \t\n;", p.s[p.i]) < 0 {
		p.i++
	}
}

func (p *sedParser) digits() bool {
	start := p.i
	for !p.eof() && '0' <= p.s[p.i] && p.s[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// endOfCommand: only blanks, then ;, a newline, }, # or the end.
func (p *sedParser) endOfCommand() bool {
	p.blanks()
	if p.eof() {
		return true
	}
	switch p.s[p.i] {
	case ';', '\n':
		p.i++
		return true
	case '}', '#':
		return true
	}
	return false
}

// addresses reads none, one or two addresses (1, $, /re/I, \cREc,
// first~step, addr,+N, addr,~N).
func (p *sedParser) addresses() bool {
	if !p.address(false) {
		return false
	}
	p.blanks()
	if p.peek() != ',' {
		return true
	}
	p.i++
	p.blanks()
	return p.address(true)
}

func (p *sedParser) address(second bool) bool {
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.digits()
		if p.peek() == '~' {
			p.i++
			p.digits()
		}
	case c == '$':
		p.i++
	case second && (c == '+' || c == '~'):
		p.i++
		return p.digits()
	case c == '/' || c == '\\':
		if !p.delimited(true) {
			return false
		}
		for p.peek() == 'I' || p.peek() == 'M' {
			p.i++
		}
	default:
		return !second
	}
	return true
}

// delimited reads a delimiter and the regular expression it ends (for an
// address, \ introduces the delimiter).
func (p *sedParser) delimited(address bool) bool {
	if p.eof() {
		return false
	}
	delim := p.s[p.i]
	p.i++
	if address && delim == '\\' {
		if p.eof() {
			return false
		}
		delim = p.s[p.i]
		p.i++
	}
	if delim == '\n' || delim == '\\' {
		return false
	}
	return p.part(delim, true)
}

// part reads up to and past the next delim not escaped (nor, in a regular
// expression read with brackets, inside a bracket expression). A newline
// that is not escaped ends the command too early: sed refuses it.
func (p *sedParser) part(delim byte, regex bool) bool {
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if p.eof() {
				return false
			}
			p.i++
		case c == '\n':
			return false
		case c == delim:
			return true
		case c == '[' && regex && p.brackets:
			if !p.bracket() {
				return false
			}
		}
	}
	return false
}

// bracket skips a bracket expression whose [ has been read: ] first is a
// member, [:class:], [.x.] and [=x=] are read whole, a backslash is itself.
func (p *sedParser) bracket() bool {
	if p.peek() == '^' {
		p.i++
	}
	if p.peek() == ']' {
		p.i++
	}
	for !p.eof() {
		c := p.s[p.i]
		p.i++
		switch {
		case c == ']':
			return true
		case c == '\n':
			return false
		case c == '[' && strings.IndexByte(":.=", p.peek()) >= 0 && !p.eof():
			end := "]"
			end = string(p.s[p.i]) + end
			k := strings.Index(p.s[p.i+1:], end)
			if k < 0 {
				return false
			}
			p.i += 1 + k + len(end)
		}
	}
	return false
}

// substitute reads s/re/replacement/flags; the e flag runs the pattern
// space as a command, w writes a file.
func (p *sedParser) substitute() string {
	if !p.delimited(false) {
		return sedUnreadable
	}
	if !p.part(p.s[p.i-1], false) {
		return sedUnreadable
	}
	for !p.eof() {
		switch c := p.s[p.i]; {
		case c == 'e':
			return sedRuns
		case c == 'w':
			return sedWrites
		case strings.IndexByte("gpiImM0123456789 \t", c) >= 0:
			p.i++
		default:
			if !p.endOfCommand() {
				return sedUnreadable
			}
			return ""
		}
	}
	return ""
}
