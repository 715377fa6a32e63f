package agent

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/wisp-sh/wisp/internal/runner"
	"github.com/wisp-sh/wisp/internal/tools"
)

// SystemPrompt tells the model where it works and where its commands may
// write, that the sandbox refuses the rest, and how to ask for more: a
// folder with add_directory where it is offered, one command with
// outsideSandbox, each decided by the person. It ends with the limits
// text, so it is rebuilt before every request: a granted folder shows.
func SystemPrompt(tb *tools.Toolbox) string {
	return SystemPromptWith(tb, Instructions{})
}

// SystemPromptWith is SystemPrompt followed by the project's instructions
// (AGENTS.md), said to be the project's and unable to change the rules.
func SystemPromptWith(tb *tools.Toolbox, in Instructions) string {
	r := tb.Runner
	var b strings.Builder
	fmt.Fprintf(&b, "You are wisp, a coding agent in a terminal on the person's computer (%s). "+
		"You work in the project folder %s and act only through your tools: run_command runs a shell "+
		"command line there; inspect reads wisp's configuration, its limits and stored command outputs", runtime.GOOS, r.Dir)
	if tb.Ask != nil {
		b.WriteString("; add_directory asks the person to let commands write in one more folder")
	}
	b.WriteString(".\n\n")
	b.WriteString(sandboxSection(tb))
	b.WriteString("\nThe person may run commands themselves by typing them after ! (in the sandbox) or !! " +
		"(outside it); you are told when they do, with what came of it.\n\n")
	b.WriteString("Be brief. Say what you did and what you found; when something was refused or not " +
		"approved, say so plainly rather than guessing why.\n\nLimits:\n")
	b.WriteString(tb.Limits())
	b.WriteString(instructionsSection(in))
	return b.String()
}

func sandboxSection(tb *tools.Toolbox) string {
	r := tb.Runner
	mode := r.Resolve(true)
	if mode == runner.ModeSandboxOff {
		return "Every command runs through the operator's command lists. The sandbox is off here, so " +
			"commands are not confined; still write only where the task needs it.\n"
	}
	var b strings.Builder
	b.WriteString("Every command runs through the operator's command lists, then a kernel sandbox that " +
		"lets it write only under the writable roots:\n")
	for _, root := range r.Spec.Roots {
		b.WriteString("- " + root + "\n")
	}
	b.WriteString("The sandbox refuses every write anywhere else, and never lets a command write wisp's own " +
		"home. Reading is allowed everywhere. When a command fails, read its sandbox: line, which says " +
		"whether the sandbox refused it.\n\nWhen the work needs to write outside the roots:\n")
	if tb.Ask != nil {
		b.WriteString("- If the work keeps writing in one folder (a repository, a worktree, a build directory), " +
			"call add_directory once with that folder; the person decides.\n")
	}
	switch mode {
	case runner.ModeRefused:
		b.WriteString("- Running a command outside the sandbox is turned off here: do not ask for it. " +
			"Tell the person what needs running, and they can run it themselves.\n")
	case runner.ModeNested:
		b.WriteString("- wisp runs inside another sandbox here, so outsideSandbox changes nothing.\n")
	default:
		b.WriteString("- For a one-off need the sandbox refuses (an installer such as brew upgrade or cargo " +
			"install, a container tool), call run_command with outsideSandbox true. The person approves " +
			"each such run; nothing is remembered, and no one but the person can approve it.\n")
	}
	b.WriteString("- Never try to get around the sandbox or the lists another way. If the person says no, " +
		"stop and say what you needed.\n")
	return b.String()
}
