package modeltest

import (
	"bytes"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/txtar"
)

// A Case is one recorded exchange with a model server, read from a txtar
// file (see testdata/replay/README.md): header fields that say where the
// bytes come from and what a client should make of them, and the responses
// the server sent, in order.
type Case struct {
	Name      string // the file's path under the corpus, without .txt
	Fields    []Field
	Responses []Response
}

// Field is one "key: value" line of a case's header.
type Field struct {
	Key, Value string
	Line       int // in the case file, for messages
}

// Get is the value of the first field named key, "" if none.
func (c *Case) Get(key string) string {
	for _, f := range c.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return ""
}

// All is the values of every field named key, in order.
func (c *Case) All(key string) []string {
	var out []string
	for _, f := range c.Fields {
		if f.Key == key {
			out = append(out, f.Value)
		}
	}
	return out
}

// End is how a response's body ends.
type End int

const (
	// EndClose ends the body cleanly: the handler returns.
	EndClose End = iota
	// EndCut drops the connection where <<cut>> stands, as a server that
	// died mid-answer does.
	EndCut
	// EndHang sends nothing more until the client goes away or the server
	// closes, then drops the connection.
	EndHang
)

// Response is one recorded HTTP response and the request it answers.
type Response struct {
	Method, Path string // the request it answers
	Status       int
	Header       http.Header
	// Delay is how long the server waits before it sends the status line
	// (a model loading before its first byte).
	Delay time.Duration
	// Pieces are written in order, each flushed before the next.
	Pieces []Piece
	End    End
}

// Piece is bytes written at once, after an optional wait.
type Piece struct {
	Wait time.Duration
	Data []byte
}

// Route is "METHOD /path", the key requests are matched on.
func (r Response) Route() string { return r.Method + " " + r.Path }

// Body is every byte the response sends, without the replay's markers.
func (r Response) Body() []byte {
	var b bytes.Buffer
	for _, p := range r.Pieces {
		b.Write(p.Data)
	}
	return b.Bytes()
}

const defaultRoute = "POST /v1/chat/completions"

// LoadCases reads every case file (*.txt but README files) under dir,
// sorted by name.
func LoadCases(dir string) ([]*Case, error) {
	var paths []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".txt") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("modeltest: reading the replay corpus: %w", err)
	}
	sort.Strings(paths)
	var cases []*Case
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("modeltest: %w", err)
		}
		rel, _ := filepath.Rel(dir, path)
		c, err := ParseCase(filepath.ToSlash(strings.TrimSuffix(rel, ".txt")), data)
		if err != nil {
			return nil, fmt.Errorf("modeltest: %s: %w", path, err)
		}
		cases = append(cases, c)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("modeltest: no case files (*.txt) under %s", dir)
	}
	return cases, nil
}

// ParseCase reads one case in the txtar layout testdata/replay/README.md
// describes.
func ParseCase(name string, data []byte) (*Case, error) {
	a := txtar.Parse(data)
	c := &Case{Name: name}
	var err error
	if c.Fields, err = parseFields(a.Comment, 1); err != nil {
		return nil, err
	}
	line := bytes.Count(a.Comment, []byte("\n")) // the marker of a section is on the next line
	for i, f := range a.Files {
		line++ // the file marker
		if want := fmt.Sprintf("response %d", i+1); f.Name != want {
			return nil, fmt.Errorf("line %d: section %q, want %q (responses are numbered from 1, in order)", line, f.Name, want)
		}
		r, err := parseResponse(f.Data, line)
		if err != nil {
			return nil, err
		}
		c.Responses = append(c.Responses, r)
		line += bytes.Count(f.Data, []byte("\n"))
	}
	if len(c.Responses) == 0 {
		return nil, fmt.Errorf("no responses: add a section -- response 1 --")
	}
	return c, nil
}

// parseFields reads "key: value" lines; blank lines and lines starting
// with # are skipped.
func parseFields(text []byte, first int) ([]Field, error) {
	var fields []Field
	for i, l := range strings.Split(string(text), "\n") {
		l = strings.TrimRight(l, " \t\r")
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		key, value, ok := strings.Cut(l, ":")
		if !ok || key == "" || strings.ContainsAny(key, " \t") {
			return nil, fmt.Errorf("line %d: %q is not a \"key: value\" line", first+i, l)
		}
		fields = append(fields, Field{Key: key, Value: strings.TrimSpace(value), Line: first + i})
	}
	return fields, nil
}

// parseResponse reads a response section: head lines, a blank line, then
// the body exactly as sent, with <<markers>>.
func parseResponse(data []byte, line int) (Response, error) {
	head, body, ok := bytes.Cut(data, []byte("\n\n"))
	if bytes.HasPrefix(data, []byte("\n")) {
		head, body, ok = nil, data[1:], true
	}
	if !ok {
		return Response{}, fmt.Errorf("line %d: the response has no blank line between its head and its body", line)
	}
	r := Response{Status: http.StatusOK, Header: http.Header{}}
	r.Method, r.Path, _ = strings.Cut(defaultRoute, " ")
	fields, err := parseFields(head, line+1)
	if err != nil {
		return Response{}, err
	}
	pieces := ""
	for _, f := range fields {
		if err := r.set(f, &pieces); err != nil {
			return Response{}, fmt.Errorf("line %d: %w", f.Line, err)
		}
	}
	if r.Pieces, r.End, err = parseBody(body, splitter(pieces, r.Header)); err != nil {
		return Response{}, fmt.Errorf("line %d: %w", line+1+bytes.Count(head, []byte("\n"))+1, err)
	}
	return r, nil
}

func (r *Response) set(f Field, pieces *string) error {
	var err error
	switch f.Key {
	case "for":
		method, path, ok := strings.Cut(f.Value, " ")
		if !ok || !strings.HasPrefix(path, "/") {
			return fmt.Errorf("for: %q is not \"METHOD /path\"", f.Value)
		}
		r.Method, r.Path = method, path
	case "status":
		if r.Status, err = strconv.Atoi(f.Value); err != nil || r.Status < 100 || r.Status > 599 {
			return fmt.Errorf("status: %q is not an HTTP status", f.Value)
		}
	case "header":
		name, value, ok := strings.Cut(f.Value, ":")
		if !ok {
			return fmt.Errorf("header: %q is not \"Name: value\"", f.Value)
		}
		r.Header.Add(strings.TrimSpace(name), strings.TrimSpace(value))
	case "wait":
		if r.Delay, err = time.ParseDuration(f.Value); err != nil {
			return fmt.Errorf("wait: %w", err)
		}
	case "pieces":
		*pieces = f.Value
	default:
		return fmt.Errorf("unknown head field %q (for, status, header, wait, pieces)", f.Key)
	}
	return nil
}

// splitter says where a segment of body between markers is cut into
// pieces: "events" after each blank line (a server that flushes each
// event, the default for text/event-stream), "whole" nowhere (the default
// otherwise), or a number: every that many bytes.
func splitter(how string, h http.Header) func([]byte) [][]byte {
	if how == "" {
		how = "whole"
		if strings.HasPrefix(h.Get("Content-Type"), "text/event-stream") {
			how = "events"
		}
	}
	switch how {
	case "whole":
		return func(b []byte) [][]byte { return [][]byte{b} }
	case "events":
		return splitAfter([]byte("\n\n"))
	}
	n, err := strconv.Atoi(how)
	if err != nil || n < 1 {
		return nil
	}
	return func(b []byte) [][]byte {
		var out [][]byte
		for len(b) > n {
			out = append(out, b[:n])
			b = b[n:]
		}
		return append(out, b)
	}
}

func splitAfter(sep []byte) func([]byte) [][]byte {
	return func(b []byte) [][]byte {
		var out [][]byte
		for {
			i := bytes.Index(b, sep)
			if i < 0 || i+len(sep) == len(b) {
				return append(out, b)
			}
			out = append(out, b[:i+len(sep)])
			b = b[i+len(sep):]
		}
	}
}

// marker matches the replay's markers in a body: <<flush>> (a piece ends
// here), <<wait DURATION>> (the next piece waits), <<cut>> (the connection
// drops here), <<hang>> (nothing more is sent) and <<end>> (the body ends
// here, so a body without a final newline can be written). Any other "<<"
// is part of the body.
var marker = regexp.MustCompile(`<<(flush|end|cut|hang|wait [^<>\s]+)>>`)

// parseBody cuts the body at its markers into pieces.
func parseBody(body []byte, split func([]byte) [][]byte) ([]Piece, End, error) {
	if split == nil {
		return nil, EndClose, fmt.Errorf(`pieces: want "events", "whole" or a number of bytes`)
	}
	var pieces []Piece
	var wait time.Duration
	add := func(segment []byte) {
		if len(segment) == 0 {
			return
		}
		for _, b := range split(segment) {
			pieces = append(pieces, Piece{Wait: wait, Data: b})
			wait = 0
		}
	}
	for {
		loc := marker.FindSubmatchIndex(body)
		if loc == nil {
			add(body)
			return pieces, EndClose, nil
		}
		add(body[:loc[0]])
		name, arg, _ := strings.Cut(string(body[loc[2]:loc[3]]), " ")
		body = body[loc[1]:]
		switch name {
		case "wait":
			d, err := time.ParseDuration(arg)
			if err != nil {
				return nil, EndClose, fmt.Errorf("<<wait %s>>: %w", arg, err)
			}
			wait += d
		case "end":
			return pieces, EndClose, nil
		case "cut":
			return pieces, EndCut, nil
		case "hang":
			return pieces, EndHang, nil
		}
	}
}
