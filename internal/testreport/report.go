package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// event is one line of `go test -json` (cmd/test2json), with the fields
// this report reads.
type event struct {
	Action     string
	Package    string
	ImportPath string // build-output and build-fail
	Test       string
	Output     string
	Elapsed    float64 // seconds
}

// report turns the events into go test's usual lines as they come.
type report struct {
	w        io.Writer
	verbose  bool          // go test -v: every line as it comes
	limit    time.Duration // go test's -timeout
	limits   limitRules    // the packages' own limits, from -limit
	running  map[string]*pkgState
	finished []finished
	failed   bool
	// overLimit: a package passed, but took longer than its own limit.
	overLimit bool
}

// pkgState holds what a running package has printed that a failure would
// show: its own lines, and each test's until it passes or is skipped. A
// test that failed, or was still running when the package ended (a
// time-out, a panic), keeps its lines.
type pkgState struct {
	own   strings.Builder
	tests map[string]*strings.Builder
	order []string // tests in the order they first printed
}

type finished struct {
	pkg     string
	elapsed time.Duration
	outcome string // ok, FAIL, or skip (no tests ran)
}

func newReport(w io.Writer, command []string) *report {
	return &report{w: w, limit: limitOf(command), verbose: slices.Contains(command, "-v"), running: map[string]*pkgState{}}
}

// read takes events until r ends. A line that is not an event (go test
// prints some before the stream starts) is passed through.
func (r *report) read(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if len(line) == 0 || line[0] != '{' || json.Unmarshal(line, &e) != nil {
			fmt.Fprintf(r.w, "%s\n", line)
			continue
		}
		r.take(e)
	}
	return sc.Err()
}

func (r *report) take(e event) {
	switch e.Action {
	case "build-output":
		fmt.Fprint(r.w, e.Output)
		return
	case "build-fail":
		r.failed = true
		return
	}
	if r.verbose && e.Action == "output" {
		fmt.Fprint(r.w, e.Output)
		if e.Test == "" {
			return
		}
	}
	p := r.state(e.Package)
	switch {
	case e.Action == "output" && e.Test == "":
		p.own.WriteString(e.Output)
	case e.Action == "output":
		p.test(e.Test).WriteString(e.Output)
	case e.Test != "" && (e.Action == "pass" || e.Action == "skip"):
		delete(p.tests, e.Test)
	case e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		r.end(e, p)
	}
}

func (r *report) state(pkg string) *pkgState {
	p := r.running[pkg]
	if p == nil {
		p = &pkgState{tests: map[string]*strings.Builder{}}
		r.running[pkg] = p
	}
	return p
}

func (p *pkgState) test(name string) *strings.Builder {
	b := p.tests[name]
	if b == nil {
		b = &strings.Builder{}
		p.tests[name] = b
		p.order = append(p.order, name)
	}
	return b
}

// end prints the package's line, and on failure what its failed tests and
// the package itself printed (a panic, a time-out, a build error).
func (r *report) end(e event, p *pkgState) {
	delete(r.running, e.Package)
	elapsed := time.Duration(e.Elapsed * float64(time.Second))
	if r.verbose { // go test's own lines went by already
		r.failed = r.failed || e.Action == "fail"
		if e.Action != "skip" {
			r.finished = append(r.finished, finished{e.Package, elapsed, map[string]string{"pass": "ok", "fail": "FAIL"}[e.Action]})
		}
		return
	}
	switch {
	case e.Action == "fail":
		r.failed = true
		r.finished = append(r.finished, finished{e.Package, elapsed, "FAIL"})
		for _, name := range p.order {
			if out := p.tests[name]; out != nil {
				fmt.Fprint(r.w, out.String())
			}
		}
		own := withoutResultLine(p.own.String(), e.Package)
		fmt.Fprint(r.w, own)
		if !strings.Contains(own, "FAIL\t"+e.Package+" [build failed]") {
			fmt.Fprintf(r.w, "FAIL\t%s\t%.3fs\n", e.Package, e.Elapsed)
		}
	case e.Action == "skip" || strings.Contains(p.own.String(), "[no test files]"):
		fmt.Fprintf(r.w, "?   \t%s\t[no test files]\n", e.Package)
	case elapsed > r.limitOf(e.Package):
		r.overLimit = true
		r.finished = append(r.finished, finished{e.Package, elapsed, "FAIL"})
		fmt.Fprintf(r.w, "FAIL\t%s\t%.3fs\tits tests passed, but took longer than its own %s limit (testreport -limit)\n",
			e.Package, e.Elapsed, r.limitOf(e.Package))
	default:
		r.finished = append(r.finished, finished{e.Package, elapsed, "ok"})
		fmt.Fprintf(r.w, "ok  \t%s\t%.3fs\t%s\n", e.Package, e.Elapsed, r.share(e.Package, elapsed))
	}
}

// limitOf is pkg's time limit: its own (-limit), or go test's -timeout.
func (r *report) limitOf(pkg string) time.Duration { return r.limits.of(pkg, r.limit) }

// withoutResultLine drops go test's own result line for pkg, which end
// prints in its own form.
func withoutResultLine(out, pkg string) string {
	var kept []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if strings.HasPrefix(l, "FAIL\t"+pkg+"\t") || strings.HasPrefix(l, "ok  \t"+pkg+"\t") {
			continue
		}
		kept = append(kept, l)
	}
	return strings.Join(kept, "")
}

// share says what part of pkg's time limit d took.
func (r *report) share(pkg string, d time.Duration) string {
	limit := r.limitOf(pkg)
	if limit <= 0 {
		return ""
	}
	return fmt.Sprintf("(%d%% of its %s limit)", int(100*d/limit), limit)
}

// summary lists the slowest packages, and says which took more than half
// their limit: such a package fails on a machine twice as slow.
func (r *report) summary(most int) {
	if len(r.finished) == 0 || most == 0 {
		return
	}
	byTime := slices.Clone(r.finished)
	slices.SortStableFunc(byTime, func(a, b finished) int { return int(b.elapsed - a.elapsed) })
	fmt.Fprintf(r.w, "== the %d slowest packages of %d\n", min(most, len(byTime)), len(byTime))
	for _, f := range byTime[:min(most, len(byTime))] {
		fmt.Fprintf(r.w, "%7.1f s  %-4s %s %s\n", f.elapsed.Seconds(), f.outcome, f.pkg, r.share(f.pkg, f.elapsed))
	}
	for _, f := range byTime {
		if limit := r.limitOf(f.pkg); limit > 0 && f.elapsed > limit/2 {
			fmt.Fprintf(r.w, "== warning: %s took %.0f s, over half its %s limit: on a machine twice as slow it fails\n",
				f.pkg, f.elapsed.Seconds(), limit)
		}
	}
}

// limitOf is the -timeout the go test command gives (go test's default, 10
// minutes, when it gives none).
func limitOf(command []string) time.Duration {
	for i, a := range command {
		value, ok := strings.CutPrefix(a, "-timeout=")
		if !ok && (a == "-timeout" || a == "--timeout") && i+1 < len(command) {
			value, ok = command[i+1], true
		}
		if ok {
			if d, err := time.ParseDuration(value); err == nil {
				return d
			}
		}
	}
	return 10 * time.Minute
}
