package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// The report's columns: project, the three outcomes, same or not, the wall
// ratios, and what explains a difference.
const lineFormat = "%-20s %-5s %-5s %-5s %-7s %9s %10s  %s\n"

func printHeader(w io.Writer) {
	fmt.Fprintln(w, row("project", "bare", "wisp", "bwrap", "same", "wisp/bare", "bwrap/bare", "why"))
}

func row(cells ...any) string {
	return strings.TrimRight(fmt.Sprintf(lineFormat, cells...), " \n")
}

// printLine prints one project's line, then wisp's notes and the problems
// indented beneath it.
func printLine(w io.Writer, v verdict) {
	r := v.Result
	same := "same"
	if !v.Same {
		same = "differs"
	}
	fmt.Fprintln(w, row(v.Project, outcome(r.Runs[bare]), outcome(r.Runs[wisp]), outcome(r.Runs[bwrap]),
		same, ratioText(r, wisp), ratioText(r, bwrap), why(v)))
	for _, n := range v.Notes {
		fmt.Fprintf(w, "    wisp: · %s\n", clip(n, 160))
	}
	for _, p := range v.Problems {
		fmt.Fprintf(w, "    FAIL: %s\n", p)
	}
}

func outcome(r run) string {
	switch {
	case !r.Ran:
		return "-"
	case r.Passed && r.Tries > 1:
		return "pass*" // on the second try
	case r.Passed:
		return "pass"
	}
	return "fail"
}

func ratioText(r result, m mode) string {
	x, ok := ratio(r, m)
	if !ok {
		return "-"
	}
	return fmt.Sprintf("%.2fx", x)
}

// why names what explains a difference: the trust.md passage or the known
// items of issue 32.
func why(v verdict) string {
	switch {
	case v.Trust != nil:
		return "trust.md#" + v.Trust.Anchor + ": " + v.Trust.Sentence
	case len(v.Known) > 0:
		var parts []string
		for _, k := range v.Known {
			parts = append(parts, fmt.Sprintf("known, issue 32 item %d (%s)", k.Item, itemTitles[k.Item]))
		}
		return strings.Join(parts, "; ")
	}
	return ""
}

// printSummary prints the closing line. Its wording keeps clear of the
// "N passed, N failed" form that CI reads as a test runner's total.
func printSummary(w io.Writer, a account, s summary, shTrue time.Duration, load string) {
	median := "none passed both"
	if s.Ratios > 0 {
		median = fmt.Sprintf("%.2fx over %d", s.Median, s.Ratios)
	}
	fmt.Fprintf(w, "compat (%s account): %d of %d as bare under wisp; median wall ratio wisp/bare %s", a, s.AsBare, s.Projects, median)
	if s.BwrapRatio > 0 {
		fmt.Fprintf(w, " (bwrap/bare %.2fx over %d)", s.BwrapMed, s.BwrapRatio)
	}
	if len(s.Known) > 0 {
		fmt.Fprintf(w, "; known issue 32 items: %s", joinInts(s.Known))
	}
	if s.Trusted > 0 {
		fmt.Fprintf(w, "; %d named by trust.md", s.Trusted)
	}
	if s.Retried > 0 {
		fmt.Fprintf(w, "; pass* is a pass on the second try (%d)", s.Retried)
	}
	fmt.Fprintf(w, "; bare sh -c true %s, load %s\n", shTrue.Round(10*time.Microsecond), load)
	if s.Problems > 0 {
		fmt.Fprintf(w, "compat: FAILED: %d of %d projects (the FAIL lines above)\n", s.Problems, s.Projects)
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, ", ")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
