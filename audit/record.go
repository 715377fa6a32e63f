package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Record is one line of the audit log as read back.
type Record struct {
	Time    time.Time
	Event   string
	Session string
	PID     int
	// Fields holds the event's own fields by JSON name; numbers are
	// json.Number, so large ones keep every digit.
	Fields map[string]any
	Raw    json.RawMessage // the line as written, without its newline
}

// Filter chooses which records Read and Follow pass on.
type Filter struct {
	Event string    // only this event, when set
	Since time.Time // only records at or after this time, when set
	// OnMalformed, when set, hears of each line skipped because it is not
	// an audit record. A line whose time or event the filter rules out is
	// passed over before it is read in full, so damage further along it
	// goes unreported.
	OnMalformed func(Malformed)
}

// Malformed is a line that was skipped: where it is and why.
type Malformed struct {
	File   string
	Line   int
	Reason string
}

func (m Malformed) String() string { return fmt.Sprintf("%s:%d: %s", m.File, m.Line, m.Reason) }

func (f Filter) match(r Record) bool {
	return (f.Event == "" || r.Event == f.Event) && !r.Time.Before(f.Since)
}

func (f Filter) malformed(file string, line int, reason string) {
	if f.OnMalformed != nil {
		f.OnMalformed(Malformed{file, line, reason})
	}
}

var (
	errNoTime  = errors.New("no time")
	errNoEvent = errors.New("no event")
)

// parseRecord reads one line. It keeps line as Raw, so the caller passes a
// copy it will not reuse.
func parseRecord(line []byte) (Record, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	var fields map[string]any
	if err := dec.Decode(&fields); err != nil {
		return Record{}, fmt.Errorf("not JSON: %w", err)
	}
	if dec.More() || fields == nil {
		return Record{}, errors.New("not one JSON object")
	}
	r := Record{Fields: fields, Raw: line}
	if err := r.takeHeader(); err != nil {
		return Record{}, err
	}
	return r, nil
}

// takeHeader moves time, event, session and pid out of Fields.
func (r *Record) takeHeader() error {
	stamp, _ := r.Fields["time"].(string)
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil {
		return fmt.Errorf("%w: %q is not an RFC 3339 time", errNoTime, stamp)
	}
	event, _ := r.Fields["event"].(string)
	if event == "" {
		return errNoEvent
	}
	r.Time, r.Event = t, event
	r.Session, _ = r.Fields["session"].(string)
	if pid, ok := r.Fields["pid"].(json.Number); ok {
		n, _ := pid.Int64()
		r.PID = int(n)
	}
	for _, k := range []string{"time", "event", "session", "pid"} {
		delete(r.Fields, k)
	}
	return nil
}

var (
	timeOpening = []byte(`{"time":"`)
	eventKey    = []byte(`,"event":"`)
	quote       = []byte(`"`)
)

// peekHeader reads time and event from the start of a line as the Logger
// writes it, without decoding the rest, so that a filter can pass over
// most lines cheaply. ok is false for a line in any other shape, which is
// then decoded in full.
func peekHeader(line []byte) (t time.Time, event string, ok bool) {
	rest, ok := bytes.CutPrefix(line, timeOpening)
	if !ok {
		return t, "", false
	}
	stamp, rest, _ := bytes.Cut(rest, quote)
	if rest, ok = bytes.CutPrefix(rest, eventKey); !ok {
		return t, "", false
	}
	name, _, ok := bytes.Cut(rest, quote)
	if !ok || bytes.ContainsRune(name, '\\') {
		return t, "", false
	}
	t, err := time.Parse(time.RFC3339Nano, string(stamp))
	return t, string(name), err == nil
}
