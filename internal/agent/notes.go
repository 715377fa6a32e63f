package agent

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/policy"
)

// personNotes are the · lines a person reads under a command: how it
// ended when that is not plain success, what the sandbox refused, what
// the lists blocked (decision D26's "· blocked by policy: …").
func personNotes(res runner.Result) []string {
	if !res.Ran {
		return []string{notRunNote(res)}
	}
	var notes []string
	switch {
	case res.TimedOut:
		notes = append(notes, "· "+strings.Trim(res.StatusLine(), "[]"))
	case res.Canceled:
		notes = append(notes, "· stopped: the command and its processes were ended")
	case res.ExitCode < 0:
		notes = append(notes, "· "+strings.Trim(res.StatusLine(), "[]"))
	case res.ExitCode > 128 && res.ExitCode < 128+65:
		notes = append(notes, fmt.Sprintf("· exit status %d (%s)", res.ExitCode, syscall.Signal(res.ExitCode-128)))
	case res.ExitCode != 0:
		notes = append(notes, fmt.Sprintf("· exit status %d", res.ExitCode))
	}
	switch {
	case res.PersonNote != "":
		notes = append(notes, res.PersonNote)
	case res.SandboxLine != "" && !res.OutsideSandbox:
		notes = append(notes, "· "+strings.TrimPrefix(res.SandboxLine, "sandbox: "))
	}
	return notes
}

func notRunNote(res runner.Result) string {
	msg := res.Message
	switch {
	case res.Denied:
		return "· blocked by policy: " + strings.TrimPrefix(msg, policy.DeniedPrefix)
	case res.NotApproved:
		return "· not approved: " + strings.TrimPrefix(msg, "error: command not approved: ")
	}
	return "· not run: " + strings.TrimPrefix(msg, "error: command not run: ")
}

// outsideApprovedNote is plain chat's note for a model's command approved
// to run outside the sandbox (docs/decisions.md, D19).
func outsideApprovedNote(line, dir string) string {
	return fmt.Sprintf("run %s OUTSIDE THE SANDBOX, this once, in %s", render.Line(line), render.Line(dir))
}
