package runner

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/audit"
	"github.com/wisp-sh/wisp/policy"
	"github.com/wisp-sh/wisp/sandbox"
	"github.com/wisp-sh/wisp/sandbox/gitguard"
	"github.com/wisp-sh/wisp/sandbox/refusal"
)

// execute wraps, runs and checks one cleared line.
func (r *Runner) execute(ctx context.Context, req Request, mode Mode, res Result) (Result, error) {
	confinement := r.networkSpec(r.Spec)
	if mode == ModeConfined {
		confinement = confinement.Refresh() // a repository made since the last command is protected from this one on
	}
	argv, attr, backend, err := r.argv(req.Line, mode, confinement)
	if err != nil {
		res.Unavailable, res.Message = true, unavailableMessage(err)
		r.auditOutcome(req, res)
		return res, nil
	}
	res.Sandbox, res.OutsideSandbox = backend, mode == ModeOutside
	var git *gitguard.Snapshot
	if mode == ModeConfined {
		// What the command writes where git would run it is put back to
		// this after it; what cannot be put back stops it before it runs.
		if git, err = confinement.SnapshotGit(); err != nil {
			res.Unavailable, res.Message = true, "error: command not run: "+err.Error()
			r.auditOutcome(req, res)
			return res, nil
		}
	}
	id, file, err := r.Store.Create()
	if err != nil {
		git.PutBack() // nothing ran: only gives the hold back
		return res, err
	}
	view := newCapture(r.Config.Limits.OutputBytes)
	out := io.MultiWriter(view, file)
	if req.Live != nil {
		out = io.MultiWriter(view, file, req.Live)
	}
	spec := execSpec{
		argv: argv, dir: r.dir(), env: r.envFor(mode), stdin: req.Stdin, out: out,
		timeout: r.timeout(req), grace: r.Grace, terminal: req.Terminal, attr: attr,
	}
	if mode == ModeConfined && req.Terminal == nil && !r.OneShot {
		if server := r.served.serverFor(r.Backend, confinement, argv); server != nil {
			spec.server, spec.servedArgv = server, sandbox.Plain(req.Line)
			spec.serverFailed = func() { r.served.drop(server) }
		}
	}
	endNetwork := r.beginNetwork(ctx, id, req.Line, mode)
	er, err := execute(ctx, spec)
	refusedHosts := endNetwork()
	file.Close() // adds the output to the store, pruning the oldest when due
	// Once execute returns, every process of the command has ended, so
	// nothing can write again after what it wrote is put back.
	res.PutBack = git.PutBack()
	if err != nil {
		return res, err
	}
	res.Ran = true
	res.ExitCode, res.TimedOut, res.Canceled, res.Duration = er.exitCode, er.timedOut, er.canceled, er.duration
	res.Output, res.OutputID, res.OutputBytes = view.View(id), id, view.Total()
	res.Timeout = r.timeout(req)
	r.checkRefusal(mode, confinement, view, &res)
	noteNetwork(&res, refusedHosts)
	r.notePutBack(&res)
	noteStopped(&res, er, mode == ModeConfined && r.Spec.Background)
	r.auditOutcome(req, res)
	return res, nil
}

// notePutBack tells the person what the put-back after the command did.
func (r *Runner) notePutBack(res *Result) {
	note := gitguard.PutBackNote(res.PutBack, r.dir())
	switch {
	case note == "":
	case res.PersonNote == "":
		res.PersonNote = note
	default:
		res.PersonNote += "\n" + note
	}
}

// checkRefusal reads a confined command's output for the sandbox's
// refusal (docs/decisions.md, D8) and sets the one sandbox: line. A command that exited 0
// is read too: a refusal in the middle of a line (touch /x; echo done) is
// still one the person and the model should hear of (issue 28 item 5). The
// check's first pass looks only for an errno text a refusal can make, so
// a clean output costs one scan; and of a command that worked only a
// refusal the output names is told, not a guess or another cause.
func (r *Runner) checkRefusal(mode Mode, spec sandbox.Spec, view *capture, res *Result) {
	switch {
	case mode == ModeOutside && res.Origin == Person:
		res.SandboxLine = ranOutsideTypedLine
		return
	case mode == ModeOutside:
		res.SandboxLine = ranOutsideLine
		return
	case mode == ModeSandboxOff && res.SandboxLine == "":
		res.SandboxLine = r.offLine()
		return
	case mode != ModeConfined:
		return
	}
	res.Refusal = refusal.Check(r.refusalInput(spec, res.Line, view.Bytes()))
	if res.ExitCode == 0 && !res.Refusal.Certain() {
		res.Refusal = refusal.Result{}
		return
	}
	offer := r.Config.CommandPolicy.Sandbox.AllowOutsideSandbox
	res.SandboxLine = res.Refusal.ModelLine(r.Spec.Roots, offer)
	res.PersonNote = res.Refusal.PersonNote(r.Spec.Roots)
}

// offLine says on every run that the sandbox is off, and who turned it off.
func (r *Runner) offLine() string {
	if r.Unsafe {
		return "sandbox: off (--unsafe): this command ran unconfined"
	}
	return "sandbox: off (commandPolicy.sandbox.enabled is false): this command ran unconfined"
}

func unavailableMessage(err error) string {
	return fmt.Sprintf("error: command not run: %v; wisp runs no command unconfined unless told to "+
		"(commandPolicy.sandbox.enabled false, or --unsafe)", err)
}

func (r *Runner) auditDecision(req Request, d policy.Decision, mode Mode) {
	ev := audit.PolicyDecision{
		Origin: string(req.Origin), Command: req.Line, Allowed: d.Allowed,
		Segment: d.Segment, Rule: d.Rule, Reason: d.Reason,
		Level: d.Risk.Level.String(), Reasons: d.Risk.Reasons,
	}
	if req.OutsideSandbox {
		switch mode {
		case ModeSandboxOff, ModeNested:
			ev.OutsideSandboxIgnored = ignoredReason(mode)
		default:
			ev.OutsideSandbox = true
			if d.Allowed && mode == ModeOutside {
				no := false
				ev.Sandbox = &no
			}
		}
	}
	r.log(ev)
}

func (r *Runner) auditOutcome(req Request, res Result) {
	out := audit.CommandOutcome{
		Command: req.Line, Origin: string(req.Origin), ExitCode: res.ExitCode,
		TimedOut: res.TimedOut, Canceled: res.Canceled, Sandbox: res.Sandbox,
		OutsideSandbox: res.OutsideSandbox, SandboxRefusal: string(res.Refusal.Verdict),
		SandboxPaths: res.Refusal.Paths, Unprotected: unprotectedPaths(r.Spec),
		PutBack:  gitguard.PutBackPaths(res.PutBack),
		OutputID: res.OutputID, OutputBytes: res.OutputBytes, DurationMS: res.Duration.Milliseconds(),
	}
	if res.Unavailable {
		out.ExitCode = -1
	}
	r.log(out)
	if req.Origin == Person {
		r.log(audit.CommandTyped{
			Command: req.Line, OutsideSandbox: req.OutsideSandbox, ExitCode: res.ExitCode,
			SandboxRefused: res.Refusal.BySandbox(),
			SandboxRefusal: string(res.Refusal.Verdict), SandboxPaths: res.Refusal.Paths,
		})
	}
}

func (r *Runner) log(e audit.Event) {
	if r.Audit != nil {
		_ = r.Audit.Log(e) // the audit log never stops a command
	}
}

// Result is what came of one request.
type Result struct {
	Line   string
	Origin Origin

	Denied      bool   // by the operator's lists or switch
	NotApproved bool   // by the gate
	Unavailable bool   // no sandbox could be had; nothing ran
	Message     string // the denial or refusal, as the model reads it

	Ran            bool
	ExitCode       int
	TimedOut       bool
	Timeout        time.Duration
	Canceled       bool
	Duration       time.Duration
	Sandbox        string // landlock, seatbelt, none, nested
	OutsideSandbox bool   // ran without the sandbox, as approved or typed

	Output      string // the bounded view
	OutputID    string
	OutputBytes int64

	Refusal     refusal.Result
	SandboxLine string // at most one "sandbox: …" line for the model
	PersonNote  string // "· the sandbox refused …" for the person

	// PutBack is what the command wrote where git would run it, put back
	// once it ended.
	PutBack []gitguard.PutBack
}

// ModelText is run_command's result: output, the exit line, then at most
// one sandbox: line.
func (res Result) ModelText() string {
	if !res.Ran {
		return res.Message
	}
	var b strings.Builder
	b.WriteString(res.Output)
	if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
		b.WriteByte('\n')
	}
	b.WriteString(res.StatusLine())
	if res.SandboxLine != "" {
		b.WriteString("\n" + res.SandboxLine)
	}
	if line := gitguard.PutBackLine(res.PutBack, ""); line != "" {
		b.WriteString("\n" + line)
	}
	return b.String()
}

// StatusLine says how the command ended.
func (res Result) StatusLine() string {
	switch {
	case res.TimedOut:
		return fmt.Sprintf("[timed out after %s: the command and its processes were stopped]", res.Timeout)
	case res.Canceled:
		return "[stopped: the command and its processes were ended]"
	case res.ExitCode < 0:
		return "[exit status unknown: wisp could not learn how the command ended]"
	}
	return fmt.Sprintf("[exit status %d]", res.ExitCode)
}

// unprotectedPaths lists the protected paths this system could not cover.
func unprotectedPaths(spec sandbox.Spec) []string {
	var out []string
	for _, u := range spec.Unprotected {
		out = append(out, u.Path)
	}
	return out
}
