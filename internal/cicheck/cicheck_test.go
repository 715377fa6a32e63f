package cicheck

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	workflow = "../../.github/workflows/ci.yml"
	makefile = "../../Makefile"
)

// TestWorkflowCallsMakeTargetsThatExist: every `make X` in a step of
// ci.yml names a target of the Makefile or of a file it includes.
func TestWorkflowCallsMakeTargetsThatExist(t *testing.T) {
	w, err := ReadWorkflow(workflow)
	if err != nil {
		t.Fatal(err)
	}
	targets, err := MakefileTargets(makefile)
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	for _, job := range w.Jobs {
		for _, step := range job.Steps {
			calls += len(MakeTargets(step.Run))
		}
	}
	if calls == 0 {
		t.Fatal("no step of ci.yml calls make: the check would pass for nothing")
	}
	for _, m := range Missing(w, targets) {
		t.Errorf("ci.yml calls a target the Makefile lacks: %s", m)
	}
}

// TestWorkflowJobs: the Linux job runs .ci/run, as CI does here; the
// macOS job runs on Apple silicon's macOS 15 with kernel skips made
// failures, and builds, tests and packages with the make targets a person
// with a Mac runs too.
func TestWorkflowJobs(t *testing.T) {
	w, err := ReadWorkflow(workflow)
	if err != nil {
		t.Fatal(err)
	}
	linux, mac := w.Jobs["linux"], w.Jobs["macos"]
	if !slices.ContainsFunc(linux.Steps, func(s Step) bool { return filepath.Base(lastWord(s.Run)) == "run" }) {
		t.Errorf("the linux job does not run .ci/run: %+v", linux.Steps)
	}
	if mac.RunsOn != "macos-15" || mac.Env["WISP_REQUIRE_KERNEL"] != "1" {
		t.Errorf("the macos job runs on %q with WISP_REQUIRE_KERNEL=%q, want macos-15 (Apple silicon) and 1", mac.RunsOn, mac.Env["WISP_REQUIRE_KERNEL"])
	}
	var called []string
	for _, s := range mac.Steps {
		called = append(called, MakeTargets(s.Run)...)
	}
	for _, want := range []string{"build", "test-deps", "test", "test-macos-refusals", "test-macos-notifier", "check-app"} {
		if !slices.Contains(called, want) {
			t.Errorf("the macos job does not call make %s (it calls %q)", want, called)
		}
	}
}

func lastWord(s string) string {
	words := strings.Fields(s)
	if len(words) == 0 {
		return ""
	}
	return words[len(words)-1]
}

// TestMissingFindsWhatIsNot keeps the check honest: a workflow that calls
// an unknown target, among flags, variables and other commands, is caught,
// and a target only an included file defines is found.
func TestMissingFindsWhatIsNot(t *testing.T) {
	w, err := ReadWorkflow("testdata/workflow.yml")
	if err != nil {
		t.Fatal(err)
	}
	targets, err := MakefileTargets("testdata/Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"build", "included", "two", "a.out"} {
		if !targets[want] {
			t.Errorf("the Makefile's target %q was not found in %v", want, targets)
		}
	}
	got := Missing(w, targets)
	want := []string{"job: step 2 (many): make nowhere"}
	if !slices.Equal(got, want) {
		t.Fatalf("Missing = %q, want %q", got, want)
	}
}

// TestMakeTargets reads a script's make calls as a shell would split them.
func TestMakeTargets(t *testing.T) {
	script := "make build\nFOO=1 make -j2 --no-print-directory V=1 test lint && echo make not-me\ncd x; make check | tee log\n"
	got := MakeTargets(script)
	want := []string{"build", "test", "lint", "check"}
	if !slices.Equal(got, want) {
		t.Fatalf("MakeTargets = %q, want %q", got, want)
	}
}
