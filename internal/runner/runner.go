// Package runner owns one command's run from policy to outcome: the
// operator's lists, the gate, the sandbox's wrapping, the process group and
// its time limit, the output's bound and store, the refusal check, and the
// audit of it all. Every face runs commands through Runner.Run and no other
// way.
//
// It imports policy, sandbox, approval-free interfaces and audit; never a face.
package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/netproxy"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/refusal"
)

// Origin says who asked for a command.
type Origin string

const (
	Model  Origin = "model"  // the model's run_command, or `wisp run --ask`
	Person Origin = "person" // typed after ! or !!, or `wisp run`
)

// Request is one line to run.
type Request struct {
	Line           string
	Origin         Origin
	OutsideSandbox bool
	// Timeout overrides the time limit; zero means the default for the
	// origin (limits.commandTimeoutSeconds for the model, none for a person).
	Timeout time.Duration
	Stdin   io.Reader // nil: /dev/null
	Live    io.Writer // when set, output streams here as it comes
	// Terminal, for a person's command typed at a terminal, attaches the
	// command to it through a pseudo-terminal, so interactive programs
	// work; it must be opened pollable (OpenTerminal). Stdin is then unused.
	Terminal *os.File
	// InSandboxHint ends a person's refusal when the operator's switch is
	// off; empty means DefaultInSandboxHint (chat's wording).
	InSandboxHint string
}

// Gate clears a model's command before it runs: the risk, the threshold,
// held approvals, and the person where one must be asked.
type Gate interface {
	Clear(ctx context.Context, req GateRequest) (Clearance, error)
}

// GateRequest is what the gate is asked about.
type GateRequest struct {
	Line, Dir      string
	Origin         Origin
	OutsideSandbox bool // a request to run this line outside the sandbox
	Decision       policy.Decision
}

// Clearance is the gate's answer. A refusal carries the text the model
// reads, starting "error: command not approved: ".
type Clearance struct {
	Approved bool
	Message  string
	By       string
	Scope    string
}

// Runner runs commands for one wisp process.
type Runner struct {
	Config  config.Config
	Home    config.Home
	Dir     string // the launch directory: where commands run
	Policy  *policy.Policy
	Spec    sandbox.Spec
	Backend sandbox.Backend // nil when none can be had: see BackendErr
	// BackendErr says why no sandbox can be had; confined runs fail closed.
	BackendErr error
	Unsafe     bool // --unsafe: every command unconfined, said on every run
	Nested     bool // wisp itself runs inside another sandbox
	Gate       Gate // nil: commands pass, outsideSandbox is refused
	Audit      *audit.Logger
	Store      *Store
	Env        []string // nil: wisp's own environment
	Grace      time.Duration

	// OneShot is for a process that runs one command (wisp run): starting
	// a served sandbox helper would cost more than it saves, so each
	// confined command starts its own helper.
	OneShot bool
	served  served // the served sandbox helper, started at the first confined command
	// Hosts asks a person about a host in neither domain list (network.go).
	Hosts netproxy.Asker
	net   network // wisp's proxy, when commands reach the network by domain
}

// ErrNoSandbox is wrapped in the error of a confined run when no sandbox
// can be had.
var ErrNoSandbox = errors.New("no sandbox can be had here")

// Run takes one line from the policy to its outcome. The error is for
// wisp's own failures (a broken output store, a command that could not
// start); a denial, a refusal or a failed command is a Result.
func (r *Runner) Run(ctx context.Context, req Request) (Result, error) {
	res := Result{Line: req.Line, Origin: req.Origin}
	decision := r.Policy.Check(req.Line)
	mode := r.Resolve(req.OutsideSandbox)
	r.auditDecision(req, decision, mode)
	if !decision.Allowed {
		res.Denied, res.Message = true, decision.ModelMessage()
		return res, nil
	}
	if mode == ModeRefused {
		res.Denied, res.Message = true, r.switchOffMessage(req)
		return res, nil
	}
	if req.Origin == Model {
		if ok, err := r.clear(ctx, req, decision, mode, &res); !ok || err != nil {
			return res, err
		}
	}
	if req.OutsideSandbox {
		res.SandboxLine = changedNothing(mode, req.Origin)
	}
	return r.execute(ctx, req, mode, res)
}

func (r *Runner) switchOffMessage(req Request) string {
	if req.Origin == Model {
		return "error: command denied by policy: " + switchOffModel
	}
	hint := req.InSandboxHint
	if hint == "" {
		hint = DefaultInSandboxHint
	}
	return switchOff + hint
}

// clear asks the gate about a model's command. Only a confined or plain
// command passes without a gate; a request to leave the sandbox needs one.
func (r *Runner) clear(ctx context.Context, req Request, d policy.Decision, mode Mode, res *Result) (bool, error) {
	outside := mode == ModeOutside
	if r.Gate == nil {
		if !outside {
			return true, nil
		}
		res.NotApproved, res.Message = true, noGateMessage
		return false, nil
	}
	c, err := r.Gate.Clear(ctx, GateRequest{Line: req.Line, Dir: r.Dir, Origin: req.Origin, OutsideSandbox: outside, Decision: d})
	if err != nil {
		return false, fmt.Errorf("ask for approval: %w", err)
	}
	if !c.Approved {
		res.NotApproved, res.Message = true, c.Message
		return false, nil
	}
	return true, nil
}

const noGateMessage = "error: command not approved: running outside the sandbox is asked of a person every time, " +
	"and no one can be asked here; run it without outsideSandbox, or ask the person to run it themselves"

// argv wraps the line for its mode: the sandbox's helper when confined,
// the plain shell otherwise. A confined run with no sandbox fails closed.
// The attributes, when not nil, are the backend's to start the helper with
// (a user namespace entered at once instead of by a second helper stage).
func (r *Runner) argv(line string, mode Mode, spec sandbox.Spec) ([]string, *syscall.SysProcAttr, string, error) {
	switch mode {
	case ModeSandboxOff, ModeOutside:
		return sandbox.Plain(line), nil, "none", nil
	case ModeNested:
		return sandbox.Plain(line), nil, "nested", nil
	}
	if r.Backend == nil {
		reason := r.BackendErr
		if reason == nil {
			reason = ErrNoSandbox
		}
		return nil, nil, "", reason
	}
	if ac, ok := r.Backend.(sandbox.AttrCommander); ok {
		argv, attr, err := ac.CommandAttr(spec, line)
		return argv, attr, r.Backend.Name(), err
	}
	argv, err := r.Backend.Command(spec, line)
	return argv, nil, r.Backend.Name(), err
}

func (r *Runner) timeout(req Request) time.Duration {
	if req.Timeout > 0 || req.Origin == Person {
		return req.Timeout
	}
	return time.Duration(r.Config.Limits.CommandTimeoutSeconds) * time.Second
}

func (r *Runner) dir() string {
	if r.Dir != "" {
		return r.Dir
	}
	d, _ := os.Getwd()
	return d
}

// refusalInput is what the refusal check needs of this runner.
func (r *Runner) refusalInput(spec sandbox.Spec, line string, output []byte) refusal.Input {
	return refusal.Input{
		Output:      output,
		Command:     line,
		Dir:         r.dir(),
		Home:        r.userHome(),
		Roots:       spec.Roots,
		Protected:   spec.Protected,
		NetworkOff:  !spec.Network,
		UnixSockets: spec.UnixSockets,
		DenyRead:    spec.DenyRead, AllowRead: spec.AllowRead,
	}
}

func (r *Runner) userHome() string {
	h, _ := os.UserHomeDir()
	return h
}

// OpenTerminal opens the controlling terminal for Request.Terminal, or
// returns nil when there is none.
func OpenTerminal() *os.File {
	f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return nil
	}
	return f
}
