package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkIn runs darwincheck as `go run ./internal/darwincheck args...` would
// from dir, returning its exit code and output.
func checkIn(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, dir, &out, &errOut)
	t.Logf("darwincheck %s (in %s): exit %d\n%s%s", strings.Join(args, " "), dir, code, out.String(), errOut.String())
	return code, out.String(), errOut.String()
}

func TestCgoCodeThatTypeChecksPasses(t *testing.T) {
	code, stdout, _ := checkIn(t, "testdata/good", "./...")
	if code != 0 {
		t.Fatalf("exit %d, want 0: testdata/good type-checks", code)
	}
	for _, arch := range []string{"arm64", "amd64"} {
		for _, pkg := range []string{"example.com/good [example.com/good.test]", "example.com/good/app", "example.com/good/app_test [example.com/good/app.test]"} {
			want := fmt.Sprintf("ok  %s (darwin/%s, cgo faked)", pkg, arch)
			if !strings.Contains(stdout, want) {
				t.Errorf("stdout lacks %q", want)
			}
		}
	}
}

// TestTypeErrorInDarwinCgoFileFails checks that each line of testdata/bad
// marked "want: type error" is reported by file and line, once, and nothing
// else is: in the cgo file, its test, and a package that only depends on it.
func TestTypeErrorInDarwinCgoFileFails(t *testing.T) {
	var want []string
	for _, file := range []string{"tray_darwin.go", "tray_darwin_test.go", "app/app.go"} {
		for _, line := range markedLines(t, "testdata/bad/"+file, "// want: type error") {
			want = append(want, fmt.Sprintf("%s:%d:", file, line))
		}
	}
	code, stdout, stderr := checkIn(t, "testdata/bad", "-goarch", "arm64", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1 for type errors", code)
	}
	for _, position := range want {
		if !strings.Contains(stderr, position) {
			t.Errorf("stderr does not name %s", position)
		}
	}
	if total := fmt.Sprintf("darwincheck: %d type error(s) for darwin/arm64", len(want)); !strings.Contains(stderr, total) {
		t.Errorf("stderr lacks %q", total)
	}
	if stdout != "" {
		t.Errorf("stdout = %q, want nothing when the check fails", stdout)
	}
	for _, asWritten := range []string{"cannot use C.GoString(C.title()) (value of type string)", "cannot use int(C.count()) (value of type int)"} {
		if !strings.Contains(stderr, asWritten) {
			t.Errorf("stderr lacks %q: a retyped C expression must read as written", asWritten)
		}
	}
}

func TestNoCgoPackageIsNothingToCheck(t *testing.T) {
	code, stdout, _ := checkIn(t, "testdata/nocgo", "-goarch", "arm64", "./...")
	if code != 0 || !strings.Contains(stdout, "nothing to check") {
		t.Fatalf("exit %d, want 0 and \"nothing to check\"", code)
	}
}

// TestSystrayDarwinFilesTypeCheck exercises the path on the real cgo code
// wisp-bar will build on macOS: fyne.io/systray's darwin files.
func TestSystrayDarwinFilesTypeCheck(t *testing.T) {
	code, stdout, _ := checkIn(t, "../..", "-goarch", "arm64", "fyne.io/systray")
	if code != 0 || !strings.Contains(stdout, "ok  fyne.io/systray (darwin/arm64, cgo faked)") {
		t.Fatalf("exit %d, want fyne.io/systray checked and ok", code)
	}
}

func TestUnknownPackageIsALoadFailure(t *testing.T) {
	code, _, stderr := checkIn(t, "testdata/bad", "-goarch", "arm64", "example.com/bad/nosuch")
	if code != 2 || !strings.Contains(stderr, "example.com/bad/nosuch") {
		t.Fatalf("exit %d, want 2 naming the package", code)
	}
}

// markedLines returns the numbers of the lines of file that contain marker.
func markedLines(t *testing.T, file, marker string) []int {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []int
	scanner := bufio.NewScanner(f)
	for n := 1; scanner.Scan(); n++ {
		if strings.Contains(scanner.Text(), marker) {
			lines = append(lines, n)
		}
	}
	if len(lines) == 0 {
		t.Fatalf("%s has no line marked %q", file, marker)
	}
	return lines
}

// TestVetFindsWhatGoVetFindsForDarwin checks -vet on testdata/vet: a
// printf mistake in a darwin file and a test's t.Fatal from another
// goroutine, with cgo off and on, and a type error in a file only the cgo
// build compiles; and nothing of the Linux file's same mistake.
func TestVetFindsWhatGoVetFindsForDarwin(t *testing.T) {
	var want []string
	for _, file := range []string{"clock_darwin.go", "clock_darwin_test.go"} {
		for _, line := range markedLines(t, "testdata/vet/"+file, "// want: vet") {
			want = append(want, fmt.Sprintf("%s:%d:", file, line))
		}
	}
	typeError := fmt.Sprintf("cgoonly/count_darwin.go:%d:", markedLines(t, "testdata/vet/cgoonly/count_darwin.go", "// want: type error")[0])
	code, stdout, stderr := checkIn(t, "testdata/vet", "-goarch", "arm64", "-vet", "arm64", "./...")
	if code != 1 {
		t.Fatalf("exit %d, want 1 for vet's findings", code)
	}
	for _, position := range append(want, typeError) {
		if !strings.Contains(stderr, position) {
			t.Errorf("stderr does not name %s", position)
		}
	}
	if n := strings.Count(stderr, want[0]); n != 2 {
		t.Errorf("stderr names %s %d times, want twice: once with cgo off, once on", want[0], n)
	}
	if n := strings.Count(stderr, typeError); n != 1 {
		t.Errorf("stderr names %s %d times, want once: only the cgo build compiles it", typeError, n)
	}
	if strings.Contains(stderr, "clock_linux.go") {
		t.Errorf("stderr names clock_linux.go, which darwin never builds")
	}
	for _, cgo := range []string{"0", "1"} {
		if summary := "darwincheck: vet (darwin/arm64, CGO_ENABLED=" + cgo + "): "; !strings.Contains(stderr, summary) {
			t.Errorf("stderr lacks %q", summary)
		}
	}
	if strings.Contains(stdout, "ok  go vet's analyzers") {
		t.Errorf("stdout says vet passed: %q", stdout)
	}
}

func TestVetPassesCleanDarwinCode(t *testing.T) {
	code, stdout, _ := checkIn(t, "testdata/good", "-goarch", "arm64", "-vet", "arm64", "./...")
	if code != 0 {
		t.Fatalf("exit %d, want 0: testdata/good is clean", code)
	}
	for _, cgo := range []string{"0", "1"} {
		if want := "(darwin/arm64, CGO_ENABLED=" + cgo + ", from source)"; !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
}
