package gitguard

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// Confined commands run side by side: the served helper runs an MCP
// client's calls at once, and chat or the tui can start one while another
// runs. Were each to snapshot git's files for itself, a command starting
// while another runs would take that one's planted hook for the person's,
// and its put-back would plant it again after the other's put-back took it
// out (issue 26). So the commands that overlap share one baseline: the
// state of git's files taken when no confined command ran, which is the
// state the person left. Each command's put-back puts back to it.
//
// Two wisp processes that share wisp's home and the writable roots (wisp
// mcp and wisp chat in one project) share it too, through a record in
// wisp's home: the leases of the commands that run, and the baseline,
// written atomically under a lock. A confined command can write neither.
// A wisp that ended without giving its lease back leaves the baseline for
// the next command, which puts back to it first.

// Snapshot is one confined command's hold on the baseline, taken before
// the command (Scope.Snapshot) and given back by PutBack once every
// process of the command has ended.
type Snapshot struct {
	key   string
	lease string
	state *gitState
	file  baselineFile
	stale []PutBack // what was put back to the baseline of a wisp that ended without it
	done  bool
}

// registry is this process's side of the baselines, by key.
var registry = struct {
	sync.Mutex
	held map[string]*heldBaseline
}{held: map[string]*heldBaseline{}}

type heldBaseline struct {
	state  *gitState
	token  string          // names the baseline in the record
	leases map[string]bool // this process's leases on it
}

// Scope is what a snapshot covers: the writable roots, wisp's home (never
// touched; the baseline's record is kept there) and the person's git
// environment (NewEnv).
type Scope struct {
	Roots []string
	Home  string
	Env   Env
}

// Snapshot takes a hold on the state of git's control files under the
// scope's roots that the runner puts back after the command (PutBack). When
// no other confined command runs on these roots, in this process or in
// another wisp sharing its home, that is the state now; otherwise it is
// the state before the first of them. It fails, and no command should
// run, when wisp cannot check what it would have to (UncheckedError),
// or cannot keep its record in wisp's home.
func (s Scope) Snapshot() (*Snapshot, error) {
	registry.Lock()
	defer registry.Unlock()
	key := baselineKey(s)
	file := baselineFileFor(s.Home, key)
	unlock, err := file.lock()
	if err != nil {
		return nil, err
	}
	defer unlock()
	rec, err := file.read()
	if err != nil {
		return nil, err
	}
	held := registry.held[key]
	rec.addHeld(held)
	live := rec.liveLeases(held)
	g := &Snapshot{key: key, lease: randomToken(), file: file}
	switch {
	case len(live) > 0 && held != nil && held.token == rec.Token:
	case len(live) > 0:
		state, err := decodeBaseline(rec.Baseline)
		if err != nil {
			return nil, fmt.Errorf("sandbox: wisp could not read the state of git's files that another wisp keeps in %s: %w", file.path, err)
		}
		held = &heldBaseline{state: state, token: rec.Token, leases: map[string]bool{}}
	default:
		g.stale = putBackStale(rec, held, file.path)
		state, err := newGitState(s)
		if err != nil {
			file.remove()
			delete(registry.held, key)
			return nil, err
		}
		held = &heldBaseline{state: state, token: randomToken(), leases: map[string]bool{}}
		if rec.Baseline, err = encodeBaseline(state); err != nil {
			return nil, err
		}
		rec.Token = held.token
	}
	rec.Leases = append(live, leaseRecord{PID: os.Getpid(), Start: selfStart(), ID: g.lease})
	if err := file.write(rec); err != nil {
		return nil, fmt.Errorf("sandbox: wisp could not record in its home that a confined command runs, which other wisps must know to leave its work alone: %w", err)
	}
	held.leases[g.lease] = true
	registry.held[key] = held
	g.state = held.state
	return g, nil
}

// putBackStale puts back to a baseline whose every lease is gone: the
// wisps that held it ended without their put-back.
func putBackStale(rec baselineRecord, held *heldBaseline, where string) []PutBack {
	if rec.Token == "" {
		return nil
	}
	if held != nil && held.token == rec.Token {
		return held.state.putBack()
	}
	state, err := decodeBaseline(rec.Baseline)
	if err != nil {
		return []PutBack{{Path: where, Err: fmt.Errorf("a wisp that ended without putting back git's files left a record wisp cannot read: %w", err)}}
	}
	return state.putBack()
}

// PutBack undoes what was written to the recorded control files since the
// baseline, checks every repository that appeared, gives the hold back,
// and says what it did. It is sound only once every process of the
// command has ended: a process left behind could write again after it.
// While another command that shares the baseline runs, what that one has
// written so far is put back too; its own put-back checks again.
func (g *Snapshot) PutBack() []PutBack {
	if g == nil || g.done {
		return nil
	}
	g.done = true
	registry.Lock()
	defer registry.Unlock()
	held := registry.held[g.key]
	if held != nil {
		delete(held.leases, g.lease)
		if len(held.leases) == 0 {
			// This process holds it no more: were it kept, it would
			// outlive the other wisps' leases, and be taken for a baseline
			// left behind once they ended. Another command here while
			// they run reads it from the record again.
			delete(registry.held, g.key)
		}
	}
	// Without the lock the lease stays in the record: other wisps keep to
	// this baseline until this process has ended.
	unlock, lockErr := g.file.lock()
	if lockErr == nil {
		defer unlock()
	}
	done := append(g.stale, g.state.putBack()...)
	if lockErr != nil {
		return done
	}
	rec, err := g.file.read()
	if err != nil {
		return done
	}
	rec.Leases = slices.DeleteFunc(rec.Leases, func(l leaseRecord) bool { return l.ID == g.lease })
	rec.addHeld(held)
	if live := rec.liveLeases(held); len(live) > 0 {
		rec.Leases = live
		g.file.write(rec) // on failure the lease stays, as above
		return done
	}
	g.file.remove()
	return done
}

// baselineKey names the baseline of a scope's roots: wisps share one when
// they share wisp's home, the roots and the git configuration they read.
func baselineKey(s Scope) string {
	data, _ := json.Marshal(struct {
		Home, GitHome, Template string
		Roots, Configs          []string
	}{s.Home, s.Env.home, s.Env.template, s.Roots, s.Env.configs})
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:12])
}

func randomToken() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// baselineRecord is the record in wisp's home: a line of JSON with the
// token and the leases, then the baseline's JSON, which only a wisp that
// joins or finds the baseline stale decodes.
type baselineRecord struct {
	Token    string        `json:"token,omitempty"`
	Leases   []leaseRecord `json:"leases,omitempty"`
	Baseline []byte        `json:"-"`
}

// leaseRecord is one running command's lease.
type leaseRecord struct {
	PID   int    `json:"pid"`
	Start string `json:"start,omitempty"` // when the process started, so that a pid used again is not taken for it
	ID    string `json:"id"`
}

// addHeld adds this process's leases to the record, should it have lost
// them (its file removed meanwhile, or no home to keep it in).
func (r *baselineRecord) addHeld(held *heldBaseline) {
	if held == nil || len(held.leases) == 0 {
		return
	}
	if r.Token == "" {
		r.Token = held.token
	}
	for id := range held.leases {
		if !slices.ContainsFunc(r.Leases, func(l leaseRecord) bool { return l.ID == id }) {
			r.Leases = append(r.Leases, leaseRecord{PID: os.Getpid(), Start: selfStart(), ID: id})
		}
	}
}

// liveLeases are the record's leases whose wisp still runs them: this
// process's those it holds, another's while it runs.
func (r baselineRecord) liveLeases(held *heldBaseline) []leaseRecord {
	var live []leaseRecord
	for _, l := range r.Leases {
		own := l.PID == os.Getpid() && l.Start == selfStart()
		if own && held != nil && held.leases[l.ID] || !own && processRuns(l.PID, l.Start) {
			live = append(live, l)
		}
	}
	return live
}

var selfStart = sync.OnceValue(func() string { return processStart(os.Getpid()) })

// baselineFile is where the record lives: path, and path+".lock". With no
// path (no home) the baseline is this process's alone.
type baselineFile struct{ path string }

// maxBaselineRecord bounds what is read: a record holds at most the
// control files' kept bytes, a few kilobytes each.
const maxBaselineRecord = 256 << 20

func baselineFileFor(home, key string) baselineFile {
	if home == "" || !canShareBaselines {
		return baselineFile{}
	}
	return baselineFile{path: filepath.Join(home, "git-baseline", key+".json")}
}

func (f baselineFile) lock() (unlock func(), err error) {
	if f.path == "" {
		return func() {}, nil
	}
	if err := os.MkdirAll(filepath.Dir(f.path), 0o700); err != nil {
		return nil, fmt.Errorf("sandbox: wisp could not make the folder for its record of git's files: %w", err)
	}
	return lockFile(f.path + ".lock")
}

func (f baselineFile) read() (baselineRecord, error) {
	var rec baselineRecord
	if f.path == "" {
		return rec, nil
	}
	data, err := readOwnFile(f.path, maxBaselineRecord)
	switch {
	case os.IsNotExist(err):
		return rec, nil
	case err == nil:
		var head []byte
		head, rec.Baseline, _ = bytes.Cut(data, []byte("\n"))
		err = json.Unmarshal(head, &rec)
	}
	if err != nil {
		return rec, fmt.Errorf("sandbox: wisp's record of git's files, %s, cannot be read (%v): remove it when no wisp runs a command in this project", f.path, err)
	}
	return rec, nil
}

func (f baselineFile) write(rec baselineRecord) error {
	if f.path == "" {
		return nil
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	data = append(append(data, '\n'), rec.Baseline...)
	tmp, err := os.CreateTemp(filepath.Dir(f.path), ".record-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), f.path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// remove removes the record. The lock file stays: made and removed with
// each command, it made a command's put-back cost half as much again on
// a busy disk.
func (f baselineFile) remove() {
	if f.path != "" {
		os.Remove(f.path)
	}
}
