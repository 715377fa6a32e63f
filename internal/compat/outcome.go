package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// A mode is one way of running a project's command.
type mode string

const (
	bare  mode = "bare"  // sh -c LINE
	wisp  mode = "wisp"  // bin/wisp run -- LINE, wisp's default config
	bwrap mode = "bwrap" // bubblewrap with wisp's default confinement
)

var modes = []mode{bare, wisp, bwrap}

// An account is the state of the home a project runs in.
type account string

const (
	// warm is a person's account that has built these projects before:
	// Go's module and build caches, npm's cache and git's identity are there.
	warm account = "warm"
	// fresh is an account that never ran go or npm: no ~/.cache, ~/go, ~/.npm.
	fresh account = "fresh"
)

// A run is what one mode of one project did.
type run struct {
	Ran    bool // false: not run (bwrap not installed)
	Passed bool
	Tries  int // 1, or 2 for a failure run again
	Wall   time.Duration
	Log    string // the run's output, as written to its log file
	Path   string // the log file
}

// A result is one project's three runs.
type result struct {
	Project string
	Runs    map[mode]run
}

// A verdict is what a result says about wisp, from the tables.
type verdict struct {
	Project string
	Result  result
	// Same: bare and wisp had the same outcome.
	Same bool
	// Known are the known items of issue 32 whose failure this is.
	Known []knownEntry
	// Trust is the trust.md passage that names this difference, if one does.
	Trust *trustEntry
	// Problems make the suite fail: a project that passes bare and fails
	// under wisp with nothing to explain it, a project that fails bare, a
	// known entry that no longer matches. Each reads as a sentence.
	Problems []string
	// Notes are wisp's own notes after the command (the `·` lines).
	Notes []string
}

// A knownEntry is one of issue 32's items, seen in one project: until it is
// fixed, its failure under wisp is printed rather than failing the suite.
// An entry applies only where its signature is in wisp's output, so a new
// failure of the same project is still a failure. Remove the entry with the
// fix: an entry whose signature is no longer seen fails the suite.
type knownEntry struct {
	Project   string
	Accounts  []account // where it shows; empty: every account
	Item      int       // issue 32's numbered item
	Signature *regexp.Regexp
}

// A trustEntry is a difference docs/trust.md names, which the suite
// accepts for good: the line says which passage. Sentence must appear in
// trust.md word for word (a test holds them together).
type trustEntry struct {
	Project   string
	Accounts  []account
	Anchor    string // trust.md's heading anchor, e.g. "what-the-sandbox-does-not-protect"
	Sentence  string
	Signature *regexp.Regexp
}

func (k knownEntry) appliesTo(project string, a account) bool {
	return k.Project == project && (len(k.Accounts) == 0 || slices.Contains(k.Accounts, a))
}

func (t trustEntry) appliesTo(project string, a account) bool {
	return t.Project == project && (len(t.Accounts) == 0 || slices.Contains(t.Accounts, a))
}

// judge gives a result its verdict under the tables.
func judge(r result, a account, known []knownEntry, trusted []trustEntry) verdict {
	b, w := r.Runs[bare], r.Runs[wisp]
	v := verdict{Project: r.Project, Result: r, Same: b.Passed == w.Passed, Notes: wispNotes(w.Log)}
	var entries []knownEntry
	for _, k := range known {
		if k.appliesTo(r.Project, a) {
			entries = append(entries, k)
		}
	}
	switch {
	case !b.Passed:
		v.Problems = append(v.Problems, fmt.Sprintf("%s fails bare, so the suite measures nothing for it: see %s", r.Project, b.Path))
		return v
	case w.Passed:
		for _, k := range entries {
			v.Problems = append(v.Problems, fmt.Sprintf("%s passes under wisp now: remove its entry for issue 32 item %d from the known table (internal/compat/tables.go)", r.Project, k.Item))
		}
		return v
	}
	for _, t := range trusted {
		if t.appliesTo(r.Project, a) && t.Signature.MatchString(w.Log) {
			v.Trust = &t
			return v
		}
	}
	for _, k := range entries {
		if k.Signature.MatchString(w.Log) {
			v.Known = append(v.Known, k)
		} else {
			v.Problems = append(v.Problems, fmt.Sprintf("%s: issue 32 item %d's failure (%s) is no longer in wisp's output: if it is fixed, remove its entry from the known table (internal/compat/tables.go)", r.Project, k.Item, k.Signature))
		}
	}
	if len(v.Known) == 0 {
		v.Problems = append(v.Problems, fmt.Sprintf("%s passes bare and fails under wisp, and neither trust.md nor a known item explains it: see %s", r.Project, w.Path))
	}
	return v
}

// retries are the modes to run once more: bare when it failed (the suite
// would measure nothing), wisp when its failure is explained by nothing
// (the suite would fail), bwrap when it failed where bare passed (the
// comparison would mislead). A known item's failure is not run again: its
// signature shows it is no accident.
func retries(v verdict) []mode {
	r := v.Result.Runs
	again := func(m mode) bool { return r[m].Ran && !r[m].Passed && r[m].Tries < 2 }
	var modes []mode
	if again(bare) {
		return append(modes, bare) // then the others, judged against it
	}
	if again(wisp) && len(v.Known) == 0 && v.Trust == nil {
		modes = append(modes, wisp)
	}
	if again(bwrap) {
		modes = append(modes, bwrap)
	}
	return modes
}

// wispNotes are the lines wisp printed after the command for the person
// (`· the sandbox refused …`, `· the sandbox put back …`).
func wispNotes(log string) []string {
	var notes []string
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "· ") {
			notes = append(notes, strings.TrimPrefix(line, "· "))
		}
	}
	return notes
}

// failed says whether the suite fails: any verdict with a problem.
func failed(verdicts []verdict) bool {
	return slices.ContainsFunc(verdicts, func(v verdict) bool { return len(v.Problems) > 0 })
}

// A summary is the suite's closing figures.
type summary struct {
	Projects   int
	AsBare     int     // wisp's outcome is bare's
	Known      []int   // issue 32 items that explain a difference, sorted
	Trusted    int     // differences trust.md names
	Problems   int     // verdicts with a problem
	Ratios     int     // projects that passed bare and under wisp
	Median     float64 // their median wall ratio wisp/bare; 0 with none
	BwrapMed   float64 // bwrap/bare over the projects that passed bare and under bwrap
	BwrapRatio int
	Retried    int // runs that passed on their second try
}

func summarize(verdicts []verdict) summary {
	s := summary{Projects: len(verdicts)}
	var ratios, bwrapRatios []float64
	for _, v := range verdicts {
		if v.Same {
			s.AsBare++
		}
		for _, k := range v.Known {
			if !slices.Contains(s.Known, k.Item) {
				s.Known = append(s.Known, k.Item)
			}
		}
		if v.Trust != nil {
			s.Trusted++
		}
		if len(v.Problems) > 0 {
			s.Problems++
		}
		for _, r := range v.Result.Runs {
			if r.Passed && r.Tries > 1 {
				s.Retried++
			}
		}
		if r, ok := ratio(v.Result, wisp); ok {
			ratios = append(ratios, r)
		}
		if r, ok := ratio(v.Result, bwrap); ok {
			bwrapRatios = append(bwrapRatios, r)
		}
	}
	slices.Sort(s.Known)
	s.Ratios, s.Median = len(ratios), median(ratios)
	s.BwrapRatio, s.BwrapMed = len(bwrapRatios), median(bwrapRatios)
	return s
}

// ratio is m's wall time over bare's, where both passed: a run that
// failed may have stopped early, and its time says nothing.
func ratio(r result, m mode) (float64, bool) {
	b, o := r.Runs[bare], r.Runs[m]
	if !b.Passed || !o.Ran || !o.Passed || b.Wall <= 0 {
		return 0, false
	}
	return float64(o.Wall) / float64(b.Wall), true
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
