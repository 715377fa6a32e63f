package sandboxtest

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/sandbox"
)

// homeMarker is in every file the case puts in wisp's home: what `!!cat
// ~/.ssh/id_ed25519` would have left in the output store.
const homeMarker = "output-of-an-outside-run-the-sandbox-must-hide"

// homeUnreadable (issue 26, item 3): a confined command reads nothing of
// wisp's home, outside the root and inside it: not its outputs, threads
// or audit log, by any path, and where a mount namespace can be had not
// even their names. Unconfined, each line reads them (the control).
func (s *suite) homeUnreadable(t *testing.T) {
	for _, c := range []struct {
		name string
		home string
		spec func() sandbox.Spec
	}{
		{"OutsideTheRoot", s.away, func() sandbox.Spec { return s.spec(true) }},
		{"InsideTheRoot", s.home, s.specHomeInside},
	} {
		t.Run(c.name, func(t *testing.T) {
			s.t = t
			s.homeUnreadableAt(t, c.home, c.spec())
		})
	}
}

func (s *suite) homeUnreadableAt(t *testing.T, home string, spec sandbox.Spec) {
	if _, err := s.b.Check(spec); err != nil {
		var unprotectable *sandbox.UnprotectableError
		if !errors.As(err, &unprotectable) {
			t.Fatalf("Check refused the spec with %v, want an *UnprotectableError", err)
		}
		t.Logf("refused as a whole, as it must be here: nothing runs to read it: %v", err)
		return
	}
	for _, f := range []string{"outputs/c1.log", "threads/t1.json", "logs/audit.jsonl"} {
		mustMkdir(t, filepath.Dir(filepath.Join(home, f)))
		mustWrite(t, filepath.Join(home, f), homeMarker+"\n")
	}
	if s.o.Credential != nil {
		chownTree(t, home, int(s.o.Credential.Uid), int(s.o.Credential.Gid))
	}
	h := shellQuote(home)
	ways := []string{
		"cat " + h + "/outputs/c1.log",
		"cd " + h + " && cat threads/t1.json",
		"tar cf - " + h + " 2>/dev/null | tar xOf -",
		"ln -sf " + h + "/logs/audit.jsonl link && cat link",
		"exec 3<" + h + "/outputs/c1.log && cat <&3",
	}
	if runtime.GOOS == "linux" {
		ways = append(ways, "cat /proc/self/root"+home+"/outputs/c1.log")
	}
	line := readsHome(ways)
	if out, _ := s.plain(line); strings.Count(out, "READ ") != len(ways) {
		t.Fatalf("control: unconfined, not every way reads wisp's home, so the case proves nothing:\n%s", out)
	}
	out := s.mustSucceed(spec, line+"; ls -R "+h)
	if strings.Contains(out, "READ ") {
		t.Errorf("confined commands read wisp's home:\n%s", out)
	}
	s.homeNamesListed(t, strings.Contains(out, "c1.log"))
}

// readsHome is one command that tries each way, each in a shell of its
// own, and prints READ and the way's number for each that read the marker.
func readsHome(ways []string) string {
	var b strings.Builder
	for i, w := range ways {
		fmt.Fprintf(&b, "if (%s) 2>/dev/null | grep -q %s; then echo 'READ %d: %s'; fi; rm -f link; ",
			w, homeMarker, i, strings.ReplaceAll(w, "'", ""))
	}
	return b.String() + "true"
}

// homeNamesListed checks what the confined listing showed: the names in
// wisp's home are out of sight where the backend has a read-only view (a
// mount namespace covers the home), and listed where it has none, as the
// report says.
func (s *suite) homeNamesListed(t *testing.T, listed bool) {
	switch {
	case s.o.NoReadOnlyView && !listed:
		t.Error("the backend reports no read-only view, so the names in wisp's home should list, as the report says, but they did not")
	case s.o.NoReadOnlyView:
		t.Logf("no mount namespace here: the names in wisp's home list, as the report says")
	case listed:
		t.Error("a confined command listed the names in wisp's home")
	}
}
