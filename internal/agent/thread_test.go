package agent

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/model"
)

func TestThreadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "threads")
	th, err := CreateThread(dir, time.Now, Record{Dir: "/p", Model: "m", Face: "chat"})
	if err != nil {
		t.Fatal(err)
	}
	zero := 0
	for _, r := range []Record{
		{Kind: RecordUser, Text: "hi"},
		{Kind: RecordAssistant, Text: "looking", ToolCalls: []RecordToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"ls"}`}}},
		{Kind: RecordTool, CallID: "c1", Name: "run_command", Text: "a\n[exit status 0]"},
		{Kind: RecordAssistant, Text: "done"},
		{Kind: RecordPersonCommand, PersonCommand: &PersonCommand{Command: "make", ExitCode: &zero, Notice: "ran make"}},
		{Kind: RecordPersonCommand, PersonCommand: &PersonCommand{Command: "brew upgrade", OutsideSandbox: true, Notice: "ran brew"}},
		{Kind: RecordUser, Text: "and now?"},
		{Kind: RecordModelError, Text: "down", Dropped: true},
	} {
		if err := th.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	th.Close()
	info, err := os.Stat(th.Path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("thread file %v, %v; want 0600", info, err)
	}
	recs, err := ReadThread(dir, th.ID)
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].Kind != RecordStart || recs[0].ID != th.ID || recs[0].Dir != "/p" {
		t.Errorf("start record %+v", recs[0])
	}
	want := []model.Message{
		{Role: "user", Content: "hi"},
		{Role: "assistant", Content: "looking", ToolCalls: []model.ToolCall{{ID: "c1", Name: "run_command", Arguments: `{"command":"ls"}`}}},
		{Role: "tool", Content: "a\n[exit status 0]", ToolCallID: "c1"},
		{Role: "assistant", Content: "done"},
		{Role: "user", Content: "ran make"},
		{Role: "user", Content: "ran brew"},
	}
	if got := HistoryOf(recs); !reflect.DeepEqual(got, want) {
		t.Errorf("history\n got %+v\nwant %+v", got, want)
	}
	data, _ := os.ReadFile(th.Path)
	lines := strings.Split(string(data), "\n")
	if strings.Contains(lines[5], "outsideSandbox") || !strings.Contains(lines[6], `"outsideSandbox":true`) {
		t.Errorf("outsideSandbox must be written only when true:\n%s\n%s", lines[5], lines[6])
	}
}

func TestThreadReadSkipsATornLastLineOnly(t *testing.T) {
	dir := t.TempDir()
	id := NewThreadID(time.Now())
	whole := `{"kind":"start","time":"2026-10-14T12:00:00Z","id":"` + id + `"}` + "\n" + `{"kind":"user","time":"2026-10-14T12:00:01Z","text":"hi"}` + "\n"
	os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(whole+`{"kind":"assis`), 0o600)
	recs, err := ReadThread(dir, id)
	if err != nil || len(recs) != 2 {
		t.Fatalf("a torn last line: %d records, %v", len(recs), err)
	}
	os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(`{"kind":"st`+"\n"+whole), 0o600)
	if _, err := ReadThread(dir, id); err == nil || !strings.Contains(err.Error(), "damaged at line 1") {
		t.Errorf("a damaged line inside: %v", err)
	}
}

func TestHistoryAnswersCallsLeftOpen(t *testing.T) {
	recs := []Record{
		{Kind: RecordUser, Text: "go"},
		{Kind: RecordAssistant, ToolCalls: []RecordToolCall{{ID: "a", Name: "run_command"}, {ID: "b", Name: "inspect"}}},
		{Kind: RecordTool, CallID: "a", Text: "ok"},
		// wisp stopped here: b never got its result
		{Kind: RecordUser, Text: "again"},
	}
	h := HistoryOf(recs)
	if len(h) != 5 || h[3].Role != model.RoleTool || h[3].ToolCallID != "b" || h[3].Content != interruptedResult || h[4].Content != "again" {
		t.Errorf("history %+v", h)
	}
}

func TestLatestThreadAndIDs(t *testing.T) {
	dir := t.TempDir()
	if _, err := LatestThread(dir); err == nil {
		t.Error("a folder with no thread has a latest")
	}
	old, _ := CreateThread(dir, time.Now, Record{})
	newer, _ := CreateThread(dir, time.Now, Record{})
	old.Close()
	newer.Close()
	past := time.Now().Add(-time.Hour)
	os.Chtimes(old.Path, past, past)
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o600)
	if got, err := LatestThread(dir); err != nil || got != newer.ID {
		t.Errorf("latest = %s, %v; want %s", got, err, newer.ID)
	}
	if _, err := OpenThread(dir, "../config", time.Now); err == nil {
		t.Error("a path was taken for a thread id")
	}
}

func TestWireJoinsThePersonsConsecutiveMessages(t *testing.T) {
	got := wire("sys", []model.Message{{Role: "user", Content: "notice\n"}, {Role: "user", Content: "question"}, {Role: "assistant", Content: "a"}})
	if len(got) != 3 || got[1].Content != "notice\n\nquestion" || got[0].Role != model.RoleSystem {
		t.Errorf("wire = %+v", got)
	}
}

// A NewThread writes no file until its first record; then the start
// record, what was deferred, and the record. Fresh starts another like it.
func TestNewThreadIsWrittenFromItsFirstRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "threads")
	th := NewThread(dir, time.Now, Record{Dir: "/p", Face: "chat"})
	th.Defer(Record{Kind: RecordResume, Dir: "/p"})
	th.Close()
	if _, err := os.Stat(th.Path); err == nil || th.Written() {
		t.Fatal("a thread without a record has a file")
	}
	if err := th.Append(Record{Kind: RecordUser, Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	recs, err := ReadThread(dir, th.ID)
	if err != nil || len(recs) != 3 || recs[0].Kind != RecordStart || recs[0].ID != th.ID || recs[1].Kind != RecordResume ||
		recs[2].Text != "hi" {
		t.Fatalf("records %+v, %v", recs, err)
	}
	fresh := th.Fresh()
	if fresh.ID == th.ID || fresh.Written() {
		t.Errorf("Fresh gave %s, written %v", fresh.ID, fresh.Written())
	}
	if id, err := LatestThreadIn(dir, "/p"); err != nil || id != th.ID {
		t.Errorf("LatestThreadIn = %q, %v", id, err)
	}
	if _, err := LatestThreadIn(dir, "/elsewhere"); err == nil {
		t.Error("a thread of another folder was taken")
	}
}
