package policy

import (
	"regexp"
	"strings"
	"sync"
)

// Scope says what a rule's pattern is matched against.
type Scope int

const (
	// EachCommand: each simple command, normalised, and the command after
	// its wrappers (env, nohup, exec, …) with the program's base name.
	EachCommand Scope = iota + 1
	// WholeLine: the whole line, normalised onto one line, as written and
	// with wrappers and program paths dropped.
	WholeLine
	// Both: every simple command and the whole line; configured patterns.
	Both
)

// Rule is one deny pattern, with what a person and the model are told.
type Rule struct {
	Name    string // short, for messages and the audit log: "sudo"
	Pattern string // a Go regular expression
	Reason  string // what the command would do, for a person: "runs a command as root"
	Hint    string // what the model may do instead
	Scope   Scope
	re      func() *regexp.Regexp // compiled on first use: see compileLater
	first   firstBytes
	// needs, when set, are strings one of which every match contains: a
	// cheap test before a pattern with no literal start (tests check it).
	needs []string
}

// mayMatch runs the cheap tests that can rule s out before the regexp.
func (r *Rule) mayMatch(s string) bool {
	if !r.first.mayMatch(s) {
		return false
	}
	if r.needs == nil {
		return true
	}
	for _, n := range r.needs {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}

func (r *Rule) matches(s string) bool { return r.mayMatch(s) && r.re().MatchString(s) }

// compileLater returns pattern's regexp, compiled the first time it is
// asked for. Most lines are ruled out by a rule's cheap tests first, and a
// wisp that checks one line (wisp run) would otherwise compile every
// default pattern for nothing. The default patterns are compiled by the
// tests, so MustCompile cannot fail at run time.
func compileLater(pattern string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(pattern) })
}

// compiled is a regexp already compiled, as the rules' re field holds it.
func compiled(re *regexp.Regexp) func() *regexp.Regexp { return func() *regexp.Regexp { return re } }

// Pieces of the default patterns.
const (
	// wispProgram is wisp, or wisp-agent, which make installs beside it and
	// which runs the same commands (the lean wisp hands its faces to it).
	wispProgram = `wisp(?:-agent)?`
	// wispOptions is wisp's options before a subcommand, with or without a value.
	wispOptions = `(?:\s+-\S+(?:\s+[^-\s]\S*)?)*`
	// recursive is a recursive option of rm: -r, -R, -rf, -fr, --recursive.
	recursive = `(?:-[^-\s]*[rR]\S*|--recursive)`
	// root is / in its spellings: /, //, /., /*, /./, /..
	root = `/[/.*]*`
	// anyArgs is any run of arguments.
	anyArgs = `(?:\S+\s+)*?`
	// ends closes a word.
	ends = `(?:\s|$)`
	// disks are the device names of disks and partitions (Linux, macOS).
	disks = `/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|loop|md|dm-|mapper/|sr|nbd|block/|root|mem|kmem|port)`
	// shellProgram is a shell's name.
	shellProgram = `(?:\S*/)?(?:sh|bash|dash|zsh|ksh|mksh|ash|fish|csh|tcsh)`
)

// defaultRuleText always applies, before the configured ones. They follow docs/decisions.md: D4
// (sudo, rm -rf /, piping into a shell, filesystem creation, dd to a
// device), D5 (wisp approvals and facts), and D6 (a nested
// wisp agent).
var defaultRuleText = []Rule{
	{
		Name:    "sudo",
		Pattern: `^(?:sudo|sudoedit|doas|pkexec|run0|su)` + ends,
		Reason:  "runs a command as root",
		Hint:    "do it without root privileges, or ask the person to run it themselves",
		Scope:   EachCommand,
	},
	{
		Name:    "rm-root",
		Pattern: `^rm\s+` + anyArgs + `(?:` + recursive + `\s+` + anyArgs + root + `|` + root + `\s+` + anyArgs + recursive + `)` + ends,
		Reason:  "deletes the whole filesystem",
		Hint:    "delete only the paths you mean, by name",
		Scope:   EachCommand,
	},
	{
		Name:    "pipe-to-shell",
		Pattern: `\|&?\s*(?:(?:sudo|doas)\s+(?:-\S+\s+)*)?` + shellProgram + `(?:[\s;&|)]|$)`,
		Reason:  "pipes text into a shell, which runs it unread",
		Hint:    "save the script to a file, read it, and run that file if it is safe",
		Scope:   WholeLine,
	},
	{
		Name:    "shell-from-download",
		Pattern: `(?:^|[\s;&|(])(?:` + shellProgram + `|source|\.)\s+(?:-\S+\s+)*(?:<\(\s*|"?\$\(\s*)(?:curl|wget|fetch)` + ends,
		Reason:  "runs a downloaded script in a shell, unread",
		Hint:    "save the script to a file, read it, and run that file if it is safe",
		Scope:   WholeLine,
		needs:   []string{"<(", "$("},
	},
	{
		Name: "mkfs",
		Pattern: `^(?:mkfs(?:\.\S+)?|mke2fs|mkdosfs|mkntfs|mkswap|wipefs|newfs(?:_\S+)?|` +
			`diskutil\s+` + anyArgs + `(?:erase\S*|partitionDisk|reformat|zeroDisk|randomDisk|secureErase|deleteContainer|deleteVolume))` + ends,
		Reason: "creates a filesystem, erasing what the disk held",
		Hint:   "this is for the person to do themselves, if at all",
		Scope:  EachCommand,
	},
	{
		Name:    "dd-device",
		Pattern: `^dd\s+` + anyArgs + `of=` + disks,
		Reason:  "writes straight onto a disk device",
		Hint:    "write to a regular file instead",
		Scope:   EachCommand,
	},
	{
		Name:    "device-redirect",
		Pattern: `>\|?\s*` + disks,
		Reason:  "redirects output straight onto a disk device",
		Hint:    "write to a regular file instead",
		Scope:   WholeLine,
	},
	{
		Name:    "wisp-approvals",
		Pattern: `^` + wispProgram + wispOptions + `\s+approvals` + wispOptions + `\s+(?:approve|deny)` + ends,
		Reason:  "answers an approval request, which only a person may do",
		Hint:    "ask the person to answer it; you may list requests with wisp approvals pending",
		Scope:   EachCommand,
	},
	{
		Name:    "wisp-facts",
		Pattern: `^` + wispProgram + wispOptions + `\s+facts` + wispOptions + `\s+(?:keep|drop)` + ends,
		Reason:  "keeps or drops one of wisp's facts, which only a person may do",
		Hint:    "tell the person which fact to keep or drop, and why",
		Scope:   EachCommand,
	},
	{
		Name:    "nested-wisp",
		Pattern: `^` + wispProgram + wispOptions + `\s+(?:(?:respond|chat|mcp|tui)` + ends + `|['"$])`,
		Reason:  "starts another wisp agent inside this one",
		Hint:    "you are already the agent: do the work with your own tools; the person can start another wisp from their own terminal",
		Scope:   EachCommand,
	},
}

// defaultRules are defaultRuleText compiled, on first use rather than in an
// init: the sandbox helper is wisp's own executable and never checks a line,
// and every start would pay for the compiling.
var defaultRules = sync.OnceValue(func() []Rule {
	rules := make([]Rule, len(defaultRuleText))
	copy(rules, defaultRuleText)
	for i := range rules {
		rules[i].re = compileLater(rules[i].Pattern)
		rules[i].first = defaultFirstBytes(i)
	}
	return rules
})

// defaultFirstBytes is the prefilter of default rule i, from the table
// rules_first.go holds: deriving the ten of them parses and compiles every
// pattern, a quarter of a millisecond at every start of wisp. A test keeps
// the table equal to what prefilterFor derives.
func defaultFirstBytes(i int) firstBytes {
	if i < len(defaultFirstBytesTable) {
		return defaultFirstBytesTable[i]
	}
	return prefilterFor(defaultRuleText[i].Pattern)
}

// DefaultRules returns the default deny list, which always applies.
func DefaultRules() []Rule {
	return append([]Rule(nil), defaultRules()...)
}
