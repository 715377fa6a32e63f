package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/pending"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
	_ "github.com/wisp-sh/wisp/sandbox/landlock" // Linux's backend registers itself, and the helper's entry
)

// SessionOptions are the flags that change how commands run.
type SessionOptions struct {
	Unsafe bool // --unsafe: run unconfined, said on every run
}

// Session is one wisp process: its home, configuration, audit log and
// runner, wired from the outside world the Factory gives.
type Session struct {
	Home   config.Home
	Cfg    config.Config
	Audit  *audit.Logger
	Runner *runner.Runner
	// Checkpoints is set when a checkpoint is taken before each turn, so
	// that a deletion inside the roots need not ask (agentapp sets it; a
	// face that runs no turns, wisp run, leaves it unset).
	Checkpoints bool
}

// NewSession loads the configuration and wires the runner. A sandbox that
// cannot be had is not an error here: confined runs fail closed with the
// reason, and unconfined ones (--unsafe, sandbox off) still work.
func NewSession(f *Factory, opts SessionOptions) (*Session, error) {
	home, cfg, err := f.Config()
	if err != nil {
		return nil, err
	}
	if f.BeforeSession != nil {
		if err := f.BeforeSession(cfg); err != nil {
			return nil, err
		}
	}
	if _, err := home.Ensure(); err != nil {
		return nil, err
	}
	pol, err := policy.New(cfg.CommandPolicy.Deny, cfg.CommandPolicy.Allow)
	if err != nil {
		return nil, err
	}
	launch, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("find the launch directory: %w", err)
	}
	log := audit.New(home, audit.NewSession(), os.Getpid(), f.Now)
	r := &runner.Runner{
		Config: cfg, Home: home, Dir: launch, Policy: pol, Unsafe: opts.Unsafe, Audit: log,
		Store: &runner.Store{Dir: home.OutputsDir(), FileBytes: cfg.Limits.OutputFileBytes,
			MaxBytes: cfg.Limits.OutputStoreBytes, Now: f.Now},
	}
	if err := wireSandbox(f, r, home, cfg, launch); err != nil {
		return nil, err
	}
	return &Session{Home: home, Cfg: cfg, Audit: log, Runner: r}, nil
}

// SpecOptions is what the configuration says of the sandbox for a command
// launched in launch: every place that builds a spec (the session, a
// folder grant, doctor and sandbox report) builds it from the same keys.
func SpecOptions(f *Factory, cfg config.Config, home config.Home, launch, userHome string) sandbox.SpecOptions {
	sb := cfg.CommandPolicy.Sandbox
	return sandbox.SpecOptions{
		LaunchDir: launch, WispHome: home.Dir, UserHome: userHome,
		WritablePaths: sb.WritablePaths, AllowNetwork: sb.AllowNetwork, AllowUnixSockets: sb.AllowUnixSockets,
		AllowBackground: sb.AllowBackground, DenyRead: sb.DenyRead,
		AllowRead: sb.AllowRead, EnvKeep: sb.Environment.Keep, EnvDrop: sb.Environment.Drop,
		APIKeyEnv: cfg.Model.APIKeyEnv,
		Getenv:    f.Getenv,
	}
}

func wireSandbox(f *Factory, r *runner.Runner, home config.Home, cfg config.Config, launch string) error {
	if !cfg.CommandPolicy.Sandbox.Enabled || r.Unsafe {
		return nil
	}
	userHome, _ := f.UserHome()
	spec, err := sandbox.NewSpec(SpecOptions(f, cfg, home, launch, userHome))
	if err != nil {
		return err
	}
	r.Spec = spec
	exe, err := f.Executable()
	if err != nil {
		return fmt.Errorf("find wisp's own binary for the sandbox helper: %w", err)
	}
	r.Backend, r.BackendErr = sandbox.Detect(exe)
	if c, ok := r.Backend.(sandbox.ProbeCacher); ok {
		// doctor and `sandbox report` leave this out and probe afresh.
		c.CacheProbeIn(home.SandboxProbeFile())
	}
	r.Nested = sandbox.Nested()
	if r.Backend != nil {
		// What this system cannot protect is reported; a root holding
		// wisp's home without a way to protect it fails closed at run time.
		if checked, err := r.Backend.Check(spec); err != nil {
			r.Backend, r.BackendErr = nil, err
		} else {
			r.Spec = checked
		}
	}
	return r.StartNetwork() // allowedDomains: wisp's proxy, the one place commands connect to
}

// Close ends the session's served sandbox helper and closes the audit log.
func (s *Session) Close() {
	s.Runner.Close()
	s.Audit.Close()
}

// GateOptions say which faces can ask a person for this process.
type GateOptions struct {
	Face     string // chat, respond, mcp, run: written into pending requests
	Terminal bool   // ask on the controlling terminal when there is one
	Yes      bool   // --yes: approve what may be approved without a person
	Extra    []approval.Approver
}

// WireGate gives the runner its gate: the threshold, held approvals, and
// every approver that can ask here, asking at once.
func (s *Session) WireGate(opts GateOptions) {
	g := &approval.Gate{
		Threshold: s.Threshold().Level, Held: approval.NewHeld(s.Home),
		Audit: s.Audit, Project: s.Runner.Dir,
	}
	if opts.Yes {
		g.Approvers = append(g.Approvers, approval.Auto{})
	}
	if opts.Terminal {
		if t := approval.OpenTerminal(); t != nil {
			g.Approvers = append(g.Approvers, t)
		}
	}
	if s.Cfg.Approval.OutOfBand {
		g.Approvers = append(g.Approvers, &approval.OutOfBand{Channel: s.Channel(), Face: opts.Face, Audit: s.Audit})
	}
	g.Approvers = append(g.Approvers, opts.Extra...)
	s.Runner.Gate = g
	s.Runner.Hosts = approval.NewHosts(g) // a host in neither domain list is asked by the faces that ask a person
}

// Threshold is the approval.threshold that applies to this session's
// commands: as the operator set it, or the default for how they run.
func (s *Session) Threshold() approval.Threshold {
	return approval.ResolveUndoThreshold(s.Cfg.Approval.Threshold, confinement(s.Runner.Resolve(false)), s.Checkpoints)
}

// confinement maps how an ordinary command runs to what picks the default
// threshold.
func confinement(m runner.Mode) approval.Confinement {
	switch m {
	case runner.ModeConfined:
		return approval.Confined
	case runner.ModeNested:
		return approval.Nested
	}
	return approval.SandboxOff
}

// Channel is the pending channel, with refused answers audited.
func (s *Session) Channel() *pending.Channel {
	timeout := time.Duration(s.Cfg.Approval.TimeoutSeconds) * time.Second
	return pending.New(s.Home.PendingDir(), pending.WithTimeout(timeout),
		pending.WithRefusals(func(file string, reason error) {
			id, _, _ := strings.Cut(filepath.Base(file), ".")
			_ = s.Audit.Log(audit.AnswerRefused{ID: id, File: file, Reason: reason.Error()})
		}))
}

// Channel is the pending channel of wisp's home, for a command that reads
// or answers what waits there.
func (f *Factory) Channel() (*pending.Channel, error) {
	home, err := f.Home()
	if err != nil {
		return nil, err
	}
	return pending.New(home.PendingDir(), pending.WithClock(f.Now)), nil
}
