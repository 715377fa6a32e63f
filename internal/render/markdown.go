package render

import (
	"regexp"
	"strings"
)

// Markdown renders the model's words, as they stream, for a terminal:
// headings and emphasis in bold and italics (their marks dropped), list
// bullets as •, quotes behind a bar, a link as its text and its target,
// code blocks verbatim and unwrapped. Everything else is text for the
// Writer, which makes it safe and wraps it at word boundaries.
// Without colour (NO_COLOR, a pipe) the same text comes without styles.
// It is the one renderer of the model's words: the plain chat streams
// through it, wisp tui lays out what it wrote (issue 28 item 11).
//
// It holds back only what it must to decide: a line's first marks (is
// "- " a bullet, "```" a fence?), a "*" until the next rune, a link until
// its ")", a code line until its end.
type Markdown struct {
	w  *Writer
	st MarkdownStyle

	lineStart bool
	head      strings.Builder // the marks held at a line's start
	fence     bool            // inside a code block
	fenceInfo bool            // skipping the rest of a fence's first line
	code      strings.Builder // the code line being collected
	heading   bool

	bold, italic, inCode bool
	star                 bool // a '*' waits for the next rune
	escaped              bool // a '\' came: the next rune is itself
	afterEsc             bool // the rune before was ESC: '[' is not a link
	prev                 rune
	link                 *strings.Builder // a link being collected: "[text](url"
	out                  strings.Builder  // text to write at the next style
}

const (
	maxLink  = 400
	headHold = 40
)

// MarkdownStyle is the SGR sequences Markdown writes for each style; its
// zero value writes none (no colour). Reset ends every style and sets
// the face's plain text back.
type MarkdownStyle struct {
	Reset, Bold, Italic, Code, Heading, Dim string
}

// TerminalStyle is the plain chat's: the terminal's own colours.
var TerminalStyle = MarkdownStyle{Reset: "\x1b[0m", Bold: "\x1b[1m", Italic: "\x1b[3m",
	Code: "\x1b[36m", Heading: "\x1b[1;4m", Dim: "\x1b[2m"}

// TerminalStyleIf is TerminalStyle with colour on, no style without.
func TerminalStyleIf(colour bool) MarkdownStyle {
	if !colour {
		return MarkdownStyle{}
	}
	return TerminalStyle
}

// NewMarkdown renders onto w in st.
func NewMarkdown(w *Writer, st MarkdownStyle) *Markdown {
	return &Markdown{w: w, st: st, lineStart: true}
}

func (m *Markdown) colour() bool { return m.st.Reset != "" }

// Write renders a piece of the words.
func (m *Markdown) Write(s string) {
	for _, r := range s {
		m.rune(r)
	}
	m.flushOut()
}

// End ends the message: what is held is written, styles are reset, and
// the next message starts on a fresh line state.
func (m *Markdown) End() {
	switch {
	case m.fence:
		if m.code.Len() > 0 {
			m.codeLine(m.code.String())
		}
	case m.lineStart && m.head.Len() > 0:
		m.decideHead(true)
	}
	m.endInline()
	m.flushOut()
	m.reset()
	*m = Markdown{w: m.w, st: m.st, lineStart: true}
}

func (m *Markdown) rune(r rune) {
	switch {
	case m.fenceInfo:
		if r == '\n' {
			m.fenceInfo = false
			m.lineStart = true
		}
	case m.fence:
		m.fenceRune(r)
	case m.lineStart:
		m.headRune(r)
	default:
		m.inline(r)
	}
}

// Block marks at a line's start.
var (
	fenceRe   = regexp.MustCompile("^ {0,3}(```+|~~~+)")
	closeRe   = regexp.MustCompile("^ {0,3}(```+|~~~+) *$")
	headingRe = regexp.MustCompile(`^ {0,3}#{1,6}( +|$)`)
	bulletRe  = regexp.MustCompile(`^( *)[-*+] +`)
	numberRe  = regexp.MustCompile(`^( *)(\d{1,9}[.)]) +`)
	quoteRe   = regexp.MustCompile(`^ {0,3}> ?`)
	ruleRe    = regexp.MustCompile(`^ {0,3}((- *){3,}|(\* *){3,}|(_ *){3,})$`)
)

func (m *Markdown) headRune(r rune) {
	if r != '\n' && strings.ContainsRune(" #-*+>`~_0123456789.)", r) && m.head.Len() < headHold {
		m.head.WriteRune(r)
		return
	}
	m.decideHead(r == '\n')
	m.rune(r)
}

// decideHead reads the held marks as a block's start, or as text.
func (m *Markdown) decideHead(lineEnded bool) {
	head := m.head.String()
	m.head.Reset()
	m.lineStart = false
	switch {
	case fenceRe.MatchString(head):
		m.flushOut()
		m.fence, m.fenceInfo = true, !lineEnded
		if lineEnded {
			m.lineStart = true
		}
		return
	case lineEnded && ruleRe.MatchString(head):
		n := 40
		if m.w.Width != nil && m.w.Width() > 0 {
			n = min(n, m.w.Width()-1)
		}
		m.out.WriteString(strings.Repeat("─", n))
		return
	case headingRe.MatchString(head):
		m.heading = true
		m.style(m.st.Heading)
		head = head[len(headingRe.FindString(head)):]
	case bulletRe.MatchString(head):
		g := bulletRe.FindStringSubmatch(head)
		m.out.WriteString(g[1] + "• ")
		head = head[len(g[0]):]
	case numberRe.MatchString(head):
		g := numberRe.FindStringSubmatch(head)
		m.out.WriteString(g[0])
		head = head[len(g[0]):]
	case quoteRe.MatchString(head):
		m.dim("│ ")
		head = head[len(quoteRe.FindString(head)):]
	}
	for _, r := range head {
		m.inline(r)
	}
}

func (m *Markdown) fenceRune(r rune) {
	if r != '\n' {
		if m.code.Len() < 64<<10 {
			m.code.WriteRune(r)
		}
		return
	}
	line := m.code.String()
	m.code.Reset()
	if closeRe.MatchString(line) {
		m.fence = false
		m.lineStart = true
		return
	}
	m.codeLine(line)
}

// codeLine writes one line of a code block as it is: rendered safe, not
// wrapped, styled as code.
func (m *Markdown) codeLine(line string) {
	m.flushOut()
	if m.colour() {
		m.w.Raw(m.st.Code)
	}
	m.w.Passthrough(Line(strings.ReplaceAll(line, "\t", "    ")))
	if m.colour() {
		m.w.Raw(m.st.Reset)
	}
	m.w.Passthrough("\n")
}

// inline handles emphasis, code spans and links within a line.
func (m *Markdown) inline(r rune) {
	if m.link != nil {
		m.linkRune(r)
		return
	}
	if m.star {
		m.star = false
		if r == '*' {
			m.bold = !m.bold
			m.restyle()
			return
		}
		m.single(r)
	}
	switch {
	case r == '\n':
		m.endInline()
		m.out.WriteByte('\n')
		m.lineStart = true
	case m.escaped:
		m.escaped = false
		m.text(r)
	case m.inCode && r == '`':
		m.inCode = false
		m.restyle()
	case m.inCode:
		m.text(r)
	case r == '\\':
		m.escaped = true
	case r == '`':
		m.inCode = true
		m.restyle()
	case r == '*':
		m.star = true
	case r == '[' && !m.afterEsc:
		m.link = &strings.Builder{}
	default:
		m.text(r)
	}
}

// single decides a lone '*' by its neighbours: it closes italics after a
// word, opens them before one, and is itself between spaces ("2 * 3").
func (m *Markdown) single(next rune) {
	space := func(r rune) bool { return r == 0 || r == ' ' || r == '\t' || r == '\n' }
	switch {
	case m.italic && !space(m.prev):
		m.italic = false
		m.restyle()
	case !m.italic && space(m.prev) && !space(next):
		m.italic = true
		m.restyle()
	default:
		m.text('*')
	}
}

func (m *Markdown) text(r rune) {
	m.out.WriteRune(r)
	m.prev = r
	m.afterEsc = r == 0x1b
}

// linkRune collects "[text](target)"; anything else gives the collected
// text back as it was.
func (m *Markdown) linkRune(r rune) {
	m.link.WriteRune(r)
	s := m.link.String()
	text, rest, closed := strings.Cut(s, "]")
	switch {
	case r == '\n' || len(s) > maxLink:
	case !closed:
		return
	case rest == "":
		return
	case rest[0] != '(':
	case !strings.HasSuffix(rest, ")"):
		return
	default:
		m.link = nil
		target := strings.TrimSuffix(rest[1:], ")")
		m.linkOut(text, target)
		return
	}
	m.link = nil
	m.text('[')
	for _, c := range s {
		if c == '\n' {
			m.inline(c)
			continue
		}
		m.text(c)
	}
}

func (m *Markdown) linkOut(text, target string) {
	if text == "" || text == target {
		m.out.WriteString(target)
		return
	}
	m.out.WriteString(text + " (" + target + ")")
	m.prev = ')'
}

// endInline closes what a line left open: a held '*', a link, styles.
func (m *Markdown) endInline() {
	if m.star {
		m.star = false
		m.text('*')
	}
	if m.link != nil {
		s := m.link.String()
		m.link = nil
		m.out.WriteString("[" + s)
	}
	m.reset()
}

// reset turns every style off.
func (m *Markdown) reset() {
	if m.bold || m.italic || m.inCode || m.heading {
		m.bold, m.italic, m.inCode, m.heading = false, false, false, false
		m.restyle()
	}
	m.prev = 0
}

// restyle writes the styles in force now.
func (m *Markdown) restyle() {
	var sgr strings.Builder
	sgr.WriteString(m.st.Reset)
	if m.heading {
		sgr.WriteString(m.st.Heading)
	}
	if m.bold {
		sgr.WriteString(m.st.Bold)
	}
	if m.italic {
		sgr.WriteString(m.st.Italic)
	}
	if m.inCode {
		sgr.WriteString(m.st.Code)
	}
	m.style(sgr.String())
}

func (m *Markdown) style(sgr string) {
	m.flushOut()
	if m.colour() {
		m.w.Raw(sgr)
	}
}

func (m *Markdown) dim(s string) {
	m.style(m.st.Dim)
	m.out.WriteString(s)
	m.style(m.st.Reset)
}

func (m *Markdown) flushOut() {
	if m.out.Len() > 0 {
		m.w.WriteString(m.out.String())
		m.out.Reset()
	}
}
