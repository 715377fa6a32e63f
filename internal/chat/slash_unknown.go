package chat

import (
	"regexp"
	"strings"

	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/internal/suggest"
)

// commands are the / commands chat and tui offer, for the nearest one
// to a mistyped name.
var commands = []string{"/quit", "/exit", "/help", "/approvals", "/status", "/model",
	"/compact", "/new", "/threads", "/output", "/clear"}

// commandShaped is a first word that can be meant as a command: a slash
// and a name. A path (/etc/hosts) has a second slash and goes to the
// model.
var commandShaped = regexp.MustCompile(`^/[A-Za-z][A-Za-z0-9_-]*$`)

// unknownCommand is what to say of a line that looks like a / command
// wisp does not have: it is refused, never sent to the model, where a
// typo would spend a turn and show the model a half-meant line. ok is
// false when the line is not one (a known command, or a message).
func unknownCommand(fields []string) (line string, ok bool) {
	if len(fields) == 0 || !commandShaped.MatchString(fields[0]) {
		return "", false
	}
	name := fields[0]
	for _, c := range commands {
		if c == name {
			return "", false
		}
	}
	// Names are compared without their slash, which every one shares.
	var bare []string
	for _, c := range commands {
		bare = append(bare, c[1:])
	}
	near := suggest.Closest(name[1:], bare)
	// With words after it, only a near typo of a command (/modle NAME) is
	// one: "/tmp is full" is a message.
	if len(fields) > 1 && (near == "" || suggest.Distance(strings.ToLower(name[1:]), near) > 2) {
		return "", false
	}
	msg := "· " + render.Line(name) + " is not a wisp command"
	if near != "" {
		msg += ": did you mean /" + near + "?"
	}
	return msg + " (/help lists them; it was not sent to the model)", true
}
