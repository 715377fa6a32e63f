package main

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
)

// runnerOptions are the flags that change how commands run.
type runnerOptions struct {
	unsafe bool // --unsafe: run unconfined, said on every run
}

// session is one wisp process: its home, configuration, audit log and
// runner, wired from the outside world the App gives.
type session struct {
	home   config.Home
	cfg    config.Config
	audit  *audit.Logger
	runner *runner.Runner
}

// newSession loads the configuration and wires the runner. A sandbox that
// cannot be had is not an error here: confined runs fail closed with the
// reason, and unconfined ones (--unsafe, sandbox off) still work.
func newSession(app *App, opts runnerOptions) (*session, error) {
	home, cfg, err := app.Config()
	if err != nil {
		return nil, err
	}
	if err := handOffForProxy(cfg); err != nil {
		return nil, err
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
	log := audit.New(home, audit.NewSession(), os.Getpid(), app.Now)
	r := &runner.Runner{
		Config: cfg, Home: home, Dir: launch, Policy: pol, Unsafe: opts.unsafe, Audit: log,
		Store: &runner.Store{Dir: home.OutputsDir(), FileBytes: cfg.Limits.OutputFileBytes,
			MaxBytes: cfg.Limits.OutputStoreBytes, Now: app.Now},
	}
	if err := wireSandbox(app, r, home, cfg, launch); err != nil {
		return nil, err
	}
	return &session{home: home, cfg: cfg, audit: log, runner: r}, nil
}

// specOptions is what the configuration says of the sandbox for a command
// launched in launch: every place that builds a spec (the session, a
// folder grant, doctor and sandbox report) builds it from the same keys.
func specOptions(app *App, cfg config.Config, home config.Home, launch, userHome string) sandbox.SpecOptions {
	sb := cfg.CommandPolicy.Sandbox
	return sandbox.SpecOptions{
		LaunchDir: launch, WispHome: home.Dir, UserHome: userHome,
		WritablePaths: sb.WritablePaths, AllowNetwork: sb.AllowNetwork, AllowUnixSockets: sb.AllowUnixSockets,
		AllowBackground: sb.AllowBackground, DenyRead: sb.DenyRead,
		AllowRead: sb.AllowRead, EnvKeep: sb.Environment.Keep, EnvDrop: sb.Environment.Drop,
		APIKeyEnv: cfg.Model.APIKeyEnv,
		Getenv:    app.Getenv,
	}
}

func wireSandbox(app *App, r *runner.Runner, home config.Home, cfg config.Config, launch string) error {
	if !cfg.CommandPolicy.Sandbox.Enabled || r.Unsafe {
		return nil
	}
	userHome, _ := app.UserHome()
	spec, err := sandbox.NewSpec(specOptions(app, cfg, home, launch, userHome))
	if err != nil {
		return err
	}
	r.Spec = spec
	exe, err := app.Executable()
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
func (s *session) Close() {
	s.runner.Close()
	s.audit.Close()
}

// gateOptions say which faces can ask a person for this process.
type gateOptions struct {
	face     string // chat, respond, mcp, run: written into pending requests
	terminal bool   // ask on the controlling terminal when there is one
	yes      bool   // --yes: approve what may be approved without a person
	extra    []approval.Approver
}

// wireGate gives the runner its gate: the threshold, held approvals, and
// every approver that can ask here, asking at once.
func (s *session) wireGate(opts gateOptions) {
	g := &approval.Gate{
		Threshold: s.threshold().Level, Held: approval.NewHeld(s.home),
		Audit: s.audit, Project: s.runner.Dir,
	}
	if opts.yes {
		g.Approvers = append(g.Approvers, approval.Auto{})
	}
	if opts.terminal {
		if t := approval.OpenTerminal(); t != nil {
			g.Approvers = append(g.Approvers, t)
		}
	}
	if s.cfg.Approval.OutOfBand {
		g.Approvers = append(g.Approvers, &approval.OutOfBand{Channel: s.channel(), Face: opts.face, Audit: s.audit})
	}
	g.Approvers = append(g.Approvers, opts.extra...)
	s.runner.Gate = g
	s.runner.Hosts = approval.NewHosts(g) // a host in neither domain list is asked by the faces that ask a person
}

// threshold is the approval.threshold that applies to this session's
// commands: as the operator set it, or the default for how they run.
func (s *session) threshold() approval.Threshold {
	return approval.ResolveThreshold(s.cfg.Approval.Threshold, confinement(s.runner.Resolve(false)))
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

// channel is the pending channel, with refused answers audited.
func (s *session) channel() *pending.Channel {
	timeout := time.Duration(s.cfg.Approval.TimeoutSeconds) * time.Second
	return pending.New(s.home.PendingDir(), pending.WithTimeout(timeout),
		pending.WithRefusals(func(file string, reason error) {
			id, _, _ := strings.Cut(filepath.Base(file), ".")
			_ = s.audit.Log(audit.AnswerRefused{ID: id, File: file, Reason: reason.Error()})
		}))
}
