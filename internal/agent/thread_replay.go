package agent

import (
	"fmt"
	"strings"

	"github.com/wisp-sh/wisp/internal/model"
)

// ResumeMark is the line between a resumed thread's earlier conversation
// and what comes now.
const ResumeMark = "── the conversation so far; it resumes here ──"

// Replay is the events that show the end of a resumed thread's
// conversation as it was shown live (the person's messages and commands,
// the model's words, its commands and what came of them), at most last
// records of it, then ResumeMark: a face emits them before EventReady, so
// a person who resumes sees where they were. The model's words are
// emitted as text and message, so each face renders them as it does
// live; the person's lines are notes, as typed.
func Replay(records []Record, last int) []Event {
	var shown []Record
	for _, r := range records {
		switch r.Kind {
		case RecordUser, RecordAssistant, RecordTool, RecordPersonCommand, RecordModelError:
			shown = append(shown, r)
		}
	}
	if len(shown) == 0 {
		return nil
	}
	var evs []Event
	if cut := len(shown) - last; last > 0 && cut > 0 {
		// From the person's line on: an answer without its question reads
		// as a fragment.
		for cut < len(shown)-1 && shown[cut].Kind != RecordUser && shown[cut].Kind != RecordPersonCommand {
			cut++
		}
		shown = shown[cut:]
		evs = append(evs, Event{Type: EventNote, Level: LevelInfo,
			Text: fmt.Sprintf("· %d earlier entries of this thread are not shown", cut)})
	}
	commands := map[string]string{} // a run_command call's id: its line
	for _, r := range shown {
		evs = append(evs, replayed(r, commands)...)
	}
	return append(evs, Event{Type: EventNote, Level: LevelInfo, Text: ResumeMark})
}

func replayed(r Record, commands map[string]string) []Event {
	switch r.Kind {
	case RecordUser:
		return []Event{{Type: EventNote, Level: LevelInfo, Text: "› " + r.Text}}
	case RecordPersonCommand:
		if r.PersonCommand == nil {
			return nil
		}
		mark := "! "
		if r.OutsideSandbox {
			mark = "!! "
		}
		return []Event{{Type: EventNote, Level: LevelInfo, Text: mark + r.Command}}
	case RecordModelError:
		return []Event{{Type: EventNote, Level: LevelWarning, Text: "· the model did not answer: " + r.Text}}
	case RecordTool:
		if command, ok := commands[r.CallID]; ok {
			return []Event{{Type: EventCommandOutcome, Command: command, Origin: "model", Ran: true,
				Output: strings.TrimRight(r.Text, "\n")}}
		}
		return []Event{{Type: EventToolResult, ID: r.CallID, Name: r.Name, Text: r.Text}}
	}
	var evs []Event
	if strings.TrimSpace(r.Text) != "" {
		evs = append(evs, Event{Type: EventText, Text: r.Text}, Event{Type: EventMessage, Text: r.Text})
	}
	for _, c := range r.ToolCalls {
		ev := toolCallEvent(model.ToolCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
		if ev.Command != "" {
			commands[c.ID] = ev.Command
		}
		evs = append(evs, ev)
	}
	return evs
}
