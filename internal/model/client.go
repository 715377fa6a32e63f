// Package model is wisp's model client: chat completions with tools, streamed,
// from any OpenAI-compatible server (Ollama by default; LM Studio, llama.cpp's
// server, vLLM or a hosted API). It owns the request, the streaming, the
// assembly of tool calls split across chunks, and turning every failure into
// a typed error whose message says what to do; it retries what the server
// refused for now, with backoff, and says so. Of wisp's packages it
// imports only config and its own probe (the check doctor shares).
//
// # One turn
//
// The agent calls Client.Turn once a step:
//
//	res, err := client.Turn(ctx, model.Request{
//		Messages: history, Tools: tools,
//		OnDelta: func(d model.Delta) { … },  // DeltaText, DeltaReasoning, DeltaRetract
//		ContextTokens: planned,              // the context the agent plans for
//	})
//
// res.Message is what goes into the history: the answer and the calls,
// never the thinking. The thinking (reasoning_content / reasoning fields,
// or <think>…</think> and <thinking>…</thinking> in the content, split
// anywhere, or never closed) comes to OnDelta as DeltaReasoning and in
// res.Reasoning, for the face to show folded; DeltaRetract says the text
// given so far was thinking after all (a DeepSeek-R1 distill's orphan
// </think>). Calls a small model wrote as text come back as calls, with
// res.Recovered set (RecoverToolCalls says which forms): the agent runs
// them through the same gate and marks them in the audit as recovered.
//
// What the turn came to, beyond the errors of errors.go, each with
// Hints(err) (what the person may try, one line each):
//
//   - ErrEmptyAnswer: no answer and no call ("· the model answered nothing");
//   - ErrLength: cut at the output limit (res holds the text so far);
//   - *RepeatError (ErrRepeating): the model repeated a line or block of
//     lines and the stream was stopped;
//   - ErrContextFull: the server refused or stopped because the context
//     is full: compact and ask again;
//   - *ToolsUnsupportedError (ErrToolsUnsupported): the model or server
//     takes no tools; it names the server's models that can (Ollama), or
//     the server flag. WithToolsFallback(true) sends the turn again
//     without tools instead, and sets res.ToolsDropped;
//   - res.Truncated: the server read far fewer prompt tokens
//     (res.Usage.PromptTokens) than were sent (res.SentTokens): it
//     dropped the start of the conversation; compact, and tell the person.
//
// Between turns the agent feeds each answer's calls to a CallRepeats and
// stops when it reports the same calls, same arguments, too many times in
// a row. Before the first turn, Client.Info gives the model's context and
// capabilities where the server says (Ollama, LM Studio), and
// Client.ToolModels the models that can use tools (Ollama).
//
// # Waiting
//
// A server may load the model for minutes before it answers: the idle
// timeout (WithIdleTimeout) only times silences once the server answered;
// the first-byte timeout (WithFirstByteTimeout) bounds the wait before,
// and also how long a server answering 503 "Loading model" is asked
// again. WithStatusNotice reports such waits every second, for the
// spinner (Status.Notice: "loading the model · 40s"); ctx ends them.
//
// Stream is the older call, kept for today's callers: it strips the
// thinking too, but reports neither empty nor length-cut answers, reads
// no text-form calls and stops no loops.
package model

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/internal/config"
)

// DefaultIdleTimeout bounds the silence between two chunks (and before the
// first), so a stuck server never hangs a conversation. It is generous
// because a local server may load the model before its first token.
const DefaultIdleTimeout = 120 * time.Second

// placeholderKey is sent when no key is configured: local servers ignore
// the key but some reject a request without an Authorization header.
const placeholderKey = "wisp-no-key"

// Client talks to one model on one OpenAI-compatible server.
type Client struct {
	name      string
	baseURL   string
	apiKeyEnv string
	keySet    bool // the variable apiKeyEnv names holds a key
	idle      time.Duration
	retries   int
	remote    bool // not on this machine: a connection error may pass
	onRetry   func(Retry)
	onStatus  func(Status)
	firstByte time.Duration
	waits     waits
	// toolsFallback: Turn resends without tools when they are refused.
	toolsFallback bool
	http          *http.Client
	key           string // sent as the bearer token
	ollama        *ollamaProbe
}

// Option adjusts a Client.
type Option func(*settings)

type settings struct {
	httpClient *http.Client
	idle       time.Duration
	retries    int
	onRetry    func(Retry)
	onStatus   func(Status)
	firstByte  time.Duration
	waits      waits
	// toolsFallback: see WithToolsFallback.
	toolsFallback bool
}

// WithHTTPClient sends requests through hc (its transport, proxies, TLS).
// Leave its Timeout zero: a whole-request timeout would cut long answers;
// the idle timeout is what bounds a stall.
func WithHTTPClient(hc *http.Client) Option {
	return func(s *settings) { s.httpClient = hc }
}

// WithIdleTimeout sets how long the server may stay silent before Stream
// gives up with ErrStalled (DefaultIdleTimeout otherwise).
func WithIdleTimeout(d time.Duration) Option {
	return func(s *settings) { s.idle = d }
}

// WithMaxRetries sets how often a request is retried after HTTP 408, 409,
// 429 or 5xx (and, for a server on another machine, a connection error),
// before any of the answer has arrived, with backoff and the server's
// Retry-After (DefaultMaxRetries). A server on this machine that is down
// is not retried: that only delays the message that it is down.
func WithMaxRetries(n int) Option {
	return func(s *settings) { s.retries = max(n, 0) }
}

// New returns a client for cfg. The API key is read through getenv from the
// variable cfg.APIKeyEnv names; empty fields take config.Default's values.
func New(cfg config.Model, getenv func(string) string, opts ...Option) (*Client, error) {
	cfg = withDefaults(cfg)
	base, err := parseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	s := settings{idle: DefaultIdleTimeout, retries: DefaultMaxRetries, firstByte: DefaultFirstByteTimeout,
		waits: waits{statusEvery: statusEvery, statusAfter: statusAfter, loadingPoll: loadingPoll}}
	for _, opt := range opts {
		opt(&s)
	}
	if s.httpClient == nil {
		s.httpClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	key := apiKey(cfg.APIKeyEnv, getenv)
	c := &Client{name: cfg.Name, baseURL: strings.TrimSuffix(base.String(), "/"),
		apiKeyEnv: cfg.APIKeyEnv, keySet: key != "", idle: s.idle, retries: s.retries, remote: !isLocal(base),
		onRetry: s.onRetry, onStatus: s.onStatus, firstByte: max(s.firstByte, s.idle), toolsFallback: s.toolsFallback, waits: s.waits,
		http: s.httpClient, ollama: &ollamaProbe{}}
	// The key comes through getenv alone: no OPENAI_* variable of the
	// process is read behind its back.
	c.key = key
	if key == "" {
		c.key = placeholderKey
	}
	return c, nil
}

// WithName is a client for another model on the same server (chat's
// /model NAME).
func (c *Client) WithName(name string) *Client {
	d := *c
	d.name = name
	return &d
}

// Name is the model's name as sent to the server.
func (c *Client) Name() string { return c.name }

// BaseURL is the server's OpenAI-compatible base URL, without a trailing slash.
func (c *Client) BaseURL() string { return c.baseURL }

func withDefaults(cfg config.Model) config.Model {
	def := config.Default().Model
	if strings.TrimSpace(cfg.Name) == "" {
		cfg.Name = def.Name
	}
	if strings.TrimSpace(cfg.BaseURL) == "" {
		cfg.BaseURL = def.BaseURL
	}
	return cfg
}

func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("model.baseURL %q is not an http or https URL; set it to the server's "+
			"OpenAI-compatible address, such as %s", raw, config.Default().Model.BaseURL)
	}
	return u, nil
}

// apiKey reads the key from the variable envName names, "" when none.
func apiKey(envName string, getenv func(string) string) string {
	if envName == "" || getenv == nil {
		return ""
	}
	return strings.TrimSpace(getenv(envName))
}

// isLocal reports whether the server is on this machine.
func isLocal(base *url.URL) bool {
	host := base.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
