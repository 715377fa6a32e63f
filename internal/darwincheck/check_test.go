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
