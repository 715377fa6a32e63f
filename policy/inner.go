package policy

import "strings"

// shells are the programs whose -c string is a command line to check too.
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true,
	"mksh": true, "ash": true, "posh": true, "yash": true,
}

// execAction is how a program names a command it runs on each file it
// finds: the options that start it, and the words that end it (else the
// end of the words).
type execAction struct {
	starts, ends []string
	// letters start the command inside a bundle too (fd -Hx cmd, -xcmd),
	// unless one of values, which take the rest as theirs, comes first.
	letters, values string
}

// execActions are the programs that run a command named in their
// arguments: find -exec … ; and fd -x ….
var execActions = map[string]execAction{
	"find": {starts: []string{"-exec", "-execdir", "-ok", "-okdir"}, ends: []string{";", "+"}},
	"fd":   {starts: []string{"-x", "--exec", "-X", "--exec-batch"}, ends: []string{";"}, letters: "xX", values: "tedEjSco"},
}

// findInner looks into the arguments of segment i for commands it runs: the
// string of sh -c, eval's words, an alias's value, find -exec's command,
// and the variables a wrapper sets (env PAGER=… man ls).
func (c *checker) findInner(i, depth int) {
	seg := c.segments[i] // a copy: execCommands may grow c.segments
	c.checkWrapperAssigns(seg.before)
	if action, ok := execActions[seg.program]; ok {
		c.execCommands(seg, action)
		return
	}
	switch {
	case shells[seg.program]:
		c.shellString(seg, depth)
	case seg.program == "eval":
		c.evalString(seg, depth)
	case seg.program == "alias":
		c.aliasValues(seg, depth)
	}
}

// shellString queues the command string of sh -c (also -ec, -lc, …).
func (c *checker) shellString(seg segment, depth int) {
	sawC := false
	args := seg.words[1:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		if !a.literal {
			if sawC {
				c.note(High, seg.program+" -c runs a command string made when the line runs")
			}
			return
		}
		v := a.value
		switch {
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			j++
		case strings.HasPrefix(v, "--"):
		case len(v) > 1 && (v[0] == '-' || v[0] == '+'):
			sawC = sawC || strings.IndexByte(v[1:], 'c') >= 0
		case sawC:
			c.enqueue(v, seg.program+" -c", depth)
			return
		default:
			return
		}
	}
}

func (c *checker) evalString(seg segment, depth int) {
	values := make([]string, 0, len(seg.words)-1)
	for _, w := range seg.words[1:] {
		if !w.literal {
			c.note(High, "eval runs text made when the line runs")
			return
		}
		values = append(values, w.value)
	}
	c.enqueue(strings.Join(values, " "), "eval", depth)
}

func (c *checker) aliasValues(seg segment, depth int) {
	for _, w := range seg.words[1:] {
		if !w.literal {
			c.note(High, "alias defines a command made when the line runs")
			continue
		}
		if eq := strings.IndexByte(w.value, '='); eq > 0 {
			c.enqueue(w.value[eq+1:], "alias", depth)
		}
	}
}

// execCommands adds the command of each find -exec … ; (fd -x …) as a
// segment of its own.
func (c *checker) execCommands(seg segment, action execAction) {
	words := seg.words
	for j := 1; j < len(words); j++ {
		attached, ok := action.startsAt(words[j].value)
		if !ok {
			continue
		}
		end := j + 1
		for end < len(words) && !contains(action.ends, words[end].value) {
			end++
		}
		cmd := words[j+1 : end : end]
		if attached != "" {
			cmd = append([]word{literalWord(attached)}, cmd...)
		}
		if len(cmd) > 0 {
			c.newSegment(cmd, 0, joinTexts(cmd, false))
		}
		j = end
	}
}

// startsAt reports whether v starts a command, and the start of it that v
// holds (fd -xrm holds rm).
func (a execAction) startsAt(v string) (string, bool) {
	if contains(a.starts, v) {
		return "", true
	}
	for _, s := range a.starts {
		if strings.HasPrefix(s, "--") && strings.HasPrefix(v, s+"=") {
			return v[len(s)+1:], true
		}
	}
	if a.letters == "" || len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return "", false
	}
	for i := 1; i < len(v); i++ {
		switch {
		case strings.IndexByte(a.letters, v[i]) >= 0:
			return v[i+1:], true
		case strings.IndexByte(a.values, v[i]) >= 0:
			return "", false
		}
	}
	return "", false
}

// enqueue adds a command string to be checked as a line of its own.
func (c *checker) enqueue(source, via string, depth int) {
	if depth+1 > maxDepth || len(c.queue) >= maxNested {
		c.failure = &failure{rule: "nesting",
			reason: "the line nests command strings (" + via + ") too deeply to check",
			hint:   "run the commands directly, without wrapping them in sh -c or eval"}
		return
	}
	c.queue = append(c.queue, pending{source: source, via: via, depth: depth + 1})
}
