package model_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/model"
	"github.com/wisp-sh/wisp/internal/model/modeltest"
)

// replayDir holds the recorded wire shapes of real model servers; its
// README says how a case is laid out.
const replayDir = "modeltest/testdata/replay"

var readFile = model.Tool{
	Name:        "read_file",
	Description: "Read a file of the project.",
	Parameters: map[string]any{"type": "object", "required": []any{"path"},
		"properties": map[string]any{"path": map[string]any{"type": "string"}}},
}

// replayTools are offered in every replayed request, as the agent offers
// its tools.
var replayTools = []model.Tool{runCommand, readFile}

// TestReplayCorpus runs today's client against every recorded case. A case
// the client handles ("want: handled") is held to what its header says; a
// case for later work ("want: later — ...") must only come back without a
// hang or a crash, and what the client did is logged, so the corpus
// records today's behaviour for the work that fixes it.
func TestReplayCorpus(t *testing.T) {
	cases, err := modeltest.LoadCases(replayDir)
	if err != nil {
		t.Fatal(err)
	}
	var tally tally
	t.Cleanup(func() { t.Log(tally.summary(len(cases))) })
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			exp, err := readExpectation(c)
			if err != nil {
				t.Fatal(err)
			}
			checkJSON(t, c, exp.jsons)
			srv := modeltest.NewReplayServer(t, c)
			got := exp.run(t, c, srv)
			if exp.later != "" {
				tally.later(exp.later)
				t.Logf("for later (%s); today: %s; %d chat requests", exp.later, got, chatRequests(srv))
				return
			}
			exp.check(t, srv, got)
			if !t.Failed() {
				tally.handled()
			}
		})
	}
}

// expectation is what a case's header asks of the client.
type expectation struct {
	later    string // the want: line after "later — ", "" when handled
	do       string // chat, models or fetch
	turns    int
	name     string
	opts     []model.Option
	text     *string
	calls    []model.ToolCall
	err      *string
	is       error
	status   *int // a *ServerError's status; 0 for an error event in the stream
	requests int
	models   []string
	jsons    []jsonCheck

	reasoning *string
	finish    *string
	usage     int
	truncated bool
	prompt    int // bytes of earlier conversation sent before the question
	repeats   int // the turn at which CallRepeats says the model loops
	hints     []string
	numCtx    int // Request.ContextTokens
	sent      []jsonCheck
	context   int
	caps      []string
	dropped   bool
}

type jsonCheck struct {
	path  []string
	value any
}

// sentinels are the errors a case may name with "is:".
var sentinels = map[string]error{
	"ErrServerDown": model.ErrServerDown, "ErrModelMissing": model.ErrModelMissing,
	"ErrNoEndpoint": model.ErrNoEndpoint, "ErrUnauthorized": model.ErrUnauthorized,
	"ErrCutOff": model.ErrCutOff, "ErrStalled": model.ErrStalled,
	"ErrEmptyAnswer": model.ErrEmptyAnswer, "ErrLength": model.ErrLength,
	"ErrRepeating": model.ErrRepeating, "ErrContextFull": model.ErrContextFull,
	"ErrToolsUnsupported": model.ErrToolsUnsupported,
}

func readExpectation(c *modeltest.Case) (*expectation, error) {
	e := &expectation{do: "chat", turns: 1, name: config.Default().Model.Name}
	for _, f := range c.Fields {
		if err := e.set(f); err != nil {
			return nil, fmt.Errorf("%s.txt line %d: %s: %w", c.Name, f.Line, f.Key, err)
		}
	}
	switch want := c.Get("want"); {
	case want == "handled":
	case strings.HasPrefix(want, "later — "):
		e.later = strings.TrimPrefix(want, "later — ")
	default:
		return nil, fmt.Errorf("%s.txt: want: %q, want \"handled\" or \"later — WHY\"", c.Name, want)
	}
	return e, nil
}

func (e *expectation) set(f modeltest.Field) error {
	var err error
	switch f.Key {
	case "server", "source", "shows", "now", "want":
		// for the people who read the case
	case "do":
		switch f.Value {
		case "chat", "models", "fetch", "info", "toolmodels":
		default:
			return fmt.Errorf("%q is not chat, models, fetch, info or toolmodels", f.Value)
		}
		e.do = f.Value
	case "model":
		e.name = f.Value
	case "client":
		err = e.setClient(f.Value)
	case "text":
		e.text, err = unquoted(f.Value)
	case "error":
		e.err, err = unquoted(f.Value)
	case "call":
		parts := strings.SplitN(f.Value, " ", 3)
		if len(parts) != 3 {
			return fmt.Errorf("%q is not \"ID NAME ARGUMENTS\"", f.Value)
		}
		e.calls = append(e.calls, model.ToolCall{ID: parts[0], Name: parts[1], Arguments: parts[2]})
	case "is":
		if e.is = sentinels[f.Value]; e.is == nil {
			return fmt.Errorf("%q is not one of model's Err sentinels", f.Value)
		}
	case "status":
		n := 0
		if f.Value != "stream" {
			if n, err = strconv.Atoi(f.Value); err != nil {
				return fmt.Errorf("%q is neither an HTTP status nor \"stream\"", f.Value)
			}
		}
		e.status = &n
	case "models":
		e.models = strings.Fields(f.Value)
	case "json":
		e.jsons, err = addJSON(e.jsons, f.Value)
	case "sent":
		e.sent, err = addJSON(e.sent, f.Value)
	case "reasoning":
		e.reasoning, err = unquoted(f.Value)
	case "finish":
		e.finish = &f.Value
	case "usage", "prompt", "repeats", "ctx", "context", "turns", "requests":
		*e.intField(f.Key), err = strconv.Atoi(f.Value)
	case "truncated", "toolsdropped":
		*e.boolField(f.Key), err = strconv.ParseBool(f.Value)
	case "hint":
		var h *string
		if h, err = unquoted(f.Value); err == nil {
			e.hints = append(e.hints, *h)
		}
	case "capabilities":
		e.caps = strings.Fields(f.Value)
	default:
		return errors.New("unknown field; see " + replayDir + "/README.md")
	}
	return err
}

func (e *expectation) intField(key string) *int {
	return map[string]*int{"usage": &e.usage, "prompt": &e.prompt, "repeats": &e.repeats, "ctx": &e.numCtx,
		"context": &e.context, "turns": &e.turns, "requests": &e.requests}[key]
}

func (e *expectation) boolField(key string) *bool {
	return map[string]*bool{"truncated": &e.truncated, "toolsdropped": &e.dropped}[key]
}

func (e *expectation) setClient(spec string) error {
	for _, kv := range strings.Fields(spec) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "idle":
			d, err := time.ParseDuration(v)
			if err != nil {
				return err
			}
			e.opts = append(e.opts, model.WithIdleTimeout(d))
		case "retries":
			n, err := strconv.Atoi(v)
			if err != nil {
				return err
			}
			e.opts = append(e.opts, model.WithMaxRetries(n))
		case "loadpoll":
			d, err := time.ParseDuration(v)
			if err != nil {
				return err
			}
			e.opts = append(e.opts, model.WithWaits(time.Hour, time.Hour, d))
		case "toolsfallback":
			e.opts = append(e.opts, model.WithToolsFallback(v == "yes"))
		default:
			return fmt.Errorf("%q: want idle=DURATION, retries=N, loadpoll=DURATION or toolsfallback=yes", kv)
		}
	}
	return nil
}

func addJSON(checks []jsonCheck, spec string) ([]jsonCheck, error) {
	path, value, ok := strings.Cut(spec, " = ")
	if !ok {
		return checks, fmt.Errorf("%q is not \"PATH = JSON\"", spec)
	}
	var v any
	if err := json.Unmarshal([]byte(value), &v); err != nil {
		return checks, fmt.Errorf("the value %s: %w", value, err)
	}
	return append(checks, jsonCheck{path: strings.Split(path, "/"), value: v}), nil
}

func unquoted(s string) (*string, error) {
	u, err := strconv.Unquote(s)
	return &u, err
}

// outcome is what the client did with a case.
type outcome struct {
	turns  []turn
	info   model.ModelInfo
	models []string
	body   []byte // what do: fetch got
	err    error  // of do: models or do: fetch
}

type turn struct {
	msg       model.Message
	res       model.Result
	streamed  string // the answer text OnDelta was given, less what it retracted
	reasoning string // the thinking OnDelta was given
	err       error
}

func (o outcome) String() string {
	var b strings.Builder
	for i, t := range o.turns {
		if len(o.turns) > 1 {
			fmt.Fprintf(&b, "[turn %d] ", i+1)
		}
		fmt.Fprintf(&b, "text %q", clipped(t.msg.Content))
		for _, c := range t.msg.ToolCalls {
			fmt.Fprintf(&b, ", call %s %s %s", c.ID, c.Name, c.Arguments)
		}
		fmt.Fprintf(&b, ", error %v; ", t.err)
	}
	if o.models != nil || o.body != nil || o.err != nil {
		fmt.Fprintf(&b, "models %q, fetched %d bytes, error %v", o.models, len(o.body), o.err)
	}
	return strings.TrimSuffix(b.String(), "; ")
}

func clipped(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

func (e *expectation) run(t *testing.T, c *modeltest.Case, srv *modeltest.ReplayServer) outcome {
	t.Helper()
	client, err := model.New(config.Model{Name: e.name, BaseURL: srv.URL()}, noEnv, e.opts...)
	if err != nil {
		t.Fatal(err)
	}
	var o outcome
	switch e.do {
	case "models":
		o.models, o.err = client.Models(t.Context())
	case "toolmodels":
		o.models, o.err = client.ToolModels(t.Context())
	case "info":
		o.info, o.err = client.Info(t.Context())
	case "fetch":
		// The bytes are the replay's business, not the client's: a
		// difference fails every case, handled or not.
		if o.body, o.err = e.fetch(t, c.Responses[0], srv); o.err != nil {
			t.Error(o.err)
		}
	default:
		o.turns = e.converse(t, client)
	}
	return o
}

// converse streams up to e.turns answers, handing each call a result as
// the agent would, and stops at an answer without calls or an error.
func (e *expectation) converse(t *testing.T, c *model.Client) []turn {
	msgs := ask("List the files in this project.")
	if e.prompt > 0 {
		earlier := []model.Message{{Role: model.RoleUser, Content: strings.Repeat("Tell me more. ", e.prompt/14)},
			{Role: model.RoleAssistant, Content: "Here is more."}}
		msgs = append(earlier, msgs...)
	}
	var turns []turn
	for range e.turns {
		tr := returnsSoon(t, func() turn {
			var streamed, reasoning strings.Builder
			res, err := c.Turn(t.Context(), model.Request{Messages: msgs, Tools: replayTools, ContextTokens: e.numCtx,
				OnDelta: func(d model.Delta) {
					switch d.Kind {
					case model.DeltaText:
						streamed.WriteString(d.Text)
					case model.DeltaReasoning:
						reasoning.WriteString(d.Text)
					case model.DeltaRetract:
						if d.Text != streamed.String() {
							t.Errorf("retracted %q, but the text given was %q", d.Text, streamed.String())
						}
						streamed.Reset()
						reasoning.WriteString(d.Text)
					}
				}})
			return turn{msg: res.Message, res: res, streamed: streamed.String(), reasoning: reasoning.String(), err: err}
		})
		turns = append(turns, tr)
		if tr.err != nil || len(tr.msg.ToolCalls) == 0 {
			break
		}
		msgs = append(msgs, tr.msg)
		for _, call := range tr.msg.ToolCalls {
			msgs = append(msgs, model.Message{Role: model.RoleTool, ToolCallID: call.ID, Content: "go.mod\nmain.go\nREADME.md"})
		}
	}
	return turns
}

// fetch asks for a recorded response with plain net/http, as a client of
// the server's native API would, and checks it came back byte for byte.
func (e *expectation) fetch(t *testing.T, r modeltest.Response, srv *modeltest.ReplayServer) ([]byte, error) {
	var body io.Reader
	if r.Method == http.MethodPost {
		body = strings.NewReader(`{"model":` + strconv.Quote(e.name) + `}`)
	}
	req, err := http.NewRequestWithContext(t.Context(), r.Method, srv.Root()+r.Path, body)
	if err != nil {
		return nil, err
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	got, err := io.ReadAll(res.Body)
	if err == nil && (res.StatusCode != r.Status || !bytes.Equal(got, r.Body())) {
		err = fmt.Errorf("%s %s answered %d with %d bytes, not the %d recorded bytes with %d",
			r.Method, r.Path, res.StatusCode, len(got), len(r.Body()), r.Status)
	}
	return got, err
}

// checkJSON holds the case's first recorded body (its last line, for a
// stream of JSON lines) to the json: fields of its header: that is where
// later work will read what the server says.
func checkJSON(t *testing.T, c *modeltest.Case, checks []jsonCheck) {
	t.Helper()
	if len(checks) == 0 {
		return
	}
	lines := bytes.Split(bytes.TrimSpace(c.Responses[0].Body()), []byte("\n"))
	var doc any
	if err := json.Unmarshal(lines[len(lines)-1], &doc); err != nil {
		t.Fatalf("the recorded body is not JSON: %v", err)
	}
	for _, ch := range checks {
		got, err := lookup(doc, ch.path)
		if err != nil || !reflect.DeepEqual(got, ch.value) {
			t.Errorf("json %s = %v (%v), want %v", strings.Join(ch.path, "/"), got, err, ch.value)
		}
	}
}

// lookup follows path through objects (by key) and arrays (by index).
func lookup(v any, path []string) (any, error) {
	for _, p := range path {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[p]; !ok {
				return nil, fmt.Errorf("no key %q", p)
			}
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(x) {
				return nil, fmt.Errorf("no element %q", p)
			}
			v = x[i]
		default:
			return nil, fmt.Errorf("%q: not an object or array", p)
		}
	}
	return v, nil
}

func (e *expectation) check(t *testing.T, srv *modeltest.ReplayServer, o outcome) {
	t.Helper()
	switch e.do {
	case "models":
		if o.err != nil || !reflect.DeepEqual(o.models, e.models) {
			t.Errorf("Models() = %q, %v; want %q", o.models, o.err, e.models)
		}
	case "toolmodels":
		if o.err != nil || !reflect.DeepEqual(o.models, e.models) {
			t.Errorf("ToolModels() = %q, %v; want %q", o.models, o.err, e.models)
		}
	case "info":
		if o.err != nil || o.info.ContextLength != e.context || !reflect.DeepEqual(o.info.Capabilities, e.caps) {
			t.Errorf("Info() = %+v, %v; want context %d, capabilities %q", o.info, o.err, e.context, e.caps)
		}
	case "chat":
		e.checkTurns(t, srv, o.turns)
		e.checkSent(t, srv)
	}
	if left := srv.Remaining(); left != 0 {
		t.Errorf("%d recorded responses were never asked for", left)
	}
}

func (e *expectation) checkTurns(t *testing.T, srv *modeltest.ReplayServer, turns []turn) {
	t.Helper()
	if len(turns) != e.turns {
		t.Fatalf("%d turns, want %d", len(turns), e.turns)
	}
	last := turns[len(turns)-1]
	if e.text != nil && last.msg.Content != *e.text {
		t.Errorf("text = %q\nwant   %q", last.msg.Content, *e.text)
	}
	if last.streamed != last.msg.Content {
		t.Errorf("onText was given %q, the message holds %q", last.streamed, last.msg.Content)
	}
	if !reflect.DeepEqual(last.msg.ToolCalls, e.calls) {
		t.Errorf("calls =\n%+v\nwant\n%+v", last.msg.ToolCalls, e.calls)
	}
	e.checkResult(t, turns)
	e.checkErr(t, srv, last.err)
	if e.requests != 0 {
		if n := chatRequests(srv); n != e.requests {
			t.Errorf("the client sent %d requests, want %d", n, e.requests)
		}
	}
}

// checkResult holds the turns to what a case says of the thinking, the
// finish, the usage and a repeated call.
func (e *expectation) checkResult(t *testing.T, turns []turn) {
	t.Helper()
	last := turns[len(turns)-1]
	if strings.Contains(last.msg.Content, "<think") || strings.Contains(last.msg.Content, "</think>") {
		t.Errorf("the message for the history holds thinking: %q", last.msg.Content)
	}
	if want := ""; e.reasoning != nil {
		want = *e.reasoning
		if last.res.Reasoning != want || last.reasoning != want {
			t.Errorf("reasoning = %q, OnDelta gave %q\nwant %q", last.res.Reasoning, last.reasoning, want)
		}
	}
	if recovered := len(e.calls) > 0 && strings.HasPrefix(e.calls[0].ID, "text_call_"); last.res.Recovered != recovered {
		t.Errorf("Recovered %v, want %v", last.res.Recovered, recovered)
	}
	if last.res.ToolsDropped != e.dropped {
		t.Errorf("ToolsDropped %v, want %v", last.res.ToolsDropped, e.dropped)
	}
	if e.finish != nil && last.res.FinishReason != *e.finish {
		t.Errorf("finish reason %q, want %q", last.res.FinishReason, *e.finish)
	}
	if last.res.Usage.PromptTokens != e.usage {
		t.Errorf("usage.prompt_tokens %d, want %d", last.res.Usage.PromptTokens, e.usage)
	}
	if (last.res.Truncated != nil) != e.truncated {
		t.Errorf("truncated %+v (sent about %d tokens), want %v", last.res.Truncated, last.res.SentTokens, e.truncated)
	}
	if e.repeats > 0 {
		var r model.CallRepeats
		at := 0
		for i, tr := range turns {
			if _, loop := r.Observe(tr.msg.ToolCalls); loop && at == 0 {
				at = i + 1
			}
		}
		if at != e.repeats {
			t.Errorf("CallRepeats said the model loops at turn %d, want %d", at, e.repeats)
		}
	}
	hints := strings.Join(model.Hints(last.err), "\n")
	for _, h := range e.hints {
		if !strings.Contains(hints, h) {
			t.Errorf("hints %q\nwant one saying %q", hints, h)
		}
	}
}

// checkSent holds the last chat request to the case's sent: fields.
func (e *expectation) checkSent(t *testing.T, srv *modeltest.ReplayServer) {
	t.Helper()
	var body []byte
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/chat/completions" {
			body = r.Body
		}
	}
	var doc any
	if len(e.sent) > 0 && json.Unmarshal(body, &doc) != nil {
		t.Fatalf("the chat request is not JSON: %q", body)
	}
	for _, ch := range e.sent {
		got, err := lookup(doc, ch.path)
		if err != nil && ch.value == nil && strings.HasPrefix(err.Error(), "no key") {
			continue // null stands for left out
		}
		if err != nil || !reflect.DeepEqual(got, ch.value) {
			t.Errorf("sent %s = %v (%v), want %v", strings.Join(ch.path, "/"), got, err, ch.value)
		}
	}
}

func (e *expectation) checkErr(t *testing.T, srv *modeltest.ReplayServer, err error) {
	t.Helper()
	if e.err == nil {
		if err != nil {
			t.Errorf("error %v, want none", err)
		}
		return
	}
	want := strings.ReplaceAll(*e.err, "{URL}", srv.URL())
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant one saying %q", err, want)
	}
	if e.is != nil && !errors.Is(err, e.is) {
		t.Errorf("error %v is not %v", err, e.is)
	}
	var se *model.ServerError
	if e.status != nil && (!errors.As(err, &se) || se.Status != *e.status) {
		t.Errorf("error %v, want a *ServerError with status %d", err, *e.status)
	}
}

func chatRequests(srv *modeltest.ReplayServer) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodPost && r.Path == "/v1/chat/completions" {
			n++
		}
	}
	return n
}

// tally counts the outcomes of the parallel subtests.
type tally struct {
	mu      sync.Mutex
	ok      int
	byLater map[string]int
}

func (t *tally) handled() { t.mu.Lock(); t.ok++; t.mu.Unlock() }

func (t *tally) later(why string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.byLater == nil {
		t.byLater = map[string]int{}
	}
	t.byLater[why]++
}

func (t *tally) summary(total int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var whys []string
	for why := range t.byLater {
		whys = append(whys, why)
	}
	sort.Strings(whys)
	var b strings.Builder
	fmt.Fprintf(&b, "replay corpus: today's client handles %d of %d recorded cases", t.ok, total)
	for _, why := range whys {
		fmt.Fprintf(&b, "\n  later, %s: %d", why, t.byLater[why])
	}
	return b.String()
}
