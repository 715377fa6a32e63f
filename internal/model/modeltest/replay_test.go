package modeltest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const corpus = "testdata/replay"

// Every case says where its bytes come from, what it shows and what is
// wanted of a client, so that the corpus can be trusted and extended.
func TestEveryCaseNamesItsSource(t *testing.T) {
	cases, err := LoadCases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		for _, key := range []string{"server", "source", "shows", "want"} {
			if c.Get(key) == "" {
				t.Errorf("%s: no %q line in the header", c.Name, key)
			}
		}
		if server := strings.SplitN(c.Name, "/", 2)[0]; c.Get("server") != server {
			t.Errorf("%s: server %q, but the case is filed under %s/", c.Name, c.Get("server"), server)
		}
	}
}

// The replay sends every recorded response byte for byte, in the pieces
// the case asks for: each flushed piece arrives as one HTTP chunk.
func TestReplayServesEveryCaseByteForByte(t *testing.T) {
	cases, err := LoadCases(corpus)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			s := NewReplayServer(t, c)
			for i, want := range c.Responses {
				got := exchange(t, s, want.Method, want.Path)
				checkExchange(t, fmt.Sprintf("response %d", i+1), got, want)
			}
			if n := s.Remaining(); n != 0 {
				t.Errorf("%d responses left after asking for each", n)
			}
		})
	}
}

func checkExchange(t *testing.T, what string, got rawResponse, want Response) {
	t.Helper()
	if got.status != want.Status {
		t.Errorf("%s: status %d, want %d", what, got.status, want.Status)
	}
	for name, values := range want.Header {
		if g := got.header.Values(name); strings.Join(g, ",") != strings.Join(values, ",") {
			t.Errorf("%s: header %s = %q, want %q", what, name, g, values)
		}
	}
	if !bytes.Equal(got.body(), want.Body()) {
		t.Errorf("%s: body differs\ngot  %q\nwant %q", what, clip(got.body()), clip(want.Body()))
	}
	if want.End == EndCut && got.complete {
		t.Errorf("%s: the body ended cleanly, want the connection cut", what)
	}
	if want.End == EndClose && !got.complete {
		t.Errorf("%s: the connection dropped before the body ended", what)
	}
	if len(want.Pieces) > 1 {
		if len(got.chunks) != len(want.Pieces) {
			t.Fatalf("%s: %d chunks arrived, want one for each of the %d pieces", what, len(got.chunks), len(want.Pieces))
		}
		for i, p := range want.Pieces {
			if !bytes.Equal(got.chunks[i], p.Data) {
				t.Errorf("%s: chunk %d = %q, want %q", what, i, got.chunks[i], p.Data)
			}
		}
	}
}

func clip(b []byte) []byte {
	if len(b) > 300 {
		return append(b[:300:300], "…"...)
	}
	return b
}

// rawResponse is a response as it crossed the wire.
type rawResponse struct {
	status   int
	header   http.Header
	chunks   [][]byte // each chunk of a chunked body, or the whole body
	complete bool     // the body ended as HTTP says it should
}

func (r rawResponse) body() []byte { return bytes.Join(r.chunks, nil) }

// exchange sends one request over its own connection and reads the
// response without net/http's client, so that chunk boundaries and a cut
// connection are seen as they are.
func exchange(t *testing.T, s *ReplayServer, method, path string) rawResponse {
	t.Helper()
	u, _ := url.Parse(s.Root())
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(time.Minute)) // a guard against a hang, not a measure
	body := `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
		method, path, u.Host, len(body), body)
	r := bufio.NewReader(conn)
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	out := rawResponse{status: res.StatusCode, header: res.Header}
	if len(res.TransferEncoding) == 0 {
		b, err := io.ReadAll(res.Body)
		out.chunks, out.complete = [][]byte{b}, err == nil
		return out
	}
	// net/http hides the chunks; read them from the connection instead.
	out.chunks, out.complete = readChunks(r)
	return out
}

func readChunks(r *bufio.Reader) ([][]byte, bool) {
	var chunks [][]byte
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return chunks, false
		}
		n, err := strconv.ParseInt(strings.TrimSpace(line), 16, 64)
		if err != nil {
			return chunks, false
		}
		if n == 0 {
			_, err := r.ReadString('\n')
			return chunks, err == nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(r, b); err != nil {
			return chunks, false
		}
		chunks = append(chunks, b[:n])
	}
}

func mustParse(t *testing.T, text string) *Case {
	t.Helper()
	c, err := ParseCase(t.Name(), []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// A body can be cut into pieces of a chosen size, split mid-event, and end
// without a final newline.
func TestReplayWritesChosenPieces(t *testing.T) {
	c := mustParse(t, `want: handled
-- response 1 --
header: Content-Type: text/event-stream
pieces: 4

data: {"a":1}

data: [DONE]
-- response 2 --
header: Content-Type: text/event-stream

data: {"a":1}<<flush>>

: keep-alive

data: [DONE]

-- response 3 --
status: 503

{"error":"busy"}<<end>>
`)
	want := [][]string{
		{"data", ": {\"", "a\":1", "}\n\nd", "ata:", " [DO", "NE]\n"},
		{"data: {\"a\":1}", "\n\n", ": keep-alive\n\n", "data: [DONE]\n\n"},
		{`{"error":"busy"}`},
	}
	s := NewReplayServer(t, c)
	for i, pieces := range want {
		got := exchange(t, s, "POST", "/v1/chat/completions")
		var chunks []string
		for _, ch := range got.chunks {
			chunks = append(chunks, string(ch))
		}
		if strings.Join(chunks, "|") != strings.Join(pieces, "|") || !got.complete {
			t.Errorf("response %d arrived as %q (complete %v), want %q", i+1, chunks, got.complete, pieces)
		}
	}
}

// <<cut>> drops the connection inside the chunked body, as a killed server
// does; net/http's client then reports an unexpected EOF.
func TestReplayCutsTheConnection(t *testing.T) {
	c := mustParse(t, `want: handled
-- response 1 --
header: Content-Type: text/event-stream

data: {"a":1}

<<cut>>data: never sent
`)
	s := NewReplayServer(t, c)
	res, err := http.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) || string(body) != "data: {\"a\":1}\n\n" {
		t.Errorf("read %q, %v; want the first event, then io.ErrUnexpectedEOF", body, err)
	}
}

// A slow first byte: nothing, not even the status line, comes before the
// case's wait is over; a client that gives up first gets no response.
func TestReplayWaitsBeforeTheFirstByte(t *testing.T) {
	c := mustParse(t, "want: handled\n-- response 1 --\nwait: 1h\n\nlate\n")
	s := NewReplayServer(t, c)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader("{}"))
	res, err := http.DefaultClient.Do(req)
	if err == nil {
		res.Body.Close()
		t.Fatalf("a response (%s) arrived before the wait was over", res.Status)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the client's deadline", err)
	}
}

// <<wait>> holds back the next piece, <<hang>> everything after: the client
// has what came before and nothing more until it gives up.
func TestReplayHoldsBackWhatComesAfterAWait(t *testing.T) {
	for _, marker := range []string{"<<wait 1h>>", "<<hang>>"} {
		c := mustParse(t, "want: handled\n-- response 1 --\nheader: Content-Type: text/event-stream\n\n"+
			"data: first\n\n"+marker+"data: second\n\n")
		s := NewReplayServer(t, c)
		ctx, cancel := context.WithCancel(t.Context())
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader("{}"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(res.Body)
		first, err := r.ReadString('\n')
		if err != nil || first != "data: first\n" {
			t.Errorf("%s: first line %q, %v", marker, first, err)
		}
		done := make(chan error, 1)
		go func() { _, err := r.ReadString('x'); done <- err }()
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("%s: after the first event the read ended with %v, want the client's cancel", marker, err)
		}
		res.Body.Close()
	}
}

// Each request takes the next response recorded for its method and path;
// a path with nothing recorded is answered 404, and a chat request with
// no response left is reported.
func TestReplayAnswersInOrderPerRoute(t *testing.T) {
	c := mustParse(t, `want: handled
-- response 1 --

one
-- response 2 --
for: GET /api/version

{"version":"0.12.3"}
-- response 3 --
status: 503

two
`)
	s := NewReplayServer(t, c)
	var mu sync.Mutex
	var reported []string
	s.report = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, fmt.Sprintf(format, args...))
	}
	steps := []struct {
		method, path string
		status       int
		body         string
	}{
		{"GET", "/api/version", 200, `{"version":"0.12.3"}` + "\n"},
		{"POST", "/v1/chat/completions", 200, "one\n"},
		{"POST", "/v1/chat/completions", 503, "two\n"},
		{"GET", "/api/version", 404, "404 page not found"},
		{"POST", "/v1/chat/completions", 404, "404 page not found"},
	}
	for _, st := range steps {
		got := exchange(t, s, st.method, st.path)
		if got.status != st.status || string(got.body()) != st.body {
			t.Errorf("%s %s: %d %q, want %d %q", st.method, st.path, got.status, got.body(), st.status, st.body)
		}
	}
	reqs := s.Requests()
	if len(reqs) != len(steps) || !reqs[1].Served || reqs[3].Served || !strings.Contains(string(reqs[1].Body), `"stream":true`) {
		t.Errorf("requests recorded: %+v", reqs)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || !strings.Contains(reported[0], "POST /v1/chat/completions found no recorded response left") {
		t.Errorf("reported %q, want the one chat request without a response", reported)
	}
}

// A case file that is not well formed says where and what is wrong.
func TestParseCaseSaysWhatIsWrong(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"no responses", "want: handled\n", "no responses: add a section -- response 1 --"},
		{"header not key: value", "want handled\n-- response 1 --\n\nx\n", `line 1: "want handled" is not a "key: value" line`},
		{"sections out of order", "want: handled\n-- response 2 --\n\nx\n", `line 2: section "response 2", want "response 1"`},
		{"no blank line", "want: handled\n-- response 1 --\nstatus: 200\n", "line 2: the response has no blank line between its head and its body"},
		{"unknown head field", "want: handled\n-- response 1 --\ncolour: red\n\nx\n", `line 3: unknown head field "colour"`},
		{"bad status", "want: handled\n-- response 1 --\nstatus: 999\n\nx\n", `line 3: status: "999" is not an HTTP status`},
		{"bad route", "want: handled\n-- response 1 --\nfor: /v1/models\n\nx\n", `for: "/v1/models" is not "METHOD /path"`},
		{"bad wait marker", "want: handled\n-- response 1 --\n\nx<<wait soon>>y\n", `<<wait soon>>: time: invalid duration`},
		{"bad pieces", "want: handled\n-- response 1 --\npieces: some\n\nx\n", `pieces: want "events", "whole" or a number of bytes`},
	}
	for _, tt := range tests {
		_, err := ParseCase("case", []byte(tt.text))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want one saying %q", tt.name, err, tt.want)
		}
	}
}

// "<<" that is not one of the replay's markers is part of the body: a
// model may well write a shell here-document.
func TestBodyKeepsTextThatOnlyLooksLikeAMarker(t *testing.T) {
	c := mustParse(t, "want: handled\n-- response 1 --\n\ncat <<EOF >>out\n<<end>>")
	if got := string(c.Responses[0].Body()); got != "cat <<EOF >>out\n" {
		t.Errorf("body %q", got)
	}
}
