package policy

import (
	"regexp"
	"regexp/syntax"
	"unicode/utf8"
)

// firstBytes is a cheap test run before a regular expression: the set of
// bytes a match can start with. For a pattern anchored at the start
// (^sudo…), a view that starts with another byte cannot match; for one that
// is not (\|\s*sh…), a view that holds none of them cannot. Either way the
// regexp is not run, nor compiled: a wisp that checks one line compiles
// only the patterns the line could match. It is derived from the compiled
// pattern, so it never hides a match.
type firstBytes struct {
	set      [4]uint64
	usable   bool // false: a match can start with anything, or be empty
	anywhere bool // the pattern is not anchored: a match may start at any byte
}

func (f *firstBytes) add(b byte)      { f.set[b>>6] |= 1 << (b & 63) }
func (f *firstBytes) has(b byte) bool { return f.set[b>>6]&(1<<(b&63)) != 0 }
func (f *firstBytes) mayMatch(s string) bool {
	switch {
	case !f.usable:
		return true
	case !f.anywhere:
		return s != "" && f.has(s[0])
	}
	for i := 0; i < len(s); i++ {
		if f.has(s[i]) {
			return true
		}
	}
	return false
}

// matches runs re on s unless the prefilter rules it out.
func matches(re *regexp.Regexp, f *firstBytes, s string) bool {
	return f.mayMatch(s) && re.MatchString(s)
}

// prefilterFor derives the first bytes of pattern's matches.
func prefilterFor(pattern string) firstBytes {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return firstBytes{}
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return firstBytes{}
	}
	f := firstBytes{usable: true, anywhere: prog.StartCond()&syntax.EmptyBeginText == 0}
	seen := make([]bool, len(prog.Inst))
	if !f.collect(prog, uint32(prog.Start), seen) {
		return firstBytes{}
	}
	return f
}

// collect adds the bytes instruction pc can consume first, following the
// instructions that consume nothing. It returns false when any byte could
// come first (the pattern can match empty, any rune, or non-ASCII).
func (f *firstBytes) collect(prog *syntax.Prog, pc uint32, seen []bool) bool {
	if seen[pc] {
		return true
	}
	seen[pc] = true
	inst := &prog.Inst[pc]
	switch inst.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		return f.collect(prog, inst.Out, seen) && f.collect(prog, inst.Arg, seen)
	case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
		return f.collect(prog, inst.Out, seen)
	case syntax.InstRune1:
		return f.addRange(inst.Rune[0], inst.Rune[0], inst)
	case syntax.InstRune:
		if len(inst.Rune) == 1 { // one rune, case-folded
			return f.addRange(inst.Rune[0], inst.Rune[0], inst)
		}
		for i := 0; i+1 < len(inst.Rune); i += 2 {
			if !f.addRange(inst.Rune[i], inst.Rune[i+1], inst) {
				return false
			}
		}
		return len(inst.Rune) > 0
	}
	return false // InstMatch, InstFail, InstRuneAny, InstRuneAnyNotNL
}

func (f *firstBytes) addRange(lo, hi rune, inst *syntax.Inst) bool {
	if hi >= utf8.RuneSelf || syntax.Flags(inst.Arg)&syntax.FoldCase != 0 && hasLetter(lo, hi) {
		return false
	}
	for r := lo; r <= hi; r++ {
		f.add(byte(r))
	}
	return true
}

func hasLetter(lo, hi rune) bool {
	return lo <= 'z' && hi >= 'A'
}
