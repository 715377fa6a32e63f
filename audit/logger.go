package audit

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// Rotation defaults: audit.jsonl is rotated when the next line would take
// it past RotateBytes, and RotatedFiles older files are kept
// (audit.jsonl.1 newest … audit.jsonl.5 oldest).
const (
	RotateBytes  = 10 << 20
	RotatedFiles = 5
)

// Logger appends events to wisp's audit log. It opens the file on its first
// event. A nil *Logger, and Discard(), accept events and write nothing.
// A Logger is safe for concurrent use, and any number of processes may
// write the same log at once.
type Logger struct {
	home    config.Home
	session string
	pid     int
	now     func() time.Time
	discard bool

	// rotateAt and keep are RotateBytes and RotatedFiles; tests lower them.
	rotateAt int64
	keep     int

	mu     sync.Mutex
	file   *os.File
	opened os.FileInfo // the file's fstat when opened: its identity
}

// New returns a Logger for the audit log in h, stamping every line with
// session and pid. now is the clock (time.Now when nil).
func New(h config.Home, session string, pid int, now func() time.Time) *Logger {
	if now == nil {
		now = time.Now
	}
	return &Logger{home: h, session: session, pid: pid, now: now, rotateAt: RotateBytes, keep: RotatedFiles}
}

// Discard returns a Logger that writes nothing, for callers with no home.
func Discard() *Logger { return &Logger{discard: true} }

// NewSession returns a short random session id: 8 lowercase hex characters.
func NewSession() string {
	var b [4]byte
	rand.Read(b[:]) // never fails (crypto/rand panics rather than return short)
	return hex.EncodeToString(b[:])
}

// Log appends e as one line. It returns an error when the line could not be
// written whole; the caller decides whether that stops what it is doing.
func (l *Logger) Log(e Event) error {
	if l == nil || l.discard {
		return nil
	}
	line, err := l.encode(e)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := l.fileFor(int64(len(line)))
	if err != nil {
		return fmt.Errorf("audit %s: %w", e.EventName(), err)
	}
	if err := appendLine(f, line); err != nil {
		return fmt.Errorf("audit %s to %s: %w", e.EventName(), l.home.AuditFile(), err)
	}
	return nil
}

// Close closes the file; a later Log opens it again.
func (l *Logger) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closeFile()
}

func (l *Logger) closeFile() error {
	if l.file == nil {
		return nil
	}
	err := l.file.Close()
	l.file = nil
	return err
}

// header is what every line starts with, in this order.
type header struct {
	Time    string `json:"time"`
	Event   string `json:"event"`
	Session string `json:"session"`
	PID     int    `json:"pid"`
}

var errNotObject = errors.New("event does not encode as a JSON object")

// encode builds the whole line, newline included, so that it can be
// written with one write(2).
func (l *Logger) encode(e Event) ([]byte, error) {
	name := e.EventName()
	if name == "" {
		return nil, fmt.Errorf("audit %T: the event has no name", e)
	}
	head, err := marshal(header{l.now().UTC().Format(time.RFC3339Nano), name, l.session, l.pid})
	if err != nil {
		return nil, err
	}
	body, err := marshal(e)
	if err != nil {
		return nil, fmt.Errorf("audit %s: %w", name, err)
	}
	if len(body) < 2 || body[0] != '{' {
		return nil, fmt.Errorf("audit %s: %w", name, errNotObject)
	}
	line := head[:len(head)-1] // drop "}"
	if len(body) > 2 {
		line = append(append(line, ','), body[1:]...)
	} else {
		line = append(line, '}')
	}
	return append(line, '\n'), nil
}

// marshal is json.Marshal without HTML escaping, so that a command's
// && and < read as typed, and without the encoder's trailing newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
