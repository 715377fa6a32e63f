package policy

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// segment is one simple command of a line.
type segment struct {
	// text is the simple command in canonical form, assignments and
	// wrappers included: what a message shows.
	text string
	// all is every word: assignments, wrappers, the command.
	all []word
	// words is the command after its wrappers, program first.
	words []word
	// program is the base name of words[0], "" when it is not literal.
	program string
	// views are the distinct forms the deny patterns are matched against:
	// text, the command after its wrappers as written and with the program's
	// base name, that with quoted arguments kept quoted, and brace-expanded.
	views  [5]string
	nviews int
	// allow are the forms an allow pattern may match: the command after its
	// wrappers, as written and with the program's base name.
	allow [2]string
	// dynamic: the program is only known when the line runs ($x, a glob, a
	// wrapper given an expansion).
	dynamic bool
	// piped: its standard input is a pipe.
	piped bool
	// call is where it was parsed from, nil for a command found inside
	// another's arguments (find -exec).
	call *syntax.CallExpr
	// inner is the index in call's words (assignments, then arguments) of the
	// program after the wrappers; -1 when a wrapper split a word (env -S).
	inner int
	// plain: text is the source as written, so the line view needs no rewrite.
	plain bool
	// wrapNote is why a wrapper makes the command at least moderate (xargs
	// adds words to it, time -o writes a file), or "".
	wrapNote string
	// before are the words between the shell's assignments and the
	// command: wrappers, their options and env's NAME=value words.
	before []word
}

func (s *segment) addView(v string) {
	for _, have := range s.views[:s.nviews] {
		if have == v {
			return
		}
	}
	s.views[s.nviews] = v
	s.nviews++
}

// newSegment adds the segment whose words (assignments first) are all and
// fills in its views.
func (c *checker) newSegment(all []word, assigns int, text string) *segment {
	c.segments = append(c.segments, segment{text: text, all: all})
	seg := &c.segments[len(c.segments)-1]
	seg.addView(text)
	u := unwrap(all[assigns:])
	if u.tooDeep {
		c.failure = &failure{rule: RuleNesting,
			reason: "the command " + text + " is behind more wrappers than the lists read",
			hint:   "run the command without so many wrappers (env, nohup, nice, …) before it"}
	}
	seg.before, seg.wrapNote = u.words[:u.start], u.note
	if u.split {
		seg.inner, seg.words = -1, u.words[u.start:]
		c.fillInnerViews(seg, joinTexts(seg.words, false))
	} else {
		seg.inner, seg.words = assigns+u.start, all[assigns+u.start:]
		c.fillInnerViews(seg, text[textOffset(all, assigns+u.start):])
	}
	seg.dynamic = u.dynamic || !seg.words[0].literal || seg.words[0].pattern
	return seg
}

// textOffset is where words[i] starts in the words joined by single spaces.
func textOffset(words []word, i int) int {
	n := 0
	for _, w := range words[:i] {
		n += len(w.text) + 1
	}
	return n
}

func (c *checker) fillInnerViews(seg *segment, inner string) {
	program := seg.words[0]
	seg.addView(inner)
	base := inner
	if program.literal {
		seg.program = baseName(program.value)
		if seg.program != program.text {
			base = seg.program + inner[len(program.text):]
		}
	}
	seg.addView(base)
	seg.allow = [2]string{inner, base}
	for _, w := range seg.words[1:] {
		if w.marked != w.text {
			seg.addView(seg.program + " " + joinTexts(seg.words[1:], true))
			break
		}
	}
}

// addBraceView adds the command as bash's brace expansion would make it
// (s{u,}do is sudo sdo), for the words after the wrappers.
func (c *checker) addBraceView(seg *segment, call *syntax.CallExpr, src string) {
	if seg.inner < len(call.Assigns) || !hasBrace(seg.words) {
		return
	}
	var expanded []word
	for _, w := range call.Args[seg.inner-len(call.Assigns):] {
		expanded = append(expanded, expandBraces(w, src, &c.values)...)
	}
	if len(expanded) == 0 {
		return
	}
	if expanded[0].literal {
		expanded[0] = literalWord(baseName(expanded[0].value))
	}
	seg.addView(joinTexts(expanded, false))
}

func hasBrace(words []word) bool {
	for _, w := range words {
		if w.pattern && strings.IndexByte(w.text, '{') >= 0 {
			return true
		}
	}
	return false
}

// expandBraces returns the words brace expansion makes of w, at most
// maxBraces of them.
func expandBraces(w *syntax.Word, src string, b *valueBuilder) []word {
	cp := *w
	if !syntax.SplitBraces(&cp) {
		return []word{resolveWord(w, src, b)}
	}
	var out []word
	for ew, err := range expand.BracesSeq(nil, &cp) {
		if err != nil || len(out) == maxBraces {
			break
		}
		out = append(out, resolveWord(ew, src, b))
	}
	return out
}
