package audit

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var at = time.Date(2026, 10, 14, 12, 51, 3, 250_000_000, time.UTC)

func fixedClock() time.Time { return at }

func testHome(t *testing.T) config.Home {
	return config.Home{Dir: filepath.Join(t.TempDir(), "home")}
}

// sampleEvents is one of each event, filled as the later issues will.
func sampleEvents() []Event {
	no := false
	return []Event{
		PolicyDecision{Origin: OriginModel, Command: "rm -rf / && echo <done>", Allowed: false, Segment: "rm -rf /", Rule: `^rm\s+-rf\s+/`, Reason: "removes the root", Level: "high"},
		PolicyDecision{Origin: OriginModel, Command: "brew upgrade", Allowed: true, Level: "moderate", OutsideSandbox: true, Sandbox: &no},
		PolicyDecision{Origin: OriginModel, Command: "brew upgrade", Allowed: true, OutsideSandboxIgnored: IgnoredSandboxOff},
		ApprovalRequested{ID: "3f9c0a1b2c3d4e5f", Command: "brew upgrade", Cwd: "/home/ana/src/app", Level: "moderate",
			Reasons: []string{"runs OUTSIDE the sandbox: it may write anywhere you can, ~/.wisp included; this one run only"}, OutsideSandbox: true, Faces: []string{"terminal", "out-of-band"}},
		ApprovalPending{ID: "3f9c0a1b2c3d4e5f", Command: "brew upgrade", File: "/home/ana/.wisp/pending/3f9c0a1b2c3d4e5f.request.json", OutsideSandbox: true, ExpiresAt: at.Add(10 * time.Minute)},
		ApprovalDecided{ID: "3f9c0a1b2c3d4e5f", Command: "brew upgrade", Decision: DecisionApprove, By: "wisp approvals", Scope: "once", DowngradedFrom: "session", OutsideSandbox: true},
		AnswerRefused{ID: "3f9c0a1b2c3d4e5f", File: "/home/ana/.wisp/pending/3f9c0a1b2c3d4e5f.answer.json", By: "wisp-bar", Reason: "binding does not match the request"},
		CommandTyped{Command: "touch /etc/x", ExitCode: 1, SandboxRefused: true, SandboxRefusal: RefusalRefused, SandboxPaths: []string{"/private/etc/x"}},
		CommandTyped{Command: "brew upgrade", OutsideSandbox: true},
		CommandOutcome{Command: "touch /etc/x", Origin: OriginModel, ExitCode: 1, Sandbox: SandboxLandlock, SandboxRefusal: RefusalRefused,
			SandboxPaths: []string{"/etc/x"}, OutputID: "o-7d1e", OutputBytes: 43, DurationMS: 12},
		CommandOutcome{Command: "sleep 100", Origin: OriginPerson, ExitCode: -1, TimedOut: true, Sandbox: SandboxNone, OutsideSandbox: true, DurationMS: 120000},
		ToolCallFromText{Tool: "run_command", Command: "ls", Arguments: `{"command":"ls"}`, CallID: "text_call_0"},
	}
}

// TestLogLines pins the line format: header first, camelCase names, absent
// fields left out, one line per event. testdata/events.jsonl is also the
// fixture of the `wisp logs` scripts and the examples of docs/logging.md.
func TestLogLines(t *testing.T) {
	home := testHome(t)
	l := New(home, "ce87576a", 4242, fixedClock)
	for _, e := range sampleEvents() {
		if err := l.Log(e); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	got, err := os.ReadFile(home.AuditFile())
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "testdata/events.jsonl", got)
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run go test -update to rewrite it); got:\n%s", path, got)
	}
}

// TestNoFieldShadowsTheHeader: an event field named time, event, session
// or pid would write the key twice and the reader would keep only one.
func TestNoFieldShadowsTheHeader(t *testing.T) {
	for _, e := range sampleEvents() {
		typ := reflect.TypeOf(e)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			switch name {
			case "time", "event", "session", "pid", "":
				t.Errorf("%s.%s is written as %q", typ.Name(), typ.Field(i).Name, name)
			}
		}
	}
}

func TestEventNamesAreListed(t *testing.T) {
	for _, e := range sampleEvents() {
		if err := CheckEventName(e.EventName()); err != nil {
			t.Error(err)
		}
	}
}

func TestNilAndDiscardWriteNothing(t *testing.T) {
	var nilLogger *Logger
	for name, l := range map[string]*Logger{"nil": nilLogger, "discard": Discard()} {
		if err := l.Log(CommandTyped{Command: "ls"}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := l.Close(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestLazyOpen: a Logger that logs nothing creates nothing.
func TestLazyOpen(t *testing.T) {
	home := testHome(t)
	New(home, "s", 1, nil).Close()
	if _, err := os.Stat(home.Dir); !os.IsNotExist(err) {
		t.Errorf("the home exists after a Logger logged nothing: %v", err)
	}
}

// TestReopenAfterAnotherRotated: when another process renames the file
// under this Logger's descriptor, the next line goes to the new
// audit.jsonl, not on into the rotated file.
func TestReopenAfterAnotherRotated(t *testing.T) {
	home := testHome(t)
	l := New(home, "s", 1, fixedClock)
	defer l.Close()
	mustLog(t, l, CommandTyped{Command: "first"})
	if err := os.Rename(home.AuditFile(), home.AuditFile()+".1"); err != nil {
		t.Fatal(err)
	}
	mustLog(t, l, CommandTyped{Command: "second"})
	assertCommands(t, home.AuditFile()+".1", "first")
	assertCommands(t, home.AuditFile(), "second")
}

// TestReopenAfterRemoved: a log folder removed under a running wisp is
// made again (0700) rather than lines going into a deleted file.
func TestReopenAfterRemoved(t *testing.T) {
	home := testHome(t)
	l := New(home, "s", 1, fixedClock)
	defer l.Close()
	mustLog(t, l, CommandTyped{Command: "first"})
	if err := os.RemoveAll(home.LogsDir()); err != nil {
		t.Fatal(err)
	}
	mustLog(t, l, CommandTyped{Command: "second"})
	assertCommands(t, home.AuditFile(), "second")
}

// TestRotationKeepsTheNewest: past the threshold the file moves to .1, the
// older ones shift, the oldest beyond keep is dropped, and Read still
// gives the kept lines in order.
func TestRotationKeepsTheNewest(t *testing.T) {
	home := testHome(t)
	l := New(home, "s", 1, fixedClock)
	l.rotateAt, l.keep = 1000, 2
	defer l.Close()
	const n = 100
	for i := range n {
		mustLog(t, l, seqEvent{Seq: i, Pad: strings.Repeat("x", 100)})
	}
	names, _ := logNames(home.LogsDir())
	if want := []string{"audit.jsonl.2", "audit.jsonl.1", "audit.jsonl"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("files %v, want %v", names, want)
	}
	var seqs []int
	Read(home, Filter{}, func(r Record) error {
		s, _ := r.Fields["seq"].(json.Number).Int64()
		seqs = append(seqs, int(s))
		return nil
	})
	for i, s := range seqs {
		if s != n-len(seqs)+i {
			t.Fatalf("read seqs %v, want the newest in order ending at %d", seqs, n-1)
		}
	}
	for _, name := range names {
		if info, _ := os.Stat(filepath.Join(home.LogsDir(), name)); info.Size() > 1000 {
			t.Errorf("%s has %d bytes, over the 1000 threshold", name, info.Size())
		}
	}
}

func TestNewSession(t *testing.T) {
	a, b := NewSession(), NewSession()
	if len(a) != 8 || strings.Trim(a, "0123456789abcdef") != "" || a == b {
		t.Errorf("sessions %q and %q: want two different 8-hex-digit ids", a, b)
	}
}

func mustLog(t *testing.T, l *Logger, e Event) {
	t.Helper()
	if err := l.Log(e); err != nil {
		t.Fatal(err)
	}
}

func assertCommands(t *testing.T, path string, want ...string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var e CommandTyped
		json.Unmarshal([]byte(line), &e)
		got = append(got, e.Command)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s holds commands %q, want %q", filepath.Base(path), got, want)
	}
}
