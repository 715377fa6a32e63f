package main

import (
	"os/exec"
	"strings"
	"testing"
)

// goTest runs the report over a real `go test -json` of the fixture
// module's packages and returns what it printed and its exit status.
func goTest(t *testing.T, timeout string, packages ...string) (string, int) {
	return goTestLimits(t, nil, timeout, packages...)
}

// goTestLimits is goTest with testreport's -limit flags.
func goTestLimits(t *testing.T, limits []string, timeout string, packages ...string) (string, int) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	var out strings.Builder
	var args []string
	for _, l := range limits {
		args = append(args, "-limit", l)
	}
	args = append(append(args, "--", "go", "-C", "testdata/fixture", "test", "-json", "-count=1", "-timeout", timeout), packages...)
	code := run(args, &out, &out)
	return out.String(), code
}

func TestReportReadsLikeGoTest(t *testing.T) {
	out, code := goTest(t, "5m", "./pass", "./fail", "./notests")
	if code == 0 {
		t.Errorf("exit status 0 with a failing package:\n%s", out)
	}
	for _, want := range []string{
		"ok  \texample.com/fixture/pass\t",
		"(0% of its 5m0s limit)",
		"?   \texample.com/fixture/notests\t[no test files]",
		"--- FAIL: TestSum/large",
		"want 2, got 3",
		"FAIL\texample.com/fixture/fail\t",
		"== the 2 slowest packages of 2",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"a line a passing test logs", `"Action"`, "=== RUN   TestPasses"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("the report shows %q, which go test shows only with -v:\n%s", unwanted, out)
		}
	}
}

// A package that runs out of time shows the panic and the test that was
// running, and the summary warns of it.
func TestReportShowsATimeOut(t *testing.T) {
	out, code := goTest(t, "1s", "./slow")
	if code == 0 {
		t.Errorf("exit status 0 for a package that timed out:\n%s", out)
	}
	for _, want := range []string{
		"panic: test timed out after 1s",
		"TestWaitsTooLong",
		"FAIL\texample.com/fixture/slow\t",
		"== warning: example.com/fixture/slow took",
		"over half its 1s limit",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q:\n%s", want, out)
		}
	}
}

func TestReportShowsABuildFailure(t *testing.T) {
	out, code := goTest(t, "5m", "./broken")
	if code == 0 {
		t.Errorf("exit status 0 for a package that does not compile:\n%s", out)
	}
	if !strings.Contains(out, `cannot use "three"`) || !strings.Contains(out, "example.com/fixture/broken") {
		t.Errorf("the report does not show the compiler's error:\n%s", out)
	}
}

// A package's own limit (-limit) is what its share and warning are of,
// and a package that passes past it fails the report.
func TestReportHoldsEachPackageToItsOwnLimit(t *testing.T) {
	out, code := goTestLimits(t, []string{"1ns", "example.com/fixture/pass=5m"}, "10m", "./pass")
	if code != 0 || !strings.Contains(out, "(0% of its 5m0s limit)") {
		t.Errorf("exit status %d; want 0 and the package's own 5m limit:\n%s", code, out)
	}
	out, code = goTestLimits(t, []string{"example.com/fixture/...=1ns"}, "5m", "./pass")
	if code == 0 || !strings.Contains(out, "took longer than its own 1ns limit") || !strings.Contains(out, "over half its 1ns limit") {
		t.Errorf("exit status %d; want a failure for the package past its own limit:\n%s", code, out)
	}
}

func TestReportRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{nil, {"go", "test"}, {"--"}, {"-most"}, {"-most", "x", "--", "true"},
		{"-limit", "soon", "--", "true"}, {"-limit", "x/...=", "--", "true"},
		{"-limit", "20m", "--", "go", "test", "-timeout", "10m"}} {
		var out strings.Builder
		if code := run(args, &out, &out); code != 2 || !strings.Contains(out.String(), "usage: testreport") {
			t.Errorf("run(%q) = %d, %q; want 2 and the usage", args, code, out.String())
		}
	}
}

func TestLimitOf(t *testing.T) {
	for _, tc := range []struct {
		command []string
		want    string
	}{
		{[]string{"go", "test", "-timeout", "5m", "./..."}, "5m0s"},
		{[]string{"go", "test", "-timeout=90s"}, "1m30s"},
		{[]string{"go", "test", "./..."}, "10m0s"},
	} {
		if got := limitOf(tc.command).String(); got != tc.want {
			t.Errorf("limitOf(%q) = %s, want %s", tc.command, got, tc.want)
		}
	}
}

// With -v, every line goes through as go test -v prints it, once.
func TestReportVerbose(t *testing.T) {
	out, code := goTest(t, "5m", "-v", "./pass")
	if code != 0 {
		t.Errorf("exit status %d for a passing package:\n%s", code, out)
	}
	if !strings.Contains(out, "a line a passing test logs") || strings.Count(out, "ok  \texample.com/fixture/pass") != 1 {
		t.Errorf("want the passing test's log and one ok line:\n%s", out)
	}
}
