package policy

import (
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word of a simple command, resolved as far as can be
// without running anything.
type word struct {
	// text is the word in canonical form: its value, quoted as a shell would
	// need it, with glob, tilde and brace characters the shell would expand
	// left bare. A word that is not literal keeps its source text ($HOME).
	text string
	// marked is text with every character that was quoted or escaped in the
	// source kept in quotes, so that "prompt" and prompt can be told apart.
	marked string
	// value is what the command receives, when the word is literal.
	value string
	// literal is false when the word holds an expansion ($x, $(…), …).
	literal bool
	// pattern is true when unquoted glob, tilde or brace characters may make
	// the shell change the word.
	pattern bool
}

// plainWord returns the word for source text that needs no quoting and holds
// no escapes, without allocating.
func plainWord(s string) (word, bool) {
	if s == "" {
		return word{}, false
	}
	pattern := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isSafe(c):
		case isExpanding(c):
			pattern = true
		default:
			return word{}, false
		}
	}
	return word{text: s, marked: s, value: s, literal: true, pattern: pattern}, true
}

// isSafe reports whether c never needs quoting.
func isSafe(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	case c >= utf8.RuneSelf:
		return true
	}
	return strings.IndexByte("_@%+=:,./-", c) >= 0
}

// isExpanding reports whether c, unquoted, may be changed by the shell
// (globs, ~, brace expansion).
func isExpanding(c byte) bool { return strings.IndexByte("*?[]~{}", c) >= 0 }

// valueBuilder collects a word's value with one bit a byte saying whether
// that byte was quoted or escaped in the source.
type valueBuilder struct {
	value  []byte
	quoted []bool
}

func (b *valueBuilder) reset() { b.value, b.quoted = b.value[:0], b.quoted[:0] }

func (b *valueBuilder) add(c byte, quoted bool) {
	b.value = append(b.value, c)
	b.quoted = append(b.quoted, quoted)
}

func (b *valueBuilder) addString(s string, quoted bool) {
	for i := 0; i < len(s); i++ {
		b.add(s[i], quoted)
	}
}

// resolveWord turns a parsed word into a word. src is the text it was parsed
// from, for words that are not literal.
func resolveWord(w *syntax.Word, src string, b *valueBuilder) word {
	if len(w.Parts) == 1 {
		if lit, ok := w.Parts[0].(*syntax.Lit); ok {
			if pw, ok := plainWord(lit.Value); ok {
				return pw
			}
		}
	}
	b.reset()
	if !b.collect(w.Parts, false) {
		text := sourceOf(src, w)
		return word{text: text, marked: text, value: "", literal: false}
	}
	return b.word()
}

// sourceOf is the text a node was parsed from.
func sourceOf(src string, n syntax.Node) string {
	start, end := int(n.Pos().Offset()), int(n.End().Offset())
	if start < 0 || end > len(src) || start > end {
		return ""
	}
	return src[start:end]
}

// collect adds the parts' value, and reports false when a part is not
// literal.
func (b *valueBuilder) collect(parts []syntax.WordPart, inDouble bool) bool {
	for _, part := range parts {
		switch p := part.(type) {
		case *syntax.Lit:
			b.addLit(p.Value, inDouble)
		case *syntax.SglQuoted:
			if p.Dollar {
				b.addString(decodeANSIC(p.Value), true)
			} else {
				b.addString(p.Value, true)
			}
		case *syntax.DblQuoted:
			if !b.collect(p.Parts, true) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// addLit adds a literal's value with its backslashes resolved: outside
// double quotes a backslash quotes any character; inside, only $ ` " \ and
// newline.
func (b *valueBuilder) addLit(s string, inDouble bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.add(c, inDouble)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !inDouble || strings.IndexByte("$`\"\\", next) >= 0:
			b.add(next, true)
			i++
		default:
			b.add(c, true)
		}
	}
}

func (b *valueBuilder) word() word {
	value := string(b.value)
	text := appendQuoted(nil, b.value, b.quoted, false)
	marked := appendQuoted(nil, b.value, b.quoted, true)
	w := word{value: value, literal: true, text: string(text)}
	w.marked = w.text
	if string(marked) != w.text {
		w.marked = string(marked)
	}
	for i, c := range b.value {
		if !b.quoted[i] && isExpanding(c) {
			w.pattern = true
		}
	}
	return w
}

// appendQuoted renders a value in canonical form. A byte needs quotes when
// it is not safe, unless it is an unquoted expanding character (which must
// stay bare to mean what it meant); with mark, every quoted byte does.
func appendQuoted(dst, value []byte, quoted []bool, mark bool) []byte {
	if len(value) == 0 {
		return append(dst, "''"...)
	}
	needs, bare := false, false
	for i, c := range value {
		switch {
		case needsQuote(c, quoted[i], mark):
			needs = true
		case !quoted[i] && isExpanding(c):
			bare = true
		}
	}
	if !needs {
		return append(dst, value...)
	}
	if !bare {
		return appendSingleQuoted(dst, value)
	}
	return appendRuns(dst, value, quoted, mark)
}

func needsQuote(c byte, quoted, mark bool) bool {
	if mark && quoted {
		return true
	}
	return !isSafe(c) && !(isExpanding(c) && !quoted)
}

// appendRuns quotes a word that mixes quoted text with characters the
// shell expands ("my file"* is 'my file'*): each run of bytes that were
// quoted together is quoted whole when any of it needs quotes; elsewhere
// only the bytes that need it are.
func appendRuns(dst, value []byte, quoted []bool, mark bool) []byte {
	for i := 0; i < len(value); {
		j := i + 1
		for j < len(value) && quoted[j] == quoted[i] && (quoted[i] || needsQuote(value[j], false, mark) == needsQuote(value[i], false, mark)) {
			j++
		}
		if anyNeedsQuote(value[i:j], quoted[i:j], mark) {
			dst = appendSingleQuoted(dst, value[i:j])
		} else {
			dst = append(dst, value[i:j]...)
		}
		i = j
	}
	return dst
}

func anyNeedsQuote(value []byte, quoted []bool, mark bool) bool {
	for i, c := range value {
		if needsQuote(c, quoted[i], mark) {
			return true
		}
	}
	return false
}

func appendSingleQuoted(dst, value []byte) []byte {
	dst = append(dst, '\'')
	for _, c := range value {
		if c == '\'' {
			dst = append(dst, `'\''`...)
			continue
		}
		dst = append(dst, c)
	}
	return append(dst, '\'')
}

// ShellJoin quotes args as a shell would need them to see each as one word
// with exactly that value, and joins them with spaces. A first argument that
// would read as an assignment (a=b) is quoted too.
func ShellJoin(args []string) string {
	var dst []byte
	for i, arg := range args {
		if i > 0 {
			dst = append(dst, ' ')
		}
		dst = appendArg(dst, arg, i == 0)
	}
	return string(dst)
}

func appendArg(dst []byte, arg string, first bool) []byte {
	safe := arg != ""
	for i := 0; i < len(arg); i++ {
		if !isSafe(arg[i]) {
			safe = false
			break
		}
	}
	if safe && !(first && looksLikeAssignment(arg)) {
		return append(dst, arg...)
	}
	return appendSingleQuoted(dst, []byte(arg))
}

// looksLikeAssignment reports whether s, as a command's first word, would
// be taken as NAME=value.
func looksLikeAssignment(s string) bool {
	eq := strings.IndexByte(s, '=')
	if eq <= 0 {
		return false
	}
	for i := 0; i < eq; i++ {
		c := s[i]
		letter := c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && !(i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
