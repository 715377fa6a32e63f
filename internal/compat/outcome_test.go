package main

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

func passed(wall time.Duration) run {
	return run{Ran: true, Passed: true, Wall: wall, Path: "pass.log"}
}

func failedRun(log string) run {
	return run{Ran: true, Wall: time.Second, Log: log, Path: "fail.log"}
}

func res(project string, b, w, bw run) result {
	return result{Project: project, Runs: map[mode]run{bare: b, wisp: w, bwrap: bw}}
}

var (
	sockets        = knownEntry{Project: "p", Item: 4, Signature: regexp.MustCompile(`socket: operation not permitted`)}
	freshGo        = knownEntry{Project: "p", Accounts: []account{fresh}, Item: 3, Signature: regexp.MustCompile(`mkdir \S+: read-only file system`)}
	socketsTrusted = trustEntry{Project: "p", Anchor: "what-the-sandbox-does-not-protect",
		Sentence: "Unix sockets are refused.", Signature: regexp.MustCompile(`socket: operation not permitted`)}
)

func TestJudge(t *testing.T) {
	const sockLog = "listen unixgram /tmp/x: socket: operation not permitted\nFAIL"
	tests := []struct {
		name     string
		r        result
		account  account
		known    []knownEntry
		trusted  []trustEntry
		same     bool
		items    []int
		trust    bool
		problems []string // a piece of each problem, in order
	}{
		{name: "both pass", r: res("p", passed(time.Second), passed(time.Second), passed(time.Second)), same: true},
		{name: "a regression fails the suite", r: res("p", passed(time.Second), failedRun("boom"), passed(time.Second)),
			problems: []string{"p passes bare and fails under wisp, and neither trust.md nor a known item explains it: see fail.log"}},
		{name: "a known item is printed, not failed", r: res("p", passed(time.Second), failedRun(sockLog), failedRun(sockLog)),
			known: []knownEntry{sockets}, items: []int{4}},
		{name: "a known project failing otherwise fails the suite", r: res("p", passed(time.Second), failedRun("panic: nil map"), passed(time.Second)),
			known:    []knownEntry{sockets},
			problems: []string{"issue 32 item 4's failure", "p passes bare and fails under wisp"}},
		{name: "a fixed item's entry must go", r: res("p", passed(time.Second), passed(time.Second), passed(time.Second)),
			known: []knownEntry{sockets}, same: true,
			problems: []string{"p passes under wisp now: remove its entry for issue 32 item 4"}},
		{name: "an entry of another account does not apply", r: res("p", passed(time.Second), failedRun("mkdir /h/.cache: read-only file system"), passed(time.Second)),
			account: warm, known: []knownEntry{freshGo},
			problems: []string{"p passes bare and fails under wisp"}},
		{name: "an entry of this account applies", r: res("p", passed(time.Second), failedRun("mkdir /h/.cache: read-only file system"), passed(time.Second)),
			account: fresh, known: []knownEntry{freshGo}, items: []int{3}},
		{name: "an entry of another project does not apply", r: res("q", passed(time.Second), failedRun(sockLog), passed(time.Second)),
			known:    []knownEntry{sockets},
			problems: []string{"q passes bare and fails under wisp"}},
		{name: "trust.md names it", r: res("p", passed(time.Second), failedRun(sockLog), passed(time.Second)),
			known: []knownEntry{sockets}, trusted: []trustEntry{socketsTrusted}, trust: true},
		{name: "trust.md's passage needs its signature", r: res("p", passed(time.Second), failedRun("other"), passed(time.Second)),
			trusted: []trustEntry{socketsTrusted}, problems: []string{"p passes bare and fails under wisp"}},
		{name: "failing bare measures nothing", r: res("p", failedRun("no network"), failedRun("no network"), failedRun("no network")),
			same: true, problems: []string{"p fails bare, so the suite measures nothing for it: see fail.log"}},
		{name: "bubblewrap's outcome never fails the suite", r: res("p", passed(time.Second), passed(time.Second), failedRun(sockLog)), same: true},
		{name: "no bubblewrap", r: res("p", passed(time.Second), passed(time.Second), run{}), same: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.account == "" {
				tt.account = warm
			}
			v := judge(tt.r, tt.account, tt.known, tt.trusted)
			if v.Same != tt.same {
				t.Errorf("Same = %v, want %v", v.Same, tt.same)
			}
			var items []int
			for _, k := range v.Known {
				items = append(items, k.Item)
			}
			if !slices.Equal(items, tt.items) {
				t.Errorf("known items %v, want %v", items, tt.items)
			}
			if (v.Trust != nil) != tt.trust {
				t.Errorf("trust.md passage %v, want one: %v", v.Trust, tt.trust)
			}
			if len(v.Problems) != len(tt.problems) {
				t.Fatalf("problems %q, want %d like %q", v.Problems, len(tt.problems), tt.problems)
			}
			for i, want := range tt.problems {
				if !strings.Contains(v.Problems[i], want) {
					t.Errorf("problem %d is %q, want it to say %q", i, v.Problems[i], want)
				}
			}
			if failed([]verdict{v}) != (len(tt.problems) > 0) {
				t.Errorf("failed = %v with problems %q", failed([]verdict{v}), v.Problems)
			}
		})
	}
}

func TestWispNotes(t *testing.T) {
	log := "ok\n· the sandbox put back .git/info/refs\nmiddle · not a note\n· the sandbox refused writing ~/.npm\n"
	got := wispNotes(log)
	want := []string{"the sandbox put back .git/info/refs", "the sandbox refused writing ~/.npm"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("notes %q, want %q", got, want)
	}
}

func TestSummarize(t *testing.T) {
	sec := func(n float64) time.Duration { return time.Duration(n * float64(time.Second)) }
	verdicts := []verdict{
		judge(res("a", passed(sec(10)), passed(sec(11)), passed(sec(12))), warm, nil, nil),
		judge(res("b", passed(sec(10)), passed(sec(10)), passed(sec(13))), warm, nil, nil),
		judge(res("c", passed(sec(10)), passed(sec(30)), run{}), warm, nil, nil),
		judge(res("p", passed(sec(10)), failedRun("socket: operation not permitted"), passed(sec(20))), warm, []knownEntry{sockets}, nil),
		judge(res("q", passed(sec(10)), failedRun("boom"), failedRun("boom")), warm, nil, nil),
	}
	s := summarize(verdicts)
	if s.Projects != 5 || s.AsBare != 3 || s.Problems != 1 || s.Trusted != 0 {
		t.Errorf("summary %+v: want 5 projects, 3 as bare, 1 problem", s)
	}
	if !slices.Equal(s.Known, []int{4}) {
		t.Errorf("known items %v, want [4]", s.Known)
	}
	// wisp/bare over a, b, c (1.1, 1.0, 3.0): a failed run's time counts for nothing.
	if s.Ratios != 3 || s.Median < 1.0999 || s.Median > 1.1001 {
		t.Errorf("median %v over %d, want 1.10 over 3", s.Median, s.Ratios)
	}
	// bwrap/bare over a, b, p (1.2, 1.3, 2.0): c had no bwrap, q failed.
	if s.BwrapRatio != 3 || s.BwrapMed < 1.2999 || s.BwrapMed > 1.3001 {
		t.Errorf("bwrap median %v over %d, want 1.30 over 3", s.BwrapMed, s.BwrapRatio)
	}
}

func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{4, 1, 2}, 2}, {[]float64{4, 1, 2, 3}, 2.5}} {
		if got := median(tt.in); got != tt.want {
			t.Errorf("median(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestRetries: what is run once more, and what is not.
func TestRetries(t *testing.T) {
	const sockLog = "socket: operation not permitted"
	second := func(r run) run { r.Tries = 2; return r }
	ok, fail := passed(time.Second), failedRun("boom")
	ok.Tries, fail.Tries = 1, 1
	known := failedRun(sockLog)
	known.Tries = 1
	tests := []struct {
		name string
		r    result
		want string
	}{
		{"all pass", res("p", ok, ok, ok), ""},
		{"bare failed: bare first, the rest judged against it after", res("p", fail, fail, fail), "bare"},
		{"bare failed twice: then the others", res("p", second(fail), fail, fail), "wisp bwrap"},
		{"an unexplained failure under wisp", res("p", ok, fail, ok), "wisp"},
		{"a known item's failure is no accident", res("p", ok, known, ok), ""},
		{"bubblewrap failed", res("p", ok, ok, fail), "bwrap"},
		{"a second try is the last", res("p", ok, second(fail), second(fail)), ""},
		{"no bubblewrap", res("p", ok, ok, run{}), ""},
	}
	for _, tt := range tests {
		var got []string
		for _, m := range retries(judge(tt.r, warm, []knownEntry{sockets}, nil)) {
			got = append(got, string(m))
		}
		if strings.Join(got, " ") != tt.want {
			t.Errorf("%s: retries %q, want %q", tt.name, got, tt.want)
		}
	}
}
