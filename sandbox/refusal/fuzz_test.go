package refusal

import (
	"path/filepath"
	"slices"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzCheck: any output, any directory; no panic, and the result holds
// together (the verdict agrees with the paths, the line with the verdict).
// Seeded with every fixture's output and the table's.
//
//	go test ./sandbox/refusal -run '^$' -fuzz FuzzCheck -fuzztime 30s
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/corpus/*.txt")
	for _, file := range files {
		if a, err := txtar.ParseFile(file); err == nil && len(a.Files) > 0 {
			f.Add(a.Files[0].Data, "/w/proj", true)
		}
	}
	for _, c := range slices.Concat(shapeCases, placeCases, noPathCases) {
		f.Add([]byte(c.output), "/w/proj/sub", c.networkOff)
	}
	f.Fuzz(func(t *testing.T, out []byte, dir string, networkOff bool) {
		in := Input{Output: out, Dir: dir, Home: "/w/home", Roots: tableRoots, Protected: tableProtected,
			NetworkOff: networkOff, Resolve: filepath.Clean}
		r := Check(in)
		checkCoherent(t, r)
		if (r.ModelLine(tableRoots, true) == "") != (r.Verdict == None) || (r.PersonNote(tableRoots) == "") != (r.Verdict == None) {
			t.Fatalf("line and verdict disagree: %+v", r)
		}
	})
}

func checkCoherent(t *testing.T, r Result) {
	t.Helper()
	for _, p := range r.Refused {
		if !slices.Contains(r.Paths, p) {
			t.Fatalf("refused %q was not among the paths checked: %+v", p, r)
		}
	}
	ok := true
	switch r.Verdict {
	case None:
		ok = len(r.Paths) == 0 && r.Errno == ""
	case Refused:
		ok = len(r.Refused) > 0
	case NotTheSandbox:
		ok = len(r.Paths) > 0 && len(r.Refused) == 0
	case Guess, Network, NestedSandbox:
		ok = len(r.Refused) == 0 && r.Errno != ""
	case RefusedSocket:
		ok = len(r.Refused) == 0 && r.Errno != "" && !r.ViaProxy
	case SetID:
		ok = len(r.Paths) > 0 && slices.Equal(r.Paths, r.Refused)
	case SetIDMode:
		ok = len(r.Refused) == 0 && r.Errno != ""
	default:
		ok = false
	}
	if !ok {
		t.Fatalf("incoherent result: %+v", r)
	}
}
