package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode/utf8"
)

// Config is config.json. Every key is optional; Default holds the values
// a missing key takes, and docs/config.md documents each one.
type Config struct {
	CommandPolicy CommandPolicy `json:"commandPolicy"`
	Approval      Approval      `json:"approval"`
	Limits        Limits        `json:"limits"`
	Model         Model         `json:"model"`
	UI            UI            `json:"ui"`
	Checkpoints   Checkpoints   `json:"checkpoints"`
}

// CommandPolicy is the operator's lists and the sandbox's settings.
type CommandPolicy struct {
	// Deny patterns add to the default deny list, which always applies.
	Deny []string `json:"deny"`
	// Allow, when non-empty, is a list one of which every simple command must match.
	Allow   []string `json:"allow"`
	Sandbox Sandbox  `json:"sandbox"`
}

// Sandbox configures the kernel sandbox.
type Sandbox struct {
	Enabled             bool `json:"enabled"`
	AllowNetwork        bool `json:"allowNetwork"`
	AllowOutsideSandbox bool `json:"allowOutsideSandbox"`
	// AllowUnixSockets lets confined commands open Unix sockets (docker,
	// ssh-agent, gpg-agent, D-Bus). Off, they may not: through a socket,
	// systemd --user, tmux or docker run a command outside the sandbox.
	AllowUnixSockets bool `json:"allowUnixSockets"`
	// AllowBackground lets the processes a confined command starts in the
	// background (a daemon, setsid, nohup) outlive its run. Off, every one
	// ends with the run.
	AllowBackground bool     `json:"allowBackground"`
	WritablePaths   []string `json:"writablePaths"`
	// AllowedDomains, with allowNetwork false, lets confined commands reach
	// these hosts through wisp's proxy (github.com, *.npmjs.org, host:443);
	// DeniedDomains are refused even when allowed. Empty, the network
	// stays off.
	AllowedDomains []string `json:"allowedDomains"`
	DeniedDomains  []string `json:"deniedDomains"`
	// DenyRead adds to the default list of secrets no confined command
	// may read; AllowRead takes entries of either back.
	DenyRead    []string    `json:"denyRead"`
	AllowRead   []string    `json:"allowRead"`
	Environment Environment `json:"environment"`
}

// Environment adjusts which of wisp's variables a confined command gets:
// Keep takes names back from the default secret patterns, Drop adds to them
// (names, or patterns with *).
type Environment struct {
	Keep []string `json:"keep"`
	Drop []string `json:"drop"`
}

// Approval configures the gate.
type Approval struct {
	// Threshold is low, moderate, high or never as the operator set it;
	// empty when unset, which approval.ResolveThreshold reads as high
	// while commands are confined and moderate otherwise.
	Threshold      string `json:"threshold"`
	OutOfBand      bool   `json:"outOfBand"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
	// AskForHosts asks a person about a host in neither domain list, where
	// one can be asked; false refuses every such host.
	AskForHosts bool `json:"askForHosts"`
}

// Limits bound what one command may cost.
type Limits struct {
	CommandTimeoutSeconds int   `json:"commandTimeoutSeconds"`
	OutputBytes           int   `json:"outputBytes"`
	OutputFileBytes       int64 `json:"outputFileBytes"`
	OutputStoreBytes      int64 `json:"outputStoreBytes"`
}

// Model says which OpenAI-compatible server and model to talk to.
type Model struct {
	Name      string `json:"name"`
	BaseURL   string `json:"baseURL"`
	APIKeyEnv string `json:"apiKeyEnv"`
	// ContextTokens bounds what is sent in one request: the model's
	// window as the server serves it (Ollama serves 4096 unless told
	// otherwise). The chat compacts its history to fit.
	ContextTokens int `json:"contextTokens"`
}

// UI is how the full-screen face (wisp tui) looks.
type UI struct {
	// Theme is dark or light; unset, the terminal's background decides.
	Theme string `json:"theme"`
}

// Checkpoints say whether wisp records the writable roots before each turn
// and each ! line, so that /undo and wisp undo can take a turn back, and how
// much it keeps.
type Checkpoints struct {
	Enabled bool `json:"enabled"`
	// MaxRootSize caps the bytes one root's recorded files may hold (what
	// .gitignore leaves out does not count); a root over it is not
	// recorded, and the person is told before the turn.
	MaxRootSize int64 `json:"maxRootSize"`
	Keep        int   `json:"keep"`       // checkpoints kept per project
	MaxAgeDays  int   `json:"maxAgeDays"` // older ones are pruned (the newest is kept)
}

// Themes lists ui.theme's values.
var Themes = []string{"dark", "light"}

// Thresholds lists approval.threshold's values, lowest first.
var Thresholds = []string{"low", "moderate", "high", "never"}

// Default returns the configuration that an empty config.json means.
func Default() Config {
	return Config{
		CommandPolicy: CommandPolicy{
			Deny:  []string{},
			Allow: []string{},
			Sandbox: Sandbox{
				Enabled:             true,
				AllowNetwork:        true,
				AllowOutsideSandbox: true,
				WritablePaths:       []string{},
			},
		},
		Approval: Approval{Threshold: "", OutOfBand: false, TimeoutSeconds: 600, AskForHosts: true},
		Limits: Limits{
			CommandTimeoutSeconds: 120,
			OutputBytes:           16 << 10,
			OutputFileBytes:       64 << 20,
			OutputStoreBytes:      512 << 20,
		},
		Model:       Model{Name: "granite4.1:8b", BaseURL: "http://127.0.0.1:11434/v1", ContextTokens: 4096},
		Checkpoints: Checkpoints{Enabled: true, MaxRootSize: 2 << 30, Keep: 100, MaxAgeDays: 30},
	}
}

// InvalidError says config.json cannot be used, and why. The file is left as
// it is: nothing overwrites an invalid config.
type InvalidError struct {
	Path     string
	Problems []string
}

func (e *InvalidError) Error() string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s is invalid", e.Path)
	for i, p := range e.Problems {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(p)
	}
	return b.String()
}

// Hint is what the person can do: wisp's commands print it under the error.
func (e *InvalidError) Hint() string {
	return fmt.Sprintf("fix %s by hand; wisp never overwrites an invalid config", e.Path)
}

// Load reads config.json from the home. A missing file is the defaults; an
// invalid one is an *InvalidError that names every problem found; one that
// is a link, another's, or writable by others is an *UnsafeError.
func Load(h Home) (Config, error) {
	data, err := ReadStateFile(h.ConfigFile())
	if errors.Is(err, fs.ErrNotExist) {
		return Default(), nil
	}
	var unsafe *UnsafeError
	if errors.As(err, &unsafe) {
		return Config{}, err
	}
	if err != nil {
		return Config{}, fmt.Errorf("read config: %w", err)
	}
	return Parse(h.ConfigFile(), data)
}

// Parse validates data against the schema and returns it over the defaults.
func Parse(path string, data []byte) (Config, error) {
	tree, err := decodeTree(data)
	if err != nil {
		return Config{}, &InvalidError{Path: path, Problems: []string{err.Error()}}
	}
	if problems := validate(tree); len(problems) > 0 {
		return Config{}, &InvalidError{Path: path, Problems: problems}
	}
	cfg := Default()
	if len(tree) == 0 {
		return cfg, nil
	}
	if err := json.Unmarshal(data, &cfg); err != nil {
		return Config{}, &InvalidError{Path: path, Problems: []string{err.Error()}}
	}
	return cfg, nil
}

// decodeTree parses JSON into maps and json.Numbers so validation can see
// every key and tell 1 from 1.5.
func decodeTree(data []byte) (map[string]any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, syntaxProblem(data, err)
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: more than one value in the file")
	}
	obj, ok := tree.(map[string]any)
	if !ok {
		return nil, errors.New("the file must hold one JSON object")
	}
	return obj, nil
}

// syntaxProblem says where JSON that does not parse goes wrong: the line
// and column (counted in characters, from 1) and the line itself, so that
// a person finds it without counting bytes. A file that ends too soon goes
// wrong at its end.
func syntaxProblem(data []byte, err error) error {
	offset := len(data)
	var syntax *json.SyntaxError
	switch {
	case errors.As(err, &syntax):
		offset = int(syntax.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		err = errors.New("the file ends before the JSON does (a missing } or ])")
	default:
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if closer := missingSeparator(err); closer != "" && offset > 0 {
		return missingComma(data, offset, closer)
	}
	line, column, text := position(data, offset)
	return fmt.Errorf("not valid JSON at line %d, column %d: %v, in the line `%s`", line, column, err, text)
}

// missingSeparator is the closer of the object or array in which the
// decoder met a value where a comma or that closer should come, or "".
func missingSeparator(err error) string {
	switch msg := err.Error(); {
	case strings.HasSuffix(msg, "after object key:value pair"):
		return "}"
	case strings.HasSuffix(msg, "after array element"):
		return "]"
	}
	return ""
}

// missingComma says where the comma goes that a value lacks before the
// character the decoder stopped at (offset is past it). A person who adds
// a line by hand forgets the comma at the end of the line before, and the
// decoder only notices at the start of the next: the line before is named
// then, not the one after it, which is right.
func missingComma(data []byte, offset int, closer string) error {
	bad, _ := utf8.DecodeLastRune(data[:offset])
	lineStart := bytes.LastIndexByte(data[:offset], '\n') + 1
	if lineStart > 0 && len(bytes.TrimSpace(data[lineStart:offset-utf8.RuneLen(bad)])) == 0 {
		line, column, text := position(data, lineStart)
		return fmt.Errorf("not valid JSON at line %d, column %d: a comma (or a %s) is missing at the end of the line, in the line `%s`", line, column+1, closer, text)
	}
	line, column, text := position(data, offset)
	return fmt.Errorf("not valid JSON at line %d, column %d: a comma (or a %s) is missing before the '%c', in the line `%s`", line, column, closer, bad, text)
}

// position is the line and column of the byte before offset (where the
// decoder stopped: the offending character), and that line's text.
func position(data []byte, offset int) (line, column int, text string) {
	offset = min(max(offset, 1), len(data))
	before := data[:offset]
	// The decoder's offset is past the character it choked on; a file that
	// ends too soon is pointed at its last character that is not a space.
	before = bytes.TrimRight(before, " \t\r\n")
	if len(before) == 0 {
		return 1, 1, ""
	}
	line = bytes.Count(before, []byte("\n")) + 1
	start := bytes.LastIndexByte(before, '\n') + 1
	column = utf8.RuneCount(before[start:])
	end := bytes.IndexByte(data[start:], '\n')
	if end < 0 {
		end = len(data) - start
	}
	return line, column, strings.TrimSpace(string(data[start : start+end]))
}
