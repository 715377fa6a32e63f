package policy

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DeniedPrefix starts every message the model gets for a command the policy
// refuses.
const DeniedPrefix = "error: command denied by policy: "

// Rule names that are not patterns.
const (
	RuleSyntax    = "syntax"     // the line does not parse
	RuleNesting   = "nesting"    // command strings nested too deeply to check
	RuleAllowList = "allow-list" // a simple command matched no allow pattern
	RuleTooLong   = "too-long"   // the line is longer than MaxLineBytes
)

// MaxLineBytes is the longest line the lists check; a longer one is refused.
const MaxLineBytes = 1 << 20

// Policy is the operator's lists: the default deny rules, the configured
// deny patterns, and the configured allow patterns. It is safe for
// concurrent use.
type Policy struct {
	deny  []Rule
	allow []allowPattern
}

type allowPattern struct {
	re    *regexp.Regexp
	first firstBytes
}

// PatternError says which configured pattern does not compile.
type PatternError struct {
	List    string // "commandPolicy.deny" or "commandPolicy.allow"
	Index   int
	Pattern string
	Err     error
}

func (e *PatternError) Error() string {
	return fmt.Sprintf("%s[%d] is not a valid regular expression: %v", e.List, e.Index, e.Err)
}

func (e *PatternError) Unwrap() error { return e.Err }

// errEmptyPattern is why an empty pattern is refused: it matches every line.
var errEmptyPattern = errors.New("it is empty, which would match every command; remove it")

// New returns the policy of the default deny rules plus the configured deny
// patterns, and the configured allow patterns (none: every command that is
// not denied is allowed).
func New(deny, allow []string) (*Policy, error) {
	defaults := defaultRules()
	p := &Policy{deny: append(make([]Rule, 0, len(defaults)+len(deny)), defaults...)}
	for i, pattern := range deny {
		re, err := compile("commandPolicy.deny", i, pattern)
		if err != nil {
			return nil, err
		}
		name := "commandPolicy.deny[" + strconv.Itoa(i) + "]"
		p.deny = append(p.deny, Rule{Name: name, Pattern: pattern, re: compiled(re), first: prefilterFor(pattern), Scope: Both,
			Reason: "the operator's pattern " + pattern,
			Hint:   "the operator does not allow this here; find another way, or ask the person"})
	}
	for i, pattern := range allow {
		re, err := compile("commandPolicy.allow", i, pattern)
		if err != nil {
			return nil, err
		}
		p.allow = append(p.allow, allowPattern{re, prefilterFor(pattern)})
	}
	return p, nil
}

func compile(list string, i int, pattern string) (*regexp.Regexp, error) {
	if strings.TrimSpace(pattern) == "" {
		return nil, &PatternError{List: list, Index: i, Pattern: pattern, Err: errEmptyPattern}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, &PatternError{List: list, Index: i, Pattern: pattern, Err: err}
	}
	return re, nil
}

// Decision is the policy's answer for one line.
type Decision struct {
	Allowed bool
	// Segment is the simple command that was refused, normalised (for a
	// whole-line rule, the line).
	Segment string
	// Rule is the name of the rule that refused it: a default rule's name,
	// commandPolicy.deny[i], allow-list, syntax or nesting.
	Rule    string
	Pattern string // the rule's pattern, "" for allow-list, syntax and nesting
	Reason  string // what the rule says the command would do, for a person
	Hint    string // what the model may do instead
	// Segments are every simple command of the line, normalised.
	Segments []string
	// Risk is the line's risk level and its reasons, refused or not.
	Risk Assessment
}

// ModelMessage is what the model is told when the line is refused; empty
// when it is allowed.
func (d Decision) ModelMessage() string {
	if d.Allowed {
		return ""
	}
	var b strings.Builder
	b.WriteString(DeniedPrefix)
	switch d.Rule {
	case RuleSyntax, RuleNesting, RuleTooLong:
		b.WriteString(d.Reason)
	case RuleAllowList:
		b.WriteString(strconv.Quote(d.Segment))
		b.WriteString(" matches none of the operator's allow patterns (commandPolicy.allow), so it may not run here")
	default:
		b.WriteString(strconv.Quote(d.Segment))
		b.WriteString(" matches the rule ")
		b.WriteString(d.Rule)
		b.WriteString(" (")
		b.WriteString(d.Reason)
		b.WriteString(")")
	}
	if d.Hint != "" {
		b.WriteString("; ")
		b.WriteString(d.Hint)
	}
	return b.String()
}

// Check says whether the lists allow line, and its risk.
func (p *Policy) Check(line string) Decision {
	c := getChecker()
	defer c.release()
	c.analyze(line)
	d := Decision{Allowed: true, Segments: c.segmentTexts()}
	if f := c.failure; f != nil {
		d.Allowed, d.Segment, d.Rule, d.Reason, d.Hint = false, line, f.rule, f.reason, f.hint
		d.Risk = Assessment{Level: High, Reasons: []string{"it cannot be checked: " + f.reason}}
		return d
	}
	d.Risk = c.assess()
	if rule, segment, ok := p.firstDeny(c); ok {
		d.Allowed, d.Segment, d.Rule, d.Pattern, d.Reason, d.Hint = false, segment, rule.Name, rule.Pattern, rule.Reason, rule.Hint
		return d
	}
	if segment, ok := p.allowMiss(c); ok {
		d.Allowed, d.Segment, d.Rule, d.Reason = false, segment, RuleAllowList, "matches none of the operator's allow patterns"
		d.Hint = "use a command those patterns allow, or ask the person to run it themselves"
	}
	return d
}

// firstDeny returns the first rule, in list order, that matches the line or
// one of its simple commands, and what it matched.
func (p *Policy) firstDeny(c *checker) (*Rule, string, bool) {
	for i := range p.deny {
		r := &p.deny[i]
		if r.Scope != EachCommand {
			if line, ok := r.matchLines(c.lines); ok {
				return r, line, true
			}
		}
		if r.Scope != WholeLine {
			if seg, ok := r.matchSegments(c.segments); ok {
				return r, seg, true
			}
		}
	}
	return nil, "", false
}

func (r *Rule) matchLines(lines []parsedLine) (string, bool) {
	for _, l := range lines {
		if r.matches(l.unwrapped) || (r.Scope == Both && r.matches(l.written)) {
			return l.written, true
		}
	}
	return "", false
}

func (r *Rule) matchSegments(segments []segment) (string, bool) {
	for i := range segments {
		s := &segments[i]
		for _, v := range s.views[:s.nviews] {
			if r.matches(v) {
				return s.text, true
			}
		}
	}
	return "", false
}

// allowMiss returns the first simple command that no allow pattern matches,
// when there are allow patterns.
func (p *Policy) allowMiss(c *checker) (string, bool) {
	if len(p.allow) == 0 {
		return "", false
	}
	for i := range c.segments {
		if !p.allows(&c.segments[i]) {
			return c.segments[i].text, true
		}
	}
	return "", false
}

// allows: an allow pattern matches the command after its wrappers, as
// written or with the program's base name.
func (p *Policy) allows(s *segment) bool {
	for i := range p.allow {
		a := &p.allow[i]
		if matches(a.re, &a.first, s.allow[0]) || (s.allow[1] != s.allow[0] && matches(a.re, &a.first, s.allow[1])) {
			return true
		}
	}
	return false
}

func (c *checker) segmentTexts() []string {
	out := make([]string, len(c.segments))
	for i := range c.segments {
		out[i] = c.segments[i].text
	}
	return out
}

// Segments splits line into its simple commands, normalised, wherever they
// sit in it (pipelines, lists, $( ), subshells, bodies, sh -c strings).
func Segments(line string) ([]string, error) {
	c := getChecker()
	defer c.release()
	c.analyze(line)
	if c.failure != nil {
		return nil, errors.New(c.failure.reason)
	}
	return c.segmentTexts(), nil
}
