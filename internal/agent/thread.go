package agent

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/wisp-sh/wisp/internal/runner"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Record kinds of a thread file.
const (
	RecordStart         = "start"         // the first line: where and with what the thread began
	RecordUser          = "user"          // the person's message
	RecordAssistant     = "assistant"     // the model's answer: text and tool calls
	RecordTool          = "tool"          // a tool call's result, as the model read it
	RecordPersonCommand = "personCommand" // a command the person typed after ! or !!
	RecordModelError    = "modelError"    // the model could not answer
	RecordResume        = "resume"        // the thread was continued by a later wisp
)

// Record is one line of threads/<id>.jsonl. Fields are set by kind.
type Record struct {
	Kind string    `json:"kind"`
	Time time.Time `json:"time"`

	// start, resume
	ID    string `json:"id,omitempty"`
	Dir   string `json:"dir,omitempty"`
	Model string `json:"model,omitempty"`
	Face  string `json:"face,omitempty"` // chat, chat --json, respond

	Text      string           `json:"text,omitempty"`
	ToolCalls []RecordToolCall `json:"toolCalls,omitempty"`
	CallID    string           `json:"callId,omitempty"`   // tool
	Name      string           `json:"name,omitempty"`     // tool
	OutputID  string           `json:"outputId,omitempty"` // tool: run_command's stored output

	*PersonCommand

	// modelError: the person's message was taken back from what the model
	// will read, because the model never answered it.
	Dropped bool `json:"dropped,omitempty"`
}

// PersonCommand is a command the person typed. OutsideSandbox is written
// only when true (docs/decisions.md, D29), so records from before !! read
// the same.
type PersonCommand struct {
	Command        string `json:"command"`
	OutsideSandbox bool   `json:"outsideSandbox,omitempty"`
	ExitCode       *int   `json:"exitCode,omitempty"`
	// Notice is what the model was told: that the person ran it, and what
	// came of it.
	Notice string `json:"notice"`
}

// RecordToolCall is one tool call of an assistant record.
type RecordToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Thread is one conversation's record, appended a line at a time: a
// crash loses at most the line being written, and a torn last line is
// skipped when the thread is read.
type Thread struct {
	ID   string
	Path string
	f    *os.File
	now  func() time.Time

	// A thread made with NewThread has no file until its first record
	// past the start: dir and start make it then. deferred are written
	// before the next record (a resume's mark).
	dir      string
	start    Record
	deferred []Record
}

// NewThreadID is sortable by time, like output ids.
func NewThreadID(now time.Time) string { return runner.NewID(now) }

// CreateThread starts a new thread file in dir (threads/, 0700) with its
// start record.
func CreateThread(dir string, now func() time.Time, start Record) (*Thread, error) {
	id := NewThreadID(now())
	t, err := openThread(dir, id, os.O_CREATE|os.O_EXCL, now)
	if err != nil {
		return nil, err
	}
	start.Kind, start.ID = RecordStart, id
	t.start = start
	if err := t.Append(start); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

// NewThread is a thread that writes nothing until its first record: the
// file and its start record are made then, so a chat left without a word
// leaves no thread behind.
func NewThread(dir string, now func() time.Time, start Record) *Thread {
	id := NewThreadID(now())
	start.Kind, start.ID = RecordStart, id
	return &Thread{ID: id, Path: filepath.Join(dir, id+".jsonl"), now: now, dir: dir, start: start}
}

// Fresh is a new thread like t: the same folder and start, a new id, no
// file yet (/new).
func (t *Thread) Fresh() *Thread {
	start := t.start
	start.Time = time.Time{}
	return NewThread(filepath.Dir(t.Path), t.now, start)
}

// Defer writes r before the next record, and not at all if none comes.
func (t *Thread) Defer(r Record) {
	if r.Time.IsZero() {
		r.Time = t.now().UTC()
	}
	t.deferred = append(t.deferred, r)
	if t.start.Kind == "" { // a resumed thread: /new starts like it
		t.start = Record{Kind: RecordStart, Dir: r.Dir, Model: r.Model, Face: r.Face}
	}
}

// Written reports whether the thread has a file.
func (t *Thread) Written() bool { return t != nil && t.f != nil }

// OpenThread opens an existing thread to append to it.
func OpenThread(dir, id string, now func() time.Time) (*Thread, error) {
	if !runner.ValidID(id) {
		return nil, fmt.Errorf("%q is not a thread id (they look like 20261014T125100-1a2b3c4d); "+
			"the ids are the file names in %s", id, dir)
	}
	return openThread(dir, id, 0, now)
}

func openThread(dir, id string, flags int, now func() time.Time) (*Thread, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the threads folder %s: %w", dir, err)
	}
	path := filepath.Join(dir, id+".jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no thread %s in %s", id, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("open thread %s: %w", id, err)
	}
	return &Thread{ID: id, Path: path, f: f, now: now, dir: dir}, nil
}

// materialise makes a NewThread's file with its start record.
func (t *Thread) materialise() error {
	made, err := openThread(t.dir, t.ID, os.O_CREATE|os.O_EXCL, t.now)
	if err != nil {
		return err
	}
	t.f = made.f
	start := t.start
	start.Time = t.now().UTC()
	return t.write(start)
}

// Append writes one record as one line, in one write, and syncs it.
func (t *Thread) Append(r Record) error {
	if t == nil {
		return nil
	}
	if t.f == nil {
		if err := t.materialise(); err != nil {
			return err
		}
	}
	for len(t.deferred) > 0 {
		d := t.deferred[0]
		t.deferred = t.deferred[1:]
		if err := t.write(d); err != nil {
			return err
		}
	}
	return t.write(r)
}

func (t *Thread) write(r Record) error {
	if r.Time.IsZero() {
		r.Time = t.now().UTC()
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode a thread record: %w", err)
	}
	if _, err := t.f.Write(append(line, '\n')); err != nil {
		return fmt.Errorf("write thread %s: %w", t.ID, err)
	}
	return t.f.Sync()
}

// Close closes the file.
func (t *Thread) Close() error {
	if t == nil || t.f == nil {
		return nil
	}
	return t.f.Close()
}

// ReadThread reads a thread's records. A last line that is torn (no
// newline, or not JSON) is skipped: it is the write a crash cut short.
// A damaged line elsewhere is an error, since reading past it would give
// the model a conversation that never happened.
func ReadThread(dir, id string) ([]Record, error) {
	if !runner.ValidID(id) {
		return nil, fmt.Errorf("%q is not a thread id", id)
	}
	data, err := os.ReadFile(filepath.Join(dir, id+".jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no thread %s in %s; run ls %s to see them", id, dir, dir)
	}
	if err != nil {
		return nil, fmt.Errorf("read thread %s: %w", id, err)
	}
	return parseRecords(data, id)
}

func parseRecords(data []byte, id string) ([]Record, error) {
	var out []Record
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	complete := bytes.HasSuffix(data, []byte("\n"))
	for n := 1; sc.Scan(); n++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			if isLastLine(data, sc.Bytes()) && !complete {
				break
			}
			return nil, fmt.Errorf("thread %s is damaged at line %d: %w", id, n, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read thread %s: %w", id, err)
	}
	return out, nil
}

func isLastLine(data, line []byte) bool {
	return bytes.HasSuffix(bytes.TrimRight(data, "\n"), line)
}

// LatestThread is the id of the thread written to last, for --resume
// without an id.
func LatestThread(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("list threads: %w", err)
	}
	type found struct {
		id  string
		mod time.Time
	}
	var all []found
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		info, err := e.Info()
		if !ok || err != nil || !runner.ValidID(id) || !info.Mode().IsRegular() {
			continue
		}
		all = append(all, found{id, info.ModTime()})
	}
	if len(all) == 0 {
		return "", fmt.Errorf("there is no thread to resume in %s; start one with wisp chat", dir)
	}
	sort.Slice(all, func(i, j int) bool {
		if !all[i].mod.Equal(all[j].mod) {
			return all[i].mod.After(all[j].mod)
		}
		return all[i].id > all[j].id
	})
	return all[0].id, nil
}
