package agent

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/runner"
)

// ThreadInfo is one thread as a list shows it.
type ThreadInfo struct {
	ID       string
	Dir      string // the folder it works in: the start's, or the last resume's
	Modified time.Time
	First    string // the first message, "" when it has none
	// Messages counts the person's messages and commands the thread
	// keeps: a message the model never answered (dropped with a
	// modelError, as a failed wisp respond's) is not one.
	Messages int
	Undos    int // its /undo and /redo, as read in its head
}

// headBytes bounds how much of a thread a list reads.
const headBytes = 256 << 10

// ListThreads lists the threads in dir, the newest first. A file that
// cannot be read is left out: a list is not the place to stop on one.
func ListThreads(dir string) ([]ThreadInfo, error) {
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	var out []ThreadInfo
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		info, err := e.Info()
		if !ok || err != nil || !runner.ValidID(id) || !info.Mode().IsRegular() {
			continue
		}
		ti, err := threadHead(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		ti.ID, ti.Modified = id, info.ModTime()
		out = append(out, ti)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Modified.Equal(out[j].Modified) {
			return out[i].Modified.After(out[j].Modified)
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

// threadHead reads the start of a thread: its folder, its first message,
// how many the person sent.
func threadHead(path string) (ThreadInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return ThreadInfo{}, err
	}
	defer f.Close()
	var ti ThreadInfo
	sc := bufio.NewScanner(io.LimitReader(f, headBytes))
	sc.Buffer(make([]byte, 0, 64<<10), headBytes)
	firstUnanswered := false // First is a message the model has not answered yet
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		switch r.Kind {
		case RecordStart, RecordResume:
			if r.Dir != "" {
				ti.Dir = r.Dir
			}
		case RecordUser:
			ti.Messages++
			if ti.First == "" {
				ti.First, firstUnanswered = r.Text, true
			}
		case RecordAssistant:
			firstUnanswered = false
		case RecordModelError:
			if r.Dropped && ti.Messages > 0 {
				ti.Messages--
				if firstUnanswered {
					ti.First, firstUnanswered = "", false
				}
			}
		case RecordUndo:
			ti.Undos++
		case RecordPersonCommand:
			ti.Messages++
			if ti.First == "" && r.PersonCommand != nil {
				ti.First = "!" + r.Command
			}
		}
	}
	return ti, nil
}

// LatestThreadIn is the newest thread working in folder that holds a
// message, for --resume without an id.
func LatestThreadIn(dir, folder string) (string, error) {
	all, err := ListThreads(dir)
	if err != nil {
		return "", err
	}
	for _, ti := range all {
		if ti.Dir == folder && ti.Messages > 0 {
			return ti.ID, nil
		}
	}
	return "", fmt.Errorf("there is no thread with a message to resume for %s in %s; start one with wisp chat, "+
		"or list them all with wisp threads", folder, dir)
}

// ThreadFolder is the folder a thread's records say it works in.
func ThreadFolder(records []Record) string {
	folder := ""
	for _, r := range records {
		if (r.Kind == RecordStart || r.Kind == RecordResume) && r.Dir != "" {
			folder = r.Dir
		}
	}
	return folder
}
