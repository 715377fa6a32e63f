package refusal

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

const offerText = "; if it must, ask again with outsideSandbox true (the person approves each run)"

func TestModelLineWording(t *testing.T) {
	defer setGOOS("linux")()
	roots := []string{"/w/proj", "/tmp"}
	for _, c := range []struct {
		name         string
		r            Result
		offer        bool
		model, notes string
	}{
		{"refused", Result{Verdict: Refused, Paths: []string{"/x"}, Refused: []string{"/x"}, Errno: eacces}, false,
			"sandbox: refused writing to /x; commands may write only under /w/proj, /tmp",
			"· the sandbox refused writing to /x; commands may write only under /w/proj, /tmp"},
		{"refused, offered", Result{Verdict: Refused, Paths: []string{"/x"}, Refused: []string{"/x"}, Errno: eacces}, true,
			"sandbox: refused writing to /x; commands may write only under /w/proj, /tmp" + offerText,
			"· the sandbox refused writing to /x; commands may write only under /w/proj, /tmp"},
		{"refused, protected", Result{Verdict: Refused, Paths: []string{"/w/proj/.git/hooks/x"}, Refused: []string{"/w/proj/.git/hooks/x"}, Protected: []string{"/w/proj/.git/hooks"}, Errno: erofs}, false,
			"sandbox: refused writing to /w/proj/.git/hooks/x; commands may write only under /w/proj, /tmp, and not under /w/proj/.git/hooks",
			"· the sandbox refused writing to /w/proj/.git/hooks/x; commands may write only under /w/proj, /tmp, and not under /w/proj/.git/hooks"},
		{"not the sandbox, offer ignored", Result{Verdict: NotTheSandbox, Paths: []string{"/w/proj/x"}, Errno: eacces}, true,
			"sandbox: not the sandbox: /w/proj/x is inside the writable roots, so something else refused it (file permissions)",
			"· not the sandbox: /w/proj/x is inside the writable roots, so something else refused it (file permissions)"},
		{"not the sandbox, two paths", Result{Verdict: NotTheSandbox, Paths: []string{"/w/proj/x", "/w/proj/y"}, Errno: eperm}, false,
			"sandbox: not the sandbox: /w/proj/x, /w/proj/y are inside the writable roots, so something else refused it (file permissions or file attributes such as immutable)",
			"· not the sandbox: /w/proj/x, /w/proj/y are inside the writable roots, so something else refused it (file permissions or file attributes such as immutable)"},
		{"not the sandbox, read-only", Result{Verdict: NotTheSandbox, Paths: []string{"/w/proj/x"}, Errno: erofs}, false,
			"sandbox: not the sandbox: /w/proj/x is inside the writable roots, so something else refused it (a read-only file system)",
			"· not the sandbox: /w/proj/x is inside the writable roots, so something else refused it (a read-only file system)"},
		{"guess", Result{Verdict: Guess, Errno: eacces}, false,
			"sandbox: the sandbox may have refused this (Permission denied, no path to check: a network connection, a process, or a file the error does not name); no policy rule denied it",
			"· the sandbox may have refused it (no path to check), Permission denied; no policy rule denied it"},
		{"guess, offered", Result{Verdict: Guess, Errno: eperm}, true,
			"sandbox: the sandbox may have refused this (Operation not permitted, no path to check: a network connection, a process, or a file the error does not name); no policy rule denied it" + offerText,
			"· the sandbox may have refused it (no path to check), Operation not permitted; no policy rule denied it"},
		{"none", Result{}, true, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.r.ModelLine(roots, c.offer); got != c.model {
				t.Errorf("ModelLine\n got %q\nwant %q", got, c.model)
			}
			if got := c.r.PersonNote(roots); got != c.notes {
				t.Errorf("PersonNote\n got %q\nwant %q", got, c.notes)
			}
		})
	}
}

func TestNotTheSandboxCausesOnMacOS(t *testing.T) {
	defer setGOOS("darwin")()
	r := Result{Verdict: NotTheSandbox, Paths: []string{"/Users/p/proj/x"}, Errno: eperm}
	want := "sandbox: not the sandbox: /Users/p/proj/x is inside the writable roots, so something else refused it (file permissions, file flags or System Integrity Protection)"
	if got := r.ModelLine(nil, true); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestModelLineNamesAtMostThreePaths(t *testing.T) {
	paths := []string{"/a", "/b", "/c", "/d", "/e"}
	r := Result{Verdict: Refused, Paths: paths, Refused: paths}
	want := "sandbox: refused writing to /a, /b, /c, …; commands may write only under /w"
	if got := r.ModelLine([]string{"/w"}, false); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	r.Refused = paths[:3]
	if got := r.ModelLine([]string{"/w"}, false); strings.Contains(got, "…") {
		t.Errorf("three paths need no ellipsis: %q", got)
	}
}

func TestModelLineBoundsTheRoots(t *testing.T) {
	var roots []string
	for i := range 20 {
		roots = append(roots, fmt.Sprintf("/Users/person/projects/root-%02d", i)) // 32 bytes each
	}
	r := Result{Verdict: Refused, Paths: []string{"/x"}, Refused: []string{"/x"}}
	line := r.ModelLine(roots, false)
	list, ok := strings.CutPrefix(line, "sandbox: refused writing to /x; commands may write only under ")
	if !ok || !strings.HasSuffix(list, ", …") {
		t.Fatalf("roots not bounded with an ellipsis: %q", line)
	}
	shown := strings.TrimSuffix(list, ", …")
	if len(shown) > rootsBudget || len(shown)+len(", ")+len(roots[0]) <= rootsBudget {
		t.Errorf("shown roots take %d bytes; want the most that fit in %d: %q", len(shown), rootsBudget, shown)
	}
	if !slices.Equal(strings.Split(shown, ", "), roots[:len(strings.Split(shown, ", "))]) {
		t.Errorf("roots not shown in order: %q", shown)
	}
	long := []string{"/" + strings.Repeat("x", 300), "/y"}
	if got := bounded(long); got != long[0]+", …" {
		t.Errorf("the first root is always shown: got %q", got)
	}
}

func TestFolders(t *testing.T) {
	r := Result{Verdict: Refused,
		Refused:   []string{"/w/out/a", "/w/out/b", "/w/other/c/d", "/w/proj/.git/hooks/x"},
		Protected: []string{"/w/proj/.git/hooks"}}
	want := []string{"/w/out", "/w/other/c"}
	if got := Folders(r); !slices.Equal(got, want) {
		t.Errorf("Folders = %q, want %q (the protected hooks are no folder to grant)", got, want)
	}
}
