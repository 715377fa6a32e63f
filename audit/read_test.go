package audit

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// homeWith makes a home whose logs folder holds the given files, named
// for their place in the log.
func homeWith(t *testing.T, files map[string]string) config.Home {
	t.Helper()
	home := testHome(t)
	dir, err := home.Ensure("logs")
	if err != nil {
		t.Fatal(err)
	}
	for name, src := range files {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func readCommands(t *testing.T, home config.Home, f Filter) ([]string, []Malformed) {
	t.Helper()
	var cmds []string
	var bad []Malformed
	f.OnMalformed = func(m Malformed) { bad = append(bad, m) }
	err := Read(home, f, func(r Record) error {
		cmd, _ := r.Fields["command"].(string)
		cmds = append(cmds, r.Event+" "+cmd)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return cmds, bad
}

// TestReadSkipsDamage: each kind of bad line is skipped and reported with
// its line number; the good lines around it are read, the unfinished last
// line included when it is whole JSON.
func TestReadSkipsDamage(t *testing.T) {
	home := homeWith(t, map[string]string{"audit.jsonl": "testdata/damaged.jsonl"})
	cmds, bad := readCommands(t, home, Filter{})
	want := []string{
		"policy.decision ls",
		"command.outcome make",
		"policy.decision git status",
		"future.event x",
		"command.typed no newline at the end",
	}
	if !reflect.DeepEqual(cmds, want) {
		t.Errorf("read %q\nwant %q", cmds, want)
	}
	var lines []int
	for _, m := range bad {
		lines = append(lines, m.Line)
		if m.File != "audit.jsonl" || m.Reason == "" {
			t.Errorf("malformed report %+v lacks its file or reason", m)
		}
	}
	if want := []int{2, 4, 5, 6, 7, 8, 10}; !reflect.DeepEqual(lines, want) {
		t.Errorf("malformed lines %v, want %v (%v)", lines, want, bad)
	}
}

func TestReadFilters(t *testing.T) {
	home := homeWith(t, map[string]string{"audit.jsonl": "testdata/damaged.jsonl"})
	for _, tc := range []struct {
		name string
		f    Filter
		want []string
	}{
		{"event", Filter{Event: EventPolicyDecision}, []string{"policy.decision ls", "policy.decision git status"}},
		{"since, inclusive", Filter{Since: time.Date(2026, 10, 14, 13, 0, 0, 0, time.UTC)},
			[]string{"policy.decision git status", "future.event x", "command.typed no newline at the end"}},
		{"both", Filter{Event: EventCommandTyped, Since: time.Date(2026, 10, 14, 13, 0, 0, 0, time.UTC)},
			[]string{"command.typed no newline at the end"}},
		{"none", Filter{Event: EventApprovalDecided}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, _ := readCommands(t, home, tc.f); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("read %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadRecordFields: the header is taken out of Fields, numbers keep
// every digit, Raw is the line as written.
func TestReadRecordFields(t *testing.T) {
	home := homeWith(t, map[string]string{"audit.jsonl": "testdata/damaged.jsonl"})
	var got Record
	Read(home, Filter{Event: EventCommandOutcome}, func(r Record) error { got = r; return nil })
	if got.Session != "a" || got.PID != 1 || !got.Time.Equal(time.Date(2026, 10, 14, 12, 0, 3, 0, time.UTC)) {
		t.Errorf("header %v %q %d", got.Time, got.Session, got.PID)
	}
	if _, ok := got.Fields["time"]; ok {
		t.Error("Fields still holds time")
	}
	if n := got.Fields["outputBytes"].(json.Number); n.String() != "18446744073709551615" {
		t.Errorf("outputBytes read as %v", n)
	}
	if !strings.HasPrefix(string(got.Raw), `{"time":"2026-10-14T12:00:03Z"`) || strings.HasSuffix(string(got.Raw), "\n") {
		t.Errorf("Raw %q", got.Raw)
	}
}

// TestReadAcrossFiles: rotated files are read oldest first (.10 before .2),
// and names that only look like them are left alone.
func TestReadAcrossFiles(t *testing.T) {
	home := testHome(t)
	dir, _ := home.Ensure("logs")
	for name, cmd := range map[string]string{
		"audit.jsonl.10": "oldest", "audit.jsonl.2": "older", "audit.jsonl.1": "newer", "audit.jsonl": "newest",
		"audit.jsonl.bak": "not a log file", "audit.jsonl.01": "not one either",
	} {
		l := New(home, "s", 1, fixedClock)
		mustLog(t, l, CommandTyped{Command: cmd})
		l.Close()
		os.Rename(home.AuditFile(), filepath.Join(dir, name+".tmp"))
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".tmp"); ok {
			os.Rename(filepath.Join(dir, e.Name()), filepath.Join(dir, name))
		}
	}
	got, _ := readCommands(t, home, Filter{})
	want := []string{"command.typed oldest", "command.typed older", "command.typed newer", "command.typed newest"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
}

func TestReadNoLog(t *testing.T) {
	home := testHome(t)
	if err := Read(home, Filter{}, nil); !errors.Is(err, ErrNoLog) {
		t.Errorf("no home: %v, want ErrNoLog", err)
	}
	home.Ensure("logs")
	if err := Read(home, Filter{}, nil); !errors.Is(err, ErrNoLog) {
		t.Errorf("empty logs folder: %v, want ErrNoLog", err)
	}
	os.WriteFile(home.AuditFile(), nil, 0o600)
	calls := 0
	if err := Read(home, Filter{}, func(Record) error { calls++; return nil }); err != nil || calls != 0 {
		t.Errorf("empty file: %v and %d records, want neither", err, calls)
	}
}

func TestReadStopsAtCallbackError(t *testing.T) {
	home := homeWith(t, map[string]string{"audit.jsonl": "testdata/damaged.jsonl"})
	stop := errors.New("stop")
	calls := 0
	err := Read(home, Filter{}, func(Record) error { calls++; return stop })
	if !errors.Is(err, stop) || calls != 1 {
		t.Errorf("Read returned %v after %d calls, want stop after 1", err, calls)
	}
}

// TestReadOverlongLine: a line past the bound is skipped as malformed and
// the next line is read.
func TestReadOverlongLine(t *testing.T) {
	defer func(n int) { maxLine = n }(maxLine)
	maxLine = 200
	home := testHome(t)
	l := New(home, "s", 1, fixedClock)
	mustLog(t, l, CommandTyped{Command: strings.Repeat("y", 300)})
	mustLog(t, l, CommandTyped{Command: "short"})
	l.Close()
	got, bad := readCommands(t, home, Filter{})
	if !reflect.DeepEqual(got, []string{"command.typed short"}) || len(bad) != 1 || bad[0].Line != 1 {
		t.Errorf("read %q with malformed %v; want the short line, and line 1 malformed", got, bad)
	}
}

// TestPeekHeaderAgrees: the cheap look at a line's start finds the time
// and event that decoding the whole line does, for every line the Logger
// writes, and declines lines of other shapes.
func TestPeekHeaderAgrees(t *testing.T) {
	data, _ := os.ReadFile("testdata/events.jsonl")
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		r, err := parseRecord([]byte(line))
		pt, pe, ok := peekHeader([]byte(line))
		if err != nil || !ok || !pt.Equal(r.Time) || pe != r.Event {
			t.Errorf("peek %v %q %v, decode %v %q %v", pt, pe, ok, r.Time, r.Event, err)
		}
	}
	for _, line := range []string{
		`{"event":"command.typed","time":"2026-10-14T12:00:00Z"}`,
		`{"time":"2026-10-14T12:00:00Z","event":"command\u002etyped"}`,
		`{"time":"2026-10-14T12:00:00Z", "event":"command.typed"}`,
		`{"time":"yesterday","event":"command.typed"}`,
	} {
		if _, _, ok := peekHeader([]byte(line)); ok {
			t.Errorf("peekHeader took %s", line)
		}
	}
}
