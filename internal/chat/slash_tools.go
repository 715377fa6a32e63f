package chat

import (
	"strings"

	"github.com/wisp-sh/wisp/internal/agent"
)

// toolsSlash runs /tools off and /tools on: talk to a model that cannot
// use tools without them (it answers, but runs and reads nothing), or
// offer them again. False when line is not /tools.
func toolsSlash(a *agent.Agent, line string, say func(string)) bool {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "/tools" {
		return false
	}
	switch {
	case len(fields) == 2 && fields[1] == "off":
		a.SetToolsOff(true)
		say("· the model is offered no tools from now on: it can answer, but not run commands or read files; /tools on offers them again")
	case len(fields) == 2 && fields[1] == "on":
		a.SetToolsOff(false)
		say("· the model is offered its tools again")
	case a.ToolsOff():
		say("· the model is offered no tools (/tools on offers them again)")
	default:
		say("· the model is offered its tools (/tools off talks to it without them, for a model that cannot use them)")
	}
	return true
}
