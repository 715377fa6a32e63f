package policy

import "strings"

// wrapper describes a program that runs the command written after it, so
// that the lists and the risk tables can look at that command. These are the
// prefixes a model (or a person) could put before sudo to hide it.
type wrapper struct {
	// valueOptions take the next word as their value (env -u NAME).
	valueOptions []string
	// noRun are options with which nothing is run (command -v).
	noRun []string
	// assignments: NAME=value words may come before the command (env).
	assignments bool
	// operands is how many words come before the command (timeout's duration).
	operands int
	// splitOption's value is split into words that stand for it among the
	// wrapper's own arguments (env -S 'FOO=1 cmd' is env FOO=1 cmd).
	splitOption []string
	// note, when set, is why what runs through the wrapper is at least
	// moderate whatever the command (xargs gives it words from its input).
	note string
	// writes are options with which the wrapper writes a file, and why.
	writes     []string
	writesNote string
}

// wrappers is the table of wrapper programs, by base name.
var wrappers = map[string]wrapper{
	"command":    {noRun: []string{"-v", "-V"}},
	"builtin":    {},
	"exec":       {valueOptions: []string{"-a"}},
	"env":        {valueOptions: []string{"-u", "--unset", "-C", "--chdir"}, assignments: true, splitOption: []string{"-S", "--split-string"}},
	"nohup":      {note: "nohup writes the command's output to nohup.out when it would go to a terminal"},
	"nice":       {valueOptions: []string{"-n", "--adjustment"}},
	"time":       {valueOptions: []string{"-f", "--format", "-o", "--output"}, writes: []string{"-o", "--output"}, writesNote: "time -o writes its report to a file"},
	"timeout":    {valueOptions: []string{"-s", "--signal", "-k", "--kill-after"}, operands: 1},
	"stdbuf":     {valueOptions: []string{"-i", "-o", "-e", "--input", "--output", "--error"}},
	"setsid":     {},
	"ionice":     {valueOptions: []string{"-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"}},
	"chrt":       {operands: 1},
	"taskset":    {operands: 1},
	"caffeinate": {valueOptions: []string{"-t", "-w"}},
	"busybox":    {},
	"unbuffer":   {},
	"chronic":    {},
	"arch":       {valueOptions: []string{"-arch", "-d", "-e"}}, // macOS: arch -x86_64 cmd runs cmd
	"xargs": {valueOptions: []string{"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a",
		"--max-args", "--max-procs", "--max-lines", "--delimiter", "--eof", "--max-chars", "--arg-file", "--replace"},
		note: "xargs adds words from its input to the command, and they may be options that write files or run commands"},
}

// maxWrappers bounds how many wrappers are peeled off one command; a
// command behind more is refused as nesting (newSegment).
const maxWrappers = 8

// unwrapped is the command a segment's words run after their wrappers.
type unwrapped struct {
	// words holds the command from start on: the segment's own words, or,
	// when a wrapper split a word (env -S), a new list in which the split
	// words stand for it.
	words []word
	start int
	split bool
	// dynamic: a wrapper's arguments are not literal, so the command
	// cannot be known. tooDeep: more wrappers than are read.
	dynamic, tooDeep bool
	note             string // the first wrapper's note (xargs, time -o)
}

// unwrap finds the command that words runs after its wrappers.
func unwrap(words []word) unwrapped {
	u := unwrapped{words: words}
	for range maxWrappers + 1 {
		if u.start >= len(u.words) || !u.words[u.start].literal {
			return u
		}
		w, ok := wrappers[baseName(u.words[u.start].value)]
		if !ok {
			return u
		}
		args := u.words[u.start+1:]
		next, at, width, dyn := w.skip(args)
		if dyn {
			u.dynamic = true
			return u
		}
		if width > 0 {
			spliced, ok := spliceSplit(u.words, u.start+1+at, width, args[at:at+width])
			if !ok {
				u.dynamic = true // env -S '${X}' or an escape env reads its own way
				return u
			}
			u.words, u.split = spliced, true
			continue // read the same wrapper again, with the split words
		}
		if next < 0 || u.start+1+next >= len(u.words) {
			return u
		}
		if u.note == "" {
			u.note = w.noteFor(args[:next])
		}
		u.start += 1 + next
	}
	u.tooDeep = true
	return u
}

// noteFor is why a wrapper given opts makes its command at least moderate.
func (w wrapper) noteFor(opts []word) string {
	if w.note != "" {
		return w.note
	}
	rd := flagReader{values: w.valueOptions, getopt: true, dashdash: true}
	if len(w.writes) > 0 && rd.hasFlag(opts, w.writes) {
		return w.writesNote
	}
	return ""
}

// spliceSplit returns words with the width words at i (env -S 'value', or
// -S'value') replaced by value's words, and a bundle's other letters kept
// (env -iS'cmd' is env -i cmd); false when value cannot be split here.
func spliceSplit(words []word, i, width int, opt []word) ([]word, bool) {
	value, rest := splitOptionValue(opt)
	fields, ok := splitEnvString(value)
	if !ok {
		return nil, false
	}
	out := make([]word, 0, len(words)+len(fields))
	out = append(out, words[:i]...)
	if rest != "" {
		out = append(out, literalWord(rest))
	}
	for _, f := range fields {
		out = append(out, literalWord(f))
	}
	return append(out, words[i+width:]...), true
}

// splitEnvString splits the value of env -S as GNU env does: blanks
// separate words; '…' and "…" quote; \_ is a blank (a space inside
// "…"); \c ends the string; # starts a comment where a word would start;
// \n and \t are a newline and a tab, \" \' \\ \$ \# the character. ${NAME} is
// only known when the line runs, and an escape env refuses leaves nothing
// that runs: both give false.
func splitEnvString(s string) ([]string, bool) {
	var fields []string
	var cur []byte
	inWord, quote := false, byte(0)
	end := func() {
		if inWord {
			fields = append(fields, string(cur))
		}
		cur, inWord = cur[:0], false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote == '\'' && c == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\''):
			cur = append(cur, s[i+1])
			i++
		case quote == '\'' && c == '\'':
			quote = 0
		case quote == '\'':
			cur = append(cur, c)
		case c == '$':
			return nil, false
		case c == '\\':
			if i+1 == len(s) {
				return nil, false
			}
			i++
			switch e := s[i]; {
			case e == '_' && quote == 0:
				end()
			case e == '_':
				cur = append(cur, ' ')
			case e == 'c' && quote == 0:
				end()
				return fields, true
			case strings.IndexByte("\"'\\$#", e) >= 0:
				cur, inWord = append(cur, e), true
			case strings.IndexByte("fnrtv", e) >= 0:
				cur, inWord = append(cur, "\f\n\r\t\v"[strings.IndexByte("fnrtv", e)]), true
			default:
				return nil, false
			}
		case quote == '"' && c == '"':
			quote = 0
		case quote == '"':
			cur = append(cur, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			end()
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			end()
			return fields, true
		default:
			cur, inWord = append(cur, c), true
		}
	}
	if quote != 0 {
		return nil, false
	}
	end()
	return fields, true
}

// skip returns how many of args are the wrapper's own options and operands,
// or -1 when the wrapper runs nothing. When a split option (env -S) comes
// first, it returns where it is and how many words it takes instead.
func (w wrapper) skip(args []word) (n, at, width int, dynamic bool) {
	operands := w.operands
	for n < len(args) {
		a := args[n]
		if !a.literal {
			return 0, 0, 0, true
		}
		v := a.value
		switch {
		case v == "--":
			return n + 1 + operands, 0, 0, false
		case contains(w.noRun, v):
			return -1, 0, 0, false
		case strings.HasPrefix(v, "-"): // a lone - is env's -i
			if width := w.splitWidth(args, n); width > 0 {
				return n, n, width, false
			}
			n += w.optionWidth(v)
		case w.assignments && looksLikeAssignment(v):
			n++
		case operands > 0:
			operands--
			n++
		default:
			return n, 0, 0, false
		}
	}
	return n, 0, 0, false
}

// splitWidth is how many words the split option at args[n] takes with its
// value: 2 for -S 'cmd', 1 for -S'cmd', -iS'cmd' or --split-string=cmd, 0
// when args[n] holds none.
func (w wrapper) splitWidth(args []word, n int) int {
	v := args[n].value
	for _, opt := range w.splitOption {
		switch {
		case strings.HasPrefix(opt, "--"):
			if strings.HasPrefix(v, opt+"=") {
				return 1
			}
			if v == opt && n+1 < len(args) {
				return 2
			}
		case bundleValue(v, opt[1], w.valueOptions) >= 0:
			if bundleValue(v, opt[1], w.valueOptions) < len(v) {
				return 1
			}
			if n+1 < len(args) {
				return 2
			}
		}
	}
	return 0
}

// bundleValue is where the value of the one-letter option c starts in the
// bundle v (len(v) when it is the next word), or -1 when v does not hold
// c before a letter that takes a value of its own.
func bundleValue(v string, c byte, values []string) int {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return -1
	}
	rd := flagReader{values: values}
	for i := 1; i < len(v); i++ {
		if v[i] == c {
			return i + 1
		}
		if rd.takesValue(v[i]) {
			return -1
		}
	}
	return -1
}

// splitOptionValue returns the value of the split option in opt (one word,
// or the option and its value) and the bundle's letters before it, as an
// option word ("-i" of -iS'cmd'), or "".
func splitOptionValue(opt []word) (value, rest string) {
	v := opt[0].value
	if len(opt) == 2 {
		value = opt[1].value
	} else if i := strings.IndexByte(v, '='); strings.HasPrefix(v, "--") && i > 0 {
		return v[i+1:], ""
	}
	if strings.HasPrefix(v, "--") {
		return value, ""
	}
	at := strings.IndexByte(v, 'S')
	if len(opt) == 1 {
		value = v[at+1:]
	}
	if at > 1 {
		rest = v[:at]
	}
	return value, rest
}

// optionWidth is 2 for an option whose value is the next word (-u NAME,
// and -iu NAME, read as getopt reads a bundle), else 1.
func (w wrapper) optionWidth(v string) int {
	if (flagReader{values: w.valueOptions, getopt: true}).takesNext(v) {
		return 2
	}
	return 1
}

// literalWord is the word whose value is s.
func literalWord(s string) word {
	if w, ok := plainWord(s); ok {
		w.pattern = false
		return w
	}
	var b valueBuilder
	b.addString(s, true)
	return b.word()
}

// baseName is the last element of a program's path: /usr/bin/sudo is sudo.
func baseName(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 && i < len(p)-1 {
		return p[i+1:]
	}
	return p
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
