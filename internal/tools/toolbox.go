package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
)

// AskPerson puts a question to the person through every face that can
// ask them; nil means add_directory is not offered here.
type AskPerson func(ctx context.Context, req approval.Request) (approval.Answer, error)

// Toolbox runs the model's tool calls for one conversation.
type Toolbox struct {
	Runner  *runner.Runner
	Folders Folders
	// Spec rebuilds the sandbox's spec with the granted folders; nil when
	// the sandbox is off, and then a grant only widens nothing.
	Spec func(granted []string) (sandbox.Spec, error)
	Ask  AskPerson
	// Live, when set, gets a model's command's output as it comes (the
	// face shows its last lines while it runs).
	Live io.Writer

	mu      sync.Mutex
	granted []string
	denied  map[string]bool // folders the person refused to grant
	turn    turnState
}

// Output is what one tool call comes to.
type Output struct {
	Text   string         // the tool's result, as the model reads it
	Result *runner.Result // run_command's outcome, for the faces to show
}

// Definitions are the tools offered: add_directory only where someone can
// be asked.
func (tb *Toolbox) Definitions() []Definition {
	defs := []Definition{RunCommand()}
	if tb.Ask != nil {
		defs = append(defs, AddDirectory())
	}
	return append(defs, Inspect())
}

// NewTurn starts a turn: the grant nudge names each folder once a turn.
func (tb *Toolbox) NewTurn() {
	tb.mu.Lock()
	tb.turn = turnState{}
	tb.mu.Unlock()
}

// Call runs one tool call. Every failure is text for the model; the error
// is for wisp's own failures only.
func (tb *Toolbox) Call(ctx context.Context, name, arguments string) (Output, error) {
	switch name {
	case "run_command":
		return tb.runCommand(ctx, arguments)
	case "add_directory":
		if tb.Ask != nil {
			return tb.addDirectory(ctx, arguments)
		}
	case "inspect":
		return tb.inspect(arguments), nil
	}
	return Output{Text: fmt.Sprintf("error: there is no tool %q here; the tools are %s", name, toolNames(tb.Definitions()))}, nil
}

type runArgs struct {
	Command        string `json:"command"`
	OutsideSandbox bool   `json:"outsideSandbox"`
	TimeoutSeconds int    `json:"timeoutSeconds"`
}

func (tb *Toolbox) runCommand(ctx context.Context, arguments string) (Output, error) {
	var a runArgs
	if err := decodeArgs(arguments, &a); err != nil || strings.TrimSpace(a.Command) == "" {
		return Output{Text: badArgs("run_command", err, `{"command": "ls -la"}`)}, nil
	}
	res, err := tb.Runner.Run(ctx, runner.Request{
		Line: a.Command, Origin: runner.Model, OutsideSandbox: a.OutsideSandbox,
		Timeout: time.Duration(a.TimeoutSeconds) * time.Second, Live: tb.Live,
	})
	if err != nil {
		return Output{}, err
	}
	text := res.ModelText()
	for _, note := range tb.nudges(a, res) {
		text += "\n" + note
	}
	return Output{Text: text, Result: &res}, nil
}

func decodeArgs(arguments string, v any) error {
	if strings.TrimSpace(arguments) == "" {
		arguments = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(arguments))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func badArgs(tool string, err error, example string) string {
	why := "a required argument is missing"
	if err != nil {
		why = err.Error()
	}
	return fmt.Sprintf("error: the arguments of %s are not valid (%s); call it again with JSON such as %s", tool, why, example)
}

func toolNames(defs []Definition) string {
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

type dirArgs struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// addDirectory asks the person to grant a folder for this session.
func (tb *Toolbox) addDirectory(ctx context.Context, arguments string) (Output, error) {
	var a dirArgs
	if err := decodeArgs(arguments, &a); err != nil || a.Path == "" {
		return Output{Text: badArgs("add_directory", err, `{"path": "../other-repo", "reason": "the fix spans both repositories"}`)}, nil
	}
	folder, err := tb.Folders.Resolve(a.Path)
	if err == nil {
		err = tb.Folders.Refuse(folder)
	}
	if err != nil {
		return Output{Text: "error: " + err.Error()}, nil
	}
	if tb.isRoot(folder) {
		return Output{Text: folder + " is already writable: commands may write there now"}, nil
	}
	ans, err := tb.Ask(ctx, approval.Request{
		Line: "add_directory " + folder, Dir: tb.Folders.Project, Level: policy.Moderate, Grant: folder,
		Reasons: []string{"the model says: " + a.Reason, "lets every command write under " + folder + " for the rest of this session"},
		Scopes:  []approval.Scope{approval.Once},
	})
	if err != nil {
		return Output{}, err
	}
	if !ans.Approve {
		tb.mu.Lock()
		tb.denied = setAdd(tb.denied, folder)
		tb.mu.Unlock()
		return Output{Text: "error: the person did not add " + folder + " to the writable roots; work inside the roots, or ask the person"}, nil
	}
	return tb.grant(folder)
}

func (tb *Toolbox) grant(folder string) (Output, error) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	granted := append(append([]string{}, tb.granted...), folder)
	if tb.Spec != nil {
		spec, err := tb.Spec(granted)
		if err != nil {
			return Output{Text: "error: " + folder + " could not be added: " + err.Error()}, nil
		}
		tb.Runner.Spec = spec
	}
	tb.granted = granted
	return Output{Text: "added " + folder + " to the writable roots for this session"}, nil
}

func (tb *Toolbox) isRoot(folder string) bool {
	for _, r := range tb.Runner.Spec.Roots {
		if within(folder, r) {
			return true
		}
	}
	return false
}

func setAdd(m map[string]bool, k string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[k] = true
	return m
}
