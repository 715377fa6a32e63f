package policy

import (
	"bytes"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// parsedLine is the line, or a command string found inside it (sh -c, eval,
// alias), with the views of it the line-wide patterns are matched against.
type parsedLine struct {
	// written is the line normalised: one line, quotes resolved in literal
	// words. unwrapped also drops wrappers and paths before programs.
	written, unwrapped string
	via                string // "" for the line itself, else "bash -c", "eval", …
}

// note is a whole-line finding of the risk rules.
type note struct {
	level  Level
	reason string
}

// failure is why a line cannot be checked at all; it is refused.
type failure struct {
	rule, reason, hint string
}

// pending is a command string waiting to be parsed.
type pending struct {
	source, via string
	depth       int
}

// Limits on command strings inside command strings (sh -c "eval '…'").
const (
	maxDepth  = 4
	maxNested = 16
	maxBraces = 64
)

// checker holds what checking one line needs. Checkers are pooled, so a
// check reuses the parser, printer and slices of the one before.
type checker struct {
	parser  *syntax.Parser
	printer *syntax.Printer
	reader  strings.Reader
	out     bytes.Buffer
	values  valueBuilder
	words   []word
	piped   map[*syntax.CallExpr]bool
	queue   []pending

	lines    []parsedLine
	segments []segment
	notes    []note
	failure  *failure
	tally    tally
	depth    int // of the command string being walked
}

var checkers = sync.Pool{New: func() any {
	return &checker{
		parser:  syntax.NewParser(syntax.Variant(syntax.LangBash)),
		printer: syntax.NewPrinter(syntax.SingleLine(true)),
		piped:   map[*syntax.CallExpr]bool{},
	}
}}

func getChecker() *checker { return checkers.Get().(*checker) }

func (c *checker) release() {
	clear(c.words)
	clear(c.segments)
	clear(c.piped)
	c.words, c.segments = c.words[:0], c.segments[:0]
	clear(c.lines)
	clear(c.notes)
	clear(c.queue)
	c.lines, c.notes, c.queue, c.failure = c.lines[:0], c.notes[:0], c.queue[:0], nil
	checkers.Put(c)
}

// analyze splits line into its simple commands and finds what the risk
// rules look at; c.failure says when it cannot.
func (c *checker) analyze(line string) {
	if len(line) > MaxLineBytes {
		c.failure = &failure{rule: RuleTooLong,
			reason: "the line is " + strconv.Itoa(len(line)) + " bytes, more than the " + strconv.Itoa(MaxLineBytes) + " the lists check",
			hint:   "write long text to a file first, or split the line into several commands"}
		return
	}
	c.queue = append(c.queue, pending{source: line})
	for i := 0; i < len(c.queue) && c.failure == nil; i++ {
		c.analyzeOne(c.queue[i])
	}
}

func (c *checker) analyzeOne(p pending) {
	c.reader.Reset(p.source)
	file, err := c.parser.Parse(&c.reader, "")
	if err != nil {
		c.failure = parseFailure(p.via, err)
		return
	}
	first := len(c.segments)
	clear(c.piped)
	c.depth = p.depth
	c.walk(file, p.source)
	written, unwrapped := c.lineViews(file, first)
	c.lines = append(c.lines, parsedLine{written: written, unwrapped: unwrapped, via: p.via})
	for i := first; i < len(c.segments); i++ {
		c.findInner(i, p.depth)
	}
}

func parseFailure(via string, err error) *failure {
	if via == "" {
		return &failure{rule: "syntax",
			reason: "the line does not parse as a shell command: " + err.Error(),
			hint:   "fix its quoting or syntax and try again"}
	}
	return &failure{rule: "syntax",
		reason: "the command string given to " + via + " does not parse: " + err.Error(),
		hint:   "fix its quoting or syntax and try again"}
}

// walk visits every node of the file, so that simple commands inside $( ),
// backticks, subshells, bodies and here-documents are all found.
func (c *checker) walk(file *syntax.File, src string) {
	syntax.Walk(file, func(node syntax.Node) bool {
		switch n := node.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				c.markPiped(n.Y)
			}
		case *syntax.CallExpr:
			if len(n.Args) > 0 {
				c.addCall(n, src)
			}
		case *syntax.DeclClause:
			c.addDecl(n, src)
		case *syntax.Assign:
			c.checkAssign(n, src)
		case *syntax.WordIter:
			c.checkLoopVariable(n.Name)
		case *syntax.ParamExp:
			c.checkDefaultAssign(n)
		case *syntax.Redirect:
			c.noteRedirect(n, src)
		case *syntax.CmdSubst:
			c.note(Moderate, "$(…) runs a command and uses its output as words")
		case *syntax.ProcSubst:
			c.note(Moderate, "<(…) runs a command whose output is read as a file")
		}
		return true
	})
}

// markPiped remembers the first simple command of the statement on a pipe's
// reading side.
func (c *checker) markPiped(s *syntax.Stmt) {
	for s != nil {
		switch cmd := s.Cmd.(type) {
		case *syntax.CallExpr:
			c.piped[cmd] = true
			return
		case *syntax.BinaryCmd:
			s = cmd.X
		default:
			return
		}
	}
}

func (c *checker) isPiped(call *syntax.CallExpr) bool { return c.piped[call] }

func (c *checker) addCall(call *syntax.CallExpr, src string) {
	start := len(c.words)
	for _, as := range call.Assigns {
		c.words = append(c.words, assignWord(as, src, &c.values))
	}
	for _, w := range call.Args {
		c.words = append(c.words, resolveWord(w, src, &c.values))
	}
	all := c.words[start:len(c.words):len(c.words)]
	text, plain := callText(call, all, src)
	seg := c.newSegment(all, len(call.Assigns), text)
	seg.call, seg.plain, seg.piped = call, plain, c.isPiped(call)
	c.addBraceView(seg, call, src)
}

// assignWord is NAME=value in canonical form, or the source text of an
// assignment that is more than that (arrays, +=, indexes).
func assignWord(as *syntax.Assign, src string, b *valueBuilder) word {
	if as.Name == nil || as.Append || as.Naked || as.Index != nil || as.Array != nil || as.Value == nil {
		text := sourceOf(src, as)
		return word{text: text, marked: text}
	}
	v := resolveWord(as.Value, src, b)
	if v.text == v.value && v.literal {
		if s := sourceOf(src, as); len(s) == len(as.Name.Value)+1+len(v.text) {
			return word{text: s, marked: s, value: s, literal: true}
		}
	}
	text := as.Name.Value + "=" + v.text
	return word{text: text, marked: text, value: as.Name.Value + "=" + v.value, literal: v.literal}
}

func (c *checker) addDecl(d *syntax.DeclClause, src string) {
	start := len(c.words)
	c.words = append(c.words, word{text: d.Variant.Value, marked: d.Variant.Value, value: d.Variant.Value, literal: true})
	for _, as := range d.Args {
		c.words = append(c.words, assignWord(as, src, &c.values))
	}
	all := c.words[start:len(c.words):len(c.words)]
	c.newSegment(all, 0, joinTexts(all, false))
}

// callText is the simple command in canonical form: its source text when
// that already is (one space between plain words), else the words joined.
func callText(call *syntax.CallExpr, all []word, src string) (string, bool) {
	prevEnd := -1
	for i := range all {
		n := callNode(call, i)
		pos, end := int(n.Pos().Offset()), int(n.End().Offset())
		if end > len(src) || src[pos:end] != all[i].text || (prevEnd >= 0 && (pos != prevEnd+1 || src[prevEnd] != ' ')) {
			return joinTexts(all, false), false
		}
		prevEnd = end
	}
	return src[call.Pos().Offset():call.End().Offset()], true
}

// callNode is the i-th word of a call, counting assignments first.
func callNode(call *syntax.CallExpr, i int) syntax.Node {
	if i < len(call.Assigns) {
		return call.Assigns[i]
	}
	return call.Args[i-len(call.Assigns)]
}

func joinTexts(words []word, marked bool) string {
	n := 0
	for _, w := range words {
		n += len(w.text) + 1
	}
	var b strings.Builder
	b.Grow(n)
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if marked {
			b.WriteString(w.marked)
		} else {
			b.WriteString(w.text)
		}
	}
	return b.String()
}

// maxNotes bounds the whole-line findings kept; past it only a finding of a
// higher level than all kept is added, so the line's level stays right.
const maxNotes = 32

func (c *checker) note(level Level, reason string) {
	top := Level(0)
	for _, n := range c.notes {
		if n.reason == reason {
			return
		}
		top = max(top, n.level)
	}
	if len(c.notes) < maxNotes || level > top {
		c.notes = append(c.notes, note{level, reason})
	}
}
