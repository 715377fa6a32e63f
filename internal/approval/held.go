package approval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"sync"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/policy"
)

// Scope is how far an approval reaches.
type Scope string

const (
	Once    Scope = "once"    // this run only
	Session Scope = "session" // the same line, for the rest of this process
	Project Scope = "project" // the same line, in this project, kept in approvals.json
	Always  Scope = "always"  // the same line, anywhere, kept in approvals.json
)

// AllScopes is every scope, narrowest first.
var AllScopes = []Scope{Once, Session, Project, Always}

// ParseScope reads a scope word.
func ParseScope(s string) (Scope, error) {
	for _, sc := range AllScopes {
		if string(sc) == s {
			return sc, nil
		}
	}
	return "", fmt.Errorf("%q is not a scope: use once, session, project or always", s)
}

// Held is what stays approved: the session's memory, and approvals.json
// (project and always). A held line covers the exact same line; a held
// prefix ("go test …", see policy.LineCommands) covers every command whose
// words begin with it.
//
// approvals.json keeps a prefix in the same lists as a line, as its words
// and policy.PrefixMark, so that its format stays the one an older wisp
// reads: there it is a line no model's command is, and it matches nothing.
type Held struct {
	path    string
	mu      sync.Mutex
	session map[string]bool
}

// heldFile is approvals.json.
type heldFile struct {
	Version int                 `json:"version"`
	Project map[string][]string `json:"project"` // project root -> lines
	Always  []string            `json:"always"`
}

// NewHeld reads nothing yet: approvals.json is read on every check, so an
// approval given in another process counts at once.
func NewHeld(h config.Home) *Held {
	return &Held{path: h.ApprovalsFile(), session: map[string]bool{}}
}

// Covers reports the scope that holds the exact line in project, if any.
func (h *Held) Covers(line, project string) (Scope, error) {
	h.mu.Lock()
	inSession := h.session[line]
	h.mu.Unlock()
	if inSession {
		return Session, nil
	}
	f, err := h.load()
	if err != nil {
		return "", err
	}
	switch {
	case slices.Contains(f.Always, line):
		return Always, nil
	case slices.Contains(f.Project[project], line):
		return Project, nil
	}
	return "", nil
}

// CoversByPrefix reports the scope under which held prefixes (and held
// lines, command by command) cover line at threshold, if any.
func (h *Held) CoversByPrefix(line, project string, threshold policy.Level) (Scope, error) {
	f, err := h.load()
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return coversByPrefix(line, threshold, func(entry string) Scope {
		switch {
		case h.session[entry]:
			return Session
		case slices.Contains(f.Project[project], entry):
			return Project
		case slices.Contains(f.Always, entry):
			return Always
		}
		return ""
	}), nil
}

// Keep remembers line at scope. Once keeps nothing.
func (h *Held) Keep(line, project string, scope Scope) error {
	switch scope {
	case Session:
		h.mu.Lock()
		h.session[line] = true
		h.mu.Unlock()
		return nil
	case Project, Always:
		return h.update(func(f *heldFile) {
			if scope == Always {
				f.Always = appendNew(f.Always, line)
				return
			}
			f.Project[project] = appendNew(f.Project[project], line)
		})
	}
	return nil
}

// Entry is one held approval in approvals.json.
type Entry struct {
	Scope   Scope  `json:"scope"`
	Project string `json:"project,omitempty"`
	// Line is the line held, or a prefix's words and policy.PrefixMark.
	Line string `json:"line"`
	// Prefix says Line is a prefix: it holds every command that begins
	// with its words.
	Prefix bool `json:"prefix,omitempty"`
}

// List returns the held project and always approvals.
func (h *Held) List() ([]Entry, error) {
	f, err := h.load()
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, l := range f.Always {
		out = append(out, Entry{Scope: Always, Line: l, Prefix: isPrefix(l)})
	}
	for _, p := range sortedProjects(f.Project) {
		for _, l := range f.Project[p] {
			out = append(out, Entry{Scope: Project, Project: p, Line: l, Prefix: isPrefix(l)})
		}
	}
	return out, nil
}

// String is the entry's line in a listing of held approvals, the same in
// `wisp approvals list` and chat's /approvals: its scope, whether it is a
// line or a prefix, the line shown escaped, and where it holds.
func (e Entry) String() string {
	where := "everywhere"
	if e.Scope == Project {
		where = e.Project
	}
	kind := "line"
	if e.Prefix {
		kind = "prefix"
	}
	return fmt.Sprintf("%-7s %-6s %s  (%s)", e.Scope, kind, render.Line(e.Line), render.Line(where))
}

// Forget drops every held approval of line (all of them when all is
// true) and returns how many went.
func (h *Held) Forget(line string, all bool) (int, error) {
	n := 0
	err := h.update(func(f *heldFile) {
		drop := func(ls []string) []string {
			return slices.DeleteFunc(ls, func(l string) bool {
				if all || l == line {
					n++
					return true
				}
				return false
			})
		}
		f.Always = drop(f.Always)
		for p := range f.Project {
			if f.Project[p] = drop(f.Project[p]); len(f.Project[p]) == 0 {
				delete(f.Project, p)
			}
		}
	})
	return n, err
}

// InvalidFileError says approvals.json cannot be read; it is left as it is.
type InvalidFileError struct {
	Path string
	Err  error
}

func (e *InvalidFileError) Error() string {
	return fmt.Sprintf("%s is invalid (%v); fix or remove it by hand: wisp never overwrites it", e.Path, e.Err)
}
func (e *InvalidFileError) Unwrap() error { return e.Err }

func (h *Held) load() (*heldFile, error) {
	f := &heldFile{Version: 1, Project: map[string][]string{}}
	data, err := config.ReadStateFile(h.path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	var unsafe *config.UnsafeError
	if errors.As(err, &unsafe) {
		return nil, err // a link, another's, or writable by others: never read
	}
	if err != nil {
		return nil, fmt.Errorf("read held approvals: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(f); err != nil {
		return nil, &InvalidFileError{h.path, err}
	}
	if f.Version != 1 {
		return nil, &InvalidFileError{h.path, fmt.Errorf("version %d is not one this wisp reads", f.Version)}
	}
	if f.Project == nil {
		f.Project = map[string][]string{}
	}
	return f, nil
}

// update rewrites approvals.json atomically. Concurrent wisp processes may
// race; the lock file makes each read-modify-write whole.
func (h *Held) update(change func(*heldFile)) error {
	unlock, err := lockFile(h.path + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	f, err := h.load()
	if err != nil {
		return err
	}
	change(f)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return config.WriteFileAtomic(h.path, append(data, '\n'))
}

func appendNew(ls []string, l string) []string {
	if slices.Contains(ls, l) {
		return ls
	}
	return append(ls, l)
}

func sortedProjects(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
