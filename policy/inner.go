package policy

import "strings"

// shells are the programs whose -c string is a command line to check too.
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "ksh": true,
	"mksh": true, "ash": true, "posh": true, "yash": true,
}

// findExecActions are find's actions that run a command, ended by ; or +.
var findExecActions = []string{"-exec", "-execdir", "-ok", "-okdir"}

// findInner looks into the arguments of segment i for commands it runs: the
// string of sh -c, eval's words, an alias's value, find -exec's command.
func (c *checker) findInner(i, depth int) {
	seg := c.segments[i] // a copy: findExec may grow c.segments
	switch {
	case shells[seg.program]:
		c.shellString(seg, depth)
	case seg.program == "eval":
		c.evalString(seg, depth)
	case seg.program == "alias":
		c.aliasValues(seg, depth)
	case seg.program == "find":
		c.findExec(seg)
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

// findExec adds the command of each find -exec … ; as a segment of its own.
func (c *checker) findExec(seg segment) {
	words := seg.words
	for j := 1; j < len(words); j++ {
		if !contains(findExecActions, words[j].value) {
			continue
		}
		end := j + 1
		for end < len(words) && words[end].value != ";" && words[end].value != "+" {
			end++
		}
		if end > j+1 {
			cmd := words[j+1 : end : end]
			c.newSegment(cmd, 0, joinTexts(cmd, false))
		}
		j = end
	}
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
