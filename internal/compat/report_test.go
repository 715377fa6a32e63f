package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden")

// TestReport prints a report as the suite does, and holds it to
// testdata/report.golden: one line a project (outcomes, same or not, the
// ratios, what explains a difference), wisp's notes and the failures
// beneath, and the summary.
func TestReport(t *testing.T) {
	sec := func(n float64) time.Duration { return time.Duration(n * float64(time.Second)) }
	socketLog := "listen unixgram /tmp/x: socket: operation not permitted\n· the sandbox refused a socket\n"
	verdicts := []verdict{
		judge(res("go-uuid", passed(sec(10)), passed(sec(10.3)), run{Ran: true, Passed: true, Tries: 2, Wall: sec(12)}), warm, nil, nil),
		judge(res("go-systemd", passed(sec(10)), failedRun(socketLog), failedRun(socketLog)), warm,
			[]knownEntry{{Project: "go-systemd", Item: 4, Signature: regexp.MustCompile(`socket: operation not permitted`)}}, nil),
		judge(res("npm-thing", passed(sec(4)), failedRun("EROFS"), run{}), warm, nil,
			[]trustEntry{{Project: "npm-thing", Anchor: "a-passage", Sentence: "npm's cache is not writable.", Signature: regexp.MustCompile(`EROFS`)}}),
		judge(res("deb-zlib", passed(sec(20)), failedRun("make: *** [check] Error 1"), passed(sec(21))), warm, nil, nil),
	}
	var out bytes.Buffer
	printHeader(&out)
	for _, v := range verdicts {
		printLine(&out, v)
	}
	printSummary(&out, warm, summarize(verdicts), 1234*time.Microsecond, "3.05")
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if out.String() != string(want) {
		t.Errorf("report:\n%s\nwant (%s):\n%s", out.String(), golden, want)
	}
}

// TestSummaryIsNoTestTotal: CI reads a line "N passed, N failed" as a test
// runner's total; the summary must never read as one.
func TestSummaryIsNoTestTotal(t *testing.T) {
	total := regexp.MustCompile(`(?m)^(\w+: )?\d+ passed, \d+ failed`)
	var out bytes.Buffer
	printSummary(&out, fresh, summary{Projects: 8, AsBare: 3, Problems: 5}, time.Millisecond, "1.00")
	if total.Match(out.Bytes()) {
		t.Errorf("the summary reads as a test total:\n%s", out.String())
	}
}
