package chat

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/wisp-sh/wisp/internal/config"
)

// historyKeep is how many lines the history keeps across sessions.
const historyKeep = 1000

// History is the lines the person typed, most recent last, kept in a file
// under wisp's home (0600) so that up-arrow reaches lines of earlier
// sessions. The line editor browses it.
type History struct {
	path    string
	entries []string
	file    *os.File
}

// OpenHistory loads the history file at path (created when missing).
// When it has grown past twice what it keeps, it is rewritten atomically
// with the newest lines.
func OpenHistory(path string) (*History, error) {
	h := &History{path: path}
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("read the history %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if line := sc.Text(); line != "" {
			h.entries = append(h.entries, line)
		}
	}
	if len(h.entries) > 2*historyKeep {
		h.entries = h.entries[len(h.entries)-historyKeep:]
		if err := config.WriteFileAtomic(path, []byte(strings.Join(h.entries, "\n")+"\n")); err != nil {
			return nil, err
		}
	}
	h.file, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the history %s: %w", path, err)
	}
	return h, nil
}

// Add keeps a line, unless it is empty or repeats the last one.
func (h *History) Add(entry string) {
	if strings.TrimSpace(entry) == "" || strings.ContainsAny(entry, "\n\r") ||
		(len(h.entries) > 0 && h.entries[len(h.entries)-1] == entry) {
		return
	}
	h.entries = append(h.entries, entry)
	if h.file != nil {
		h.file.WriteString(entry + "\n") // a lost history line costs only recall
	}
}

// Len is the number of lines kept.
func (h *History) Len() int { return len(h.entries) }

// At is a line: 0 the most recent.
func (h *History) At(i int) string { return h.entries[len(h.entries)-1-i] }

// Close closes the file.
func (h *History) Close() error {
	if h == nil || h.file == nil {
		return nil
	}
	return h.file.Close()
}
