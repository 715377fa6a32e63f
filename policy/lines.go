package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// lineViews prints the parsed line twice, on one line each time: written,
// with every literal word in canonical form, and unwrapped, with wrappers,
// assignments and program paths dropped, so that curl x | env "/bin/sh" is
// seen as curl x | sh, and quoted arguments masked as '…', so that
// echo "a | sh b" is not. It changes the syntax tree, which is not used
// after.
func (c *checker) lineViews(file *syntax.File, first int) (written, unwrapped string) {
	for i := first; i < len(c.segments); i++ {
		rewriteCanonical(&c.segments[i])
	}
	written = c.print(file)
	changed := false
	for i := first; i < len(c.segments); i++ {
		changed = rewriteUnwrapped(&c.segments[i]) || changed
	}
	if !changed {
		return written, written
	}
	return written, c.print(file)
}

func (c *checker) print(file *syntax.File) string {
	c.out.Reset()
	if err := c.printer.Print(&c.out, file); err != nil {
		// Printing to memory does not fail; should it, the line views stay
		// empty and only the simple commands are checked.
		return ""
	}
	return strings.TrimSuffix(c.out.String(), "\n")
}

// rewriteCanonical replaces each literal argument of a segment's call with
// its canonical text.
func rewriteCanonical(seg *segment) {
	if seg.call == nil || seg.plain {
		return
	}
	assigns := len(seg.call.Assigns)
	for i, arg := range seg.call.Args {
		if w := seg.all[assigns+i]; w.literal {
			seg.call.Args[i] = litWord(w.text, arg)
		}
	}
}

// rewriteUnwrapped drops what comes before a segment's program (assignments,
// wrappers) and the program's path, and masks its quoted arguments. It
// reports whether it changed anything.
func rewriteUnwrapped(seg *segment) bool {
	if seg.call == nil || seg.inner < 0 {
		return false
	}
	call := seg.call
	skip := seg.inner - len(call.Assigns)
	masked := maskQuoted(call.Args[skip+1:], seg.all[seg.inner+1:])
	program := call.Args[skip]
	renamed := seg.words[0].literal && seg.program != seg.words[0].text
	if len(call.Assigns) == 0 && skip == 0 && !renamed {
		return masked
	}
	call.Assigns, call.Args = nil, call.Args[skip:]
	if renamed {
		call.Args[0] = litWord(seg.program, program)
	}
	return true
}

// maskQuoted replaces each literal argument that needed quotes with '…'.
func maskQuoted(args []*syntax.Word, words []word) bool {
	masked := false
	for i, arg := range args {
		if w := words[i]; w.literal && strings.IndexByte(w.text, '\'') >= 0 {
			args[i] = litWord("'…'", arg)
			masked = true
		}
	}
	return masked
}

// litWord is a word of one literal, placed where like was.
func litWord(text string, like *syntax.Word) *syntax.Word {
	lit := &syntax.Lit{ValuePos: like.Pos(), ValueEnd: like.End(), Value: text}
	return &syntax.Word{Parts: []syntax.WordPart{lit}}
}

// harmlessTargets are redirection targets that write no file.
var harmlessTargets = []string{"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"}

// noteRedirect notes a redirection that writes a file.
func (c *checker) noteRedirect(r *syntax.Redirect, src string) {
	if !writes(r.Op) || r.Word == nil {
		return
	}
	target := resolveWord(r.Word, src, &c.values)
	if r.Op == syntax.DplOut && target.literal && isFD(target.value) {
		return // >&2 and 2>&1 duplicate a descriptor
	}
	if target.literal && (contains(harmlessTargets, target.value) || strings.HasPrefix(target.value, "/dev/fd/")) {
		return
	}
	c.note(Moderate, r.Op.String()+" "+target.text+" writes a file")
}

func writes(op syntax.RedirOperator) bool {
	switch op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrInOut, syntax.DplOut, syntax.RdrClob,
		syntax.AppClob, syntax.RdrAll, syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob:
		return true
	}
	return false
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
