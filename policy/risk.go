package policy

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Level is how much a line could do: Low < Moderate < High. The zero Level
// is not a level, so that a forgotten assessment is noticed, not taken as low.
type Level int

const (
	Low Level = iota + 1
	Moderate
	High
)

var levelNames = [...]string{Low: "low", Moderate: "moderate", High: "high"}

func (l Level) valid() bool { return l >= Low && l <= High }

func (l Level) String() string {
	if l.valid() {
		return levelNames[l]
	}
	return "Level(" + strconv.Itoa(int(l)) + ")"
}

// ParseLevel reads low, moderate or high.
func ParseLevel(s string) (Level, error) {
	for l := Low; l <= High; l++ {
		if s == levelNames[l] {
			return l, nil
		}
	}
	return 0, fmt.Errorf("%q is not a risk level; use low, moderate or high", s)
}

// MarshalText writes the level in lowercase.
func (l Level) MarshalText() ([]byte, error) {
	if !l.valid() {
		return nil, fmt.Errorf("cannot write %s: not a risk level", l)
	}
	return []byte(levelNames[l]), nil
}

// UnmarshalText reads a level written by MarshalText.
func (l *Level) UnmarshalText(text []byte) error {
	v, err := ParseLevel(string(text))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Assessment is a line's risk: the highest level of its simple commands and
// of the rules on the whole line, and why, highest first.
type Assessment struct {
	Level   Level
	Reasons []string
}

// Assess returns the risk of line. A line that cannot be checked is High,
// with the error saying why.
func Assess(line string) (Assessment, error) {
	c := getChecker()
	defer c.release()
	c.analyze(line)
	if c.failure != nil {
		return Assessment{Level: High, Reasons: []string{"it cannot be checked: " + c.failure.reason}}, errors.New(c.failure.reason)
	}
	return c.assess(), nil
}

// interpreters run the program they read from standard input.
var interpreters = map[string]bool{
	"python": true, "python2": true, "python3": true, "node": true, "nodejs": true, "perl": true,
	"ruby": true, "php": true, "lua": true, "luajit": true, "Rscript": true, "deno": true, "bun": true,
	"osascript": true, "tclsh": true, "pwsh": true, "irb": true, "jshell": true, "groovy": true,
}

// maxReasons bounds the reasons an assessment lists: a person reads them.
const maxReasons = 16

// leveled is one reason with its level.
type leveled struct {
	level  Level
	reason string
}

// tally gathers the levels and reasons of one line's commands and rules.
type tally struct {
	top     Level
	reasons []leveled
	lows    []string // the programs of the low commands
}

func (t *tally) add(level Level, reason string) {
	t.top = max(t.top, level)
	t.reasons = append(t.reasons, leveled{level, reason})
}

func (t *tally) reset() {
	t.top, t.reasons, t.lows = 0, t.reasons[:0], t.lows[:0]
}

func (c *checker) assess() Assessment {
	t := &c.tally
	t.reset()
	for i := range c.segments {
		seg := &c.segments[i]
		if level := assessSegment(seg, t); level == Low && len(t.lows) < maxReasons && !slices.Contains(t.lows, seg.program) {
			t.lows = append(t.lows, seg.program)
		}
	}
	for _, n := range c.notes {
		t.add(n.level, n.reason)
	}
	return t.summary()
}

// summary orders the reasons highest first. A low line says which commands
// it runs; a line that runs nothing says so.
func (t *tally) summary() Assessment {
	switch t.top {
	case 0:
		return Assessment{Level: Low, Reasons: []string{"it runs no command"}}
	case Low:
		return Assessment{Level: Low, Reasons: []string{"only commands on the low-risk list: " + strings.Join(t.lows, ", ")}}
	}
	slices.SortStableFunc(t.reasons, func(a, b leveled) int { return int(b.level) - int(a.level) })
	out := make([]string, 0, min(len(t.reasons), maxReasons+1))
	more := 0
	for _, r := range t.reasons {
		switch {
		case r.level == Low || slices.Contains(out, r.reason):
		case len(out) == maxReasons:
			more++
		default:
			out = append(out, r.reason)
		}
	}
	if more > 0 {
		out = append(out, "and "+strconv.Itoa(more)+" more reasons of this level or lower")
	}
	return Assessment{Level: t.top, Reasons: out}
}

// assessSegment adds one simple command's level and reasons to t, and
// returns the level.
func assessSegment(seg *segment, t *tally) Level {
	if seg.dynamic {
		t.add(High, dynamicReason(seg))
		return High
	}
	level := assessCommand(seg.program, seg.words, t)
	if seg.wrapNote != "" {
		t.add(Moderate, seg.wrapNote)
		level = max(level, Moderate)
	}
	if seg.piped && (interpreters[seg.program] || shells[seg.program]) && readsProgramFromStdin(seg.words) {
		t.add(High, seg.program+" runs the code piped into it")
		level = High
	}
	return level
}

func dynamicReason(seg *segment) string {
	program := seg.words[0]
	if program.literal && !program.pattern {
		return "what " + program.text + " runs is only known when the line runs"
	}
	return "the program " + program.text + " is only known when the line runs"
}

// readsProgramFromStdin: an interpreter given no script, or -, reads its
// program from standard input.
func readsProgramFromStdin(words []word) bool {
	for _, w := range words[1:] {
		if !strings.HasPrefix(w.text, "-") {
			return false
		}
		if w.text == "-" {
			return true
		}
	}
	return true
}
