package chat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/approval"
	"github.com/wisp-sh/wisp/internal/render"
	"github.com/wisp-sh/wisp/pending"
)

// HelpText is /help: what a person can type.
const HelpText = `Type a message for the model, or one of:
  !COMMAND      run COMMAND yourself in the sandbox: no approval, no time limit; Ctrl-C stops it
  !!COMMAND     run COMMAND yourself OUTSIDE the sandbox: it may write anywhere you can
                (! !COMMAND, with a space, runs !COMMAND in the sandbox)
  /approvals    list the requests waiting for an answer, and the held approvals
  /approvals approve ID [once|session|project|always]
  /approvals deny ID   (ID: 4 or more characters of the id, or the digest)
  /status       the model and its state, the folder, the roots, the network, the threshold, what waits
  /model NAME   talk to another model on the same server, for this session
  /tools off    talk to a model that cannot use tools without them (/tools on: with them again)
  /compact      summarise the older turns into one note, to free the model's context
` + UndoHelp + `
  /new          start a new conversation (the last one stays recorded)
  /threads      list the recorded conversations: id, age, folder, first message
  /output ID    show a command's whole output (a result cut short names its id)
  /clear        clear the screen
  /help         this help
  /quit         leave (Ctrl-D, or Ctrl-C twice at an empty prompt, leaves too)
Ctrl-C stops the model's answer or a running command. Up and down recall earlier lines.
On a terminal, typed commands get the terminal: editors, pagers and prompts work.`

// Approvals is what /approvals reads and answers: requests filed out of
// band by any wisp (another chat, a respond, wisp mcp), and the held
// project and always approvals.
type Approvals struct {
	Channel *pending.Channel
	Held    *approval.Held
}

// slash runs a / command, or refuses one wisp does not have; ok is false
// when line is not one (it then goes to the model: a path such as
// /etc/hosts is a message).
func slash(line string, a *Approvals, say func(string)) (quit, ok bool) {
	fields := strings.Fields(line)
	if len(fields) == 0 {
		return false, false
	}
	switch fields[0] {
	case "/quit", "/exit":
		return true, true
	case "/help", "/?":
		say(HelpText)
	case "/approvals":
		if a == nil {
			say("· /approvals is not offered here")
			break
		}
		for _, l := range a.run(fields[1:]) {
			say(l)
		}
	default:
		if msg, unknown := unknownCommand(fields); unknown {
			say(msg)
			return false, true
		}
		return false, false
	}
	return false, true
}

func (a *Approvals) run(args []string) []string {
	switch {
	case len(args) == 0:
		return a.list()
	case args[0] == "approve" && (len(args) == 2 || len(args) == 3):
		scope := ""
		if len(args) == 3 {
			scope = args[2]
		}
		return []string{a.answer(args[1], pending.DecisionApprove, scope)}
	case args[0] == "deny" && len(args) == 2:
		return []string{a.answer(args[1], pending.DecisionDeny, "")}
	}
	return []string{"· usage: /approvals, /approvals approve ID [once|session|project|always], /approvals deny ID"}
}

// list shows what waits, an outside-sandbox request marked as one (docs/decisions.md,
// D19), and the held approvals.
func (a *Approvals) list() []string {
	var out []string
	waiting, err := a.Channel.List()
	if err != nil {
		return []string{"· " + err.Error()}
	}
	if len(waiting) == 0 {
		out = append(out, "· no requests are waiting")
	}
	for _, p := range waiting {
		// A request's fields come from a file others can write: each is
		// shown on its line, never obeyed.
		r := p.Request
		line := render.Line(r.Command)
		if r.OutsideSandbox {
			line = pending.OutsideMark + line
		}
		out = append(out, fmt.Sprintf("  %s  %s  %s  %s  (in %s, from %s)", render.Line(r.ID), pending.Digest(p.Binding),
			render.Line(r.Level), line, render.Line(r.Cwd), render.Line(r.Face)))
	}
	return append(out, a.held()...)
}

func (a *Approvals) held() []string {
	entries, err := a.Held.List()
	if err != nil {
		return []string{"· " + err.Error()}
	}
	if len(entries) == 0 {
		return []string{"· no approvals are held (project or always)"}
	}
	out := []string{"held approvals:"}
	for _, e := range entries {
		out = append(out, "  "+e.String())
	}
	return out
}

func (a *Approvals) answer(id, decision, scope string) string {
	if _, err := approval.ParseScope(scope); scope != "" && err != nil {
		return "· " + err.Error()
	}
	// By what the person sees: a unique prefix of the id, or the digest.
	p, err := a.Channel.Find(id)
	var amb *pending.AmbiguousError
	if errors.As(err, &amb) {
		return ambiguousLine(amb)
	}
	if err != nil {
		return "· " + err.Error()
	}
	if _, err := a.Channel.Answer(p, decision, scope, "wisp chat"); err != nil {
		return "· " + err.Error()
	}
	r := p.Request
	command := render.Line(r.Command)
	switch {
	case decision == pending.DecisionDeny:
		return "· denied: " + command
	case r.OutsideSandbox && scope != "" && scope != pending.ScopeOnce:
		return "· " + approval.DowngradeNote(approval.Scope(scope), command)
	case r.OutsideSandbox:
		return "· approved once, outside the sandbox: " + command
	}
	if scope == "" {
		scope = pending.ScopeOnce
	}
	return fmt.Sprintf("· approved %s: %s", scope, command)
}

// ambiguousLine names the candidates of an ambiguous reference on one
// line, so that none of their text can draw a line of its own.
func ambiguousLine(amb *pending.AmbiguousError) string {
	var ids []string
	for _, c := range amb.Candidates {
		ids = append(ids, c.Request.ID+" ("+render.Line(c.Request.Command)+")")
	}
	return "· " + amb.Error() + ": " + strings.Join(ids, ", ")
}
