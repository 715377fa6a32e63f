package agent

import (
	"github.com/wisp-sh/wisp/internal/runner"
)

// Event types: what happened in the conversation. The --json face writes
// each event as one line (docs/chat.md has the schema); the terminal face
// renders it for a person.
const (
	EventReady          = "ready"          // the conversation is open: thread, model, dir
	EventText           = "text"           // a piece of the model's words, as it streams
	EventReasoning      = "reasoning"      // a piece of the model's thinking, as it streams; never sent back to it
	EventRetract        = "retract"        // the words given so far in this answer were thinking after all (text: them)
	EventMessage        = "message"        // the model's whole answer, once it is complete
	EventToolCall       = "toolCall"       // the model calls a tool
	EventToolResult     = "toolResult"     // what the tool call came to, as the model reads it
	EventApproval       = "approval"       // a command waits for the person's answer
	EventApprovalClosed = "approvalClosed" // that question was answered or withdrawn
	EventCommandStart   = "commandStart"   // a command is about to run
	EventOutput         = "output"         // live output of a command as it runs (origin person or model)
	EventCommandOutcome = "commandOutcome" // how a command ended, or why it did not run
	EventNote           = "note"           // something the person should read
	EventError          = "error"          // something failed: the model, or a line of input
	EventTurnEnd        = "turnEnd"        // wisp waits for the next input
	// EventWaiting: a request went to the model and no word has come yet.
	// The terminal shows a spinner until the next event; --json leaves it
	// out (a client sees the request's end as the next event). Its text,
	// when set, says what the wait is ("loading the model").
	EventWaiting = "waiting"
)

// Levels of a note.
const (
	LevelInfo    = "info"
	LevelWarning = "warning"
	LevelDanger  = "danger" // a run outside the sandbox, --unsafe
)

// Event is one thing that happened. Fields are set by type; the rest are
// left out of the JSON.
type Event struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`

	// ready
	Thread   string `json:"thread,omitempty"`
	Model    string `json:"model,omitempty"`
	Dir      string `json:"dir,omitempty"`
	Messages int    `json:"messages,omitempty"` // resumed: messages read back

	// toolCall, toolResult; approval's id
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// FromText: the model wrote this call as text in its answer and wisp
	// read it as a call (it runs as any call would).
	FromText bool `json:"fromText,omitempty"`

	// note, error: what the person may try, one line each
	Hints []string `json:"hints,omitempty"`

	// approval, commandStart, commandOutcome
	Command        string   `json:"command,omitempty"`
	Origin         string   `json:"origin,omitempty"` // model or person
	OutsideSandbox bool     `json:"outsideSandbox,omitempty"`
	Level          string   `json:"level,omitempty"` // approval: risk; note: info, warning, danger
	Reasons        []string `json:"reasons,omitempty"`
	Scopes         []string `json:"scopes,omitempty"`

	// commandOutcome
	Ran         bool     `json:"ran,omitempty"`
	ExitCode    *int     `json:"exitCode,omitempty"`
	Denied      bool     `json:"denied,omitempty"`
	NotApproved bool     `json:"notApproved,omitempty"`
	TimedOut    bool     `json:"timedOut,omitempty"`
	Canceled    bool     `json:"canceled,omitempty"`
	Sandbox     string   `json:"sandbox,omitempty"` // landlock, seatbelt, none, nested
	Output      string   `json:"output,omitempty"`  // the bounded view
	OutputID    string   `json:"outputId,omitempty"`
	SandboxLine string   `json:"sandboxLine,omitempty"`
	Notes       []string `json:"notes,omitempty"` // the person's · lines
}

// Face shows events. Emit may be called from more than one goroutine (a
// command's live output arrives on its own), so a face serialises.
type Face interface {
	Emit(Event)
}

// outcomeEvent describes a command's result.
func outcomeEvent(res runner.Result) Event {
	ev := Event{Type: EventCommandOutcome, Command: res.Line, Origin: string(res.Origin),
		OutsideSandbox: res.OutsideSandbox, Ran: res.Ran, Denied: res.Denied, NotApproved: res.NotApproved,
		TimedOut: res.TimedOut, Canceled: res.Canceled, Sandbox: res.Sandbox, Output: res.Output,
		OutputID: res.OutputID, SandboxLine: res.SandboxLine, Notes: personNotes(res)}
	if !res.Ran {
		ev.Text = res.Message
	} else {
		code := res.ExitCode
		ev.ExitCode = &code
	}
	return ev
}
