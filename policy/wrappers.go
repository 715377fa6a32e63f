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
	// splitOption's value is split into words that start the command (env -S).
	splitOption []string
}

// wrappers is the table of wrapper programs, by base name.
var wrappers = map[string]wrapper{
	"command":    {noRun: []string{"-v", "-V"}},
	"builtin":    {},
	"exec":       {valueOptions: []string{"-a"}},
	"env":        {valueOptions: []string{"-u", "--unset", "-C", "--chdir"}, assignments: true, splitOption: []string{"-S", "--split-string"}},
	"nohup":      {},
	"nice":       {valueOptions: []string{"-n", "--adjustment"}},
	"time":       {valueOptions: []string{"-f", "--format", "-o", "--output"}},
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
	"xargs": {valueOptions: []string{"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a",
		"--max-args", "--max-procs", "--max-lines", "--delimiter", "--eof", "--max-chars", "--arg-file", "--replace"}},
}

// maxWrappers bounds how many wrappers are peeled off one command.
const maxWrappers = 8

// unwrap returns the command that words runs after its wrappers: the index
// of its program in words, or, when a wrapper splits a word into several
// (env -S), those words. dynamic is true when a wrapper's arguments are not
// literal, so the command cannot be known.
func unwrap(words []word) (start int, split []word, dynamic bool) {
	for range maxWrappers {
		if start >= len(words) || !words[start].literal {
			return start, nil, false
		}
		w, ok := wrappers[baseName(words[start].value)]
		if !ok {
			return start, nil, false
		}
		next, splitValue, dyn := w.skip(words[start+1:])
		if dyn {
			return start, nil, true
		}
		if splitValue != "" {
			if start+1+next > len(words) {
				return start, nil, false
			}
			if split := splitWords(splitValue, words[start+1+next:]); len(split) > 0 {
				return start, split, false
			}
			return start, nil, false
		}
		if next < 0 || start+1+next >= len(words) {
			return start, nil, false
		}
		start += 1 + next
	}
	return start, nil, false
}

// skip returns how many of args are the wrapper's own options and operands,
// or -1 when the wrapper runs nothing. splitValue is the value of a split
// option (env -S), to be read as the start of the command.
func (w wrapper) skip(args []word) (n int, splitValue string, dynamic bool) {
	operands := w.operands
	for n < len(args) {
		a := args[n]
		if !a.literal {
			return 0, "", true
		}
		v := a.value
		switch {
		case v == "--":
			return n + 1 + operands, "", false
		case contains(w.noRun, v):
			return -1, "", false
		case strings.HasPrefix(v, "-"): // a lone - is env's -i
			if sv, width, ok := w.splitValue(args, n); ok {
				return n + width, sv, false
			}
			n += w.optionWidth(v)
		case w.assignments && looksLikeAssignment(v):
			n++
		case operands > 0:
			operands--
			n++
		default:
			return n, "", false
		}
	}
	return n, "", false
}

// splitValue returns the value of env -S at args[n], given separately
// (-S 'cmd') or attached (-S'cmd', --split-string=cmd), and how many words
// it took.
func (w wrapper) splitValue(args []word, n int) (string, int, bool) {
	v := args[n].value
	for _, opt := range w.splitOption {
		switch {
		case v == opt && n+1 < len(args) && args[n+1].literal:
			return args[n+1].value, 2, true
		case strings.HasPrefix(opt, "--") && strings.HasPrefix(v, opt+"="):
			return v[len(opt)+1:], 1, true
		case !strings.HasPrefix(opt, "--") && strings.HasPrefix(v, opt) && len(v) > len(opt):
			return v[len(opt):], 1, true
		}
	}
	return "", 0, false
}

// optionWidth is 2 for an option whose value is the next word, else 1.
func (w wrapper) optionWidth(v string) int {
	if contains(w.valueOptions, v) {
		return 2
	}
	return 1
}

// splitWords splits s on blanks into literal words, before rest.
func splitWords(s string, rest []word) []word {
	fields := strings.Fields(s)
	out := make([]word, 0, len(fields)+len(rest))
	for _, f := range fields {
		out = append(out, literalWord(f))
	}
	return append(out, rest...)
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
