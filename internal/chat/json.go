package chat

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/wisp-sh/wisp/internal/agent"
)

// Input types: what a --json client sends, one JSON object a line.
const (
	InputMessage  = "message"  // {"type":"message","text":"…"}: to the model (a text starting with ! or !! is a typed command)
	InputCommand  = "command"  // {"type":"command","command":"…","outsideSandbox":true}: the person runs it (!! when outsideSandbox)
	InputApproval = "approval" // {"type":"approval","id":"…","decision":"approve|deny","scope":"once"}
	InputCancel   = "cancel"   // {"type":"cancel"}: stop the running turn, as Ctrl-C does
)

// Input is one line of the --json input.
type Input struct {
	Type           string `json:"type"`
	Text           string `json:"text,omitempty"`
	Command        string `json:"command,omitempty"`
	OutsideSandbox bool   `json:"outsideSandbox,omitempty"`
	ID             string `json:"id,omitempty"`
	Decision       string `json:"decision,omitempty"`
	Scope          string `json:"scope,omitempty"`
}

// ParseInput reads one input line strictly: an unknown field or type is
// an error, so a client's mistake is said rather than ignored.
func ParseInput(line []byte) (Input, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var in Input
	if err := dec.Decode(&in); err != nil {
		return Input{}, fmt.Errorf("the input line is not a JSON object of wisp chat --json's input: %w", err)
	}
	switch in.Type {
	case InputMessage, InputCommand, InputApproval, InputCancel:
	default:
		return Input{}, fmt.Errorf("input type %q is not one of message, command, approval, cancel", in.Type)
	}
	if in.Type == InputApproval && in.ID == "" {
		return Input{}, fmt.Errorf("an approval input needs the id of the question it answers")
	}
	return in, nil
}

// JSONOptions configure wisp chat --json.
type JSONOptions struct {
	Agent      *agent.Agent
	Face       *JSONFace
	Approver   *JSONApprover
	In         io.Reader
	Interrupts <-chan os.Signal // SIGINT: stop the running turn, or leave when idle
}

// RunJSON serves the --json face until the input ends (after the turn in
// progress) or ctx ends. Approval answers and cancel act at once, while a
// turn runs; messages and commands run one after another, each followed
// by turnEnd.
func RunJSON(ctx context.Context, o JSONOptions) error {
	o.Face.Emit(agent.Event{Type: agent.EventTurnEnd})
	work := newInputQueue()
	var running turnSlot
	go readInputs(o, work, &running)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-o.Interrupts:
			return nil
		case <-work.ready:
		}
		for {
			in, ok, ended := work.pop()
			if ended {
				return nil
			}
			if !ok {
				break
			}
			running.run(ctx, o.Interrupts, func(ctx context.Context) { runInput(ctx, o, in) })
			o.Face.Emit(agent.Event{Type: agent.EventTurnEnd})
		}
	}
}

// inputQueue holds messages and commands that wait for the running turn,
// without bound, so the reader never blocks and answers always get read.
type inputQueue struct {
	mu    sync.Mutex
	items []Input
	ended bool
	ready chan struct{}
}

func newInputQueue() *inputQueue { return &inputQueue{ready: make(chan struct{}, 1)} }

func (q *inputQueue) push(in Input) {
	q.mu.Lock()
	q.items = append(q.items, in)
	q.mu.Unlock()
	q.signal()
}

func (q *inputQueue) end() {
	q.mu.Lock()
	q.ended = true
	q.mu.Unlock()
	q.signal()
}

func (q *inputQueue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// pop takes the next input; ended once the input is over and drained.
func (q *inputQueue) pop() (in Input, ok, ended bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.items) == 0 {
		return Input{}, false, q.ended
	}
	in, q.items = q.items[0], q.items[1:]
	return in, true, false
}

func runInput(ctx context.Context, o JSONOptions, in Input) {
	t, typed := agent.ParseTyped(in.Text)
	if in.Type == InputCommand {
		t, typed = agent.Typed{Command: strings.TrimSpace(in.Command), OutsideSandbox: in.OutsideSandbox}, true
	}
	note := func(s string) { o.Face.Emit(agent.Event{Type: agent.EventNote, Level: agent.LevelInfo, Text: s}) }
	if !typed && !toolsSlash(o.Agent, in.Text, note) {
		o.Agent.Send(ctx, in.Text)
		return
	}
	if !typed {
		return
	}
	if err := o.Agent.RunTyped(ctx, t); err != nil {
		o.Face.Emit(agent.Event{Type: agent.EventError, Text: err.Error()})
	}
}

// readInputs reads the input lines: answers and cancel act now, the rest
// queue. At the end of the input, no one is left to answer a question.
func readInputs(o JSONOptions, work *inputQueue, running *turnSlot) {
	defer work.end()
	defer o.Approver.Close()
	sc := bufio.NewScanner(o.In)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		in, err := ParseInput(sc.Bytes())
		if err != nil {
			o.Face.Emit(agent.Event{Type: agent.EventError, Text: err.Error()})
			continue
		}
		switch in.Type {
		case InputApproval:
			if err := o.Approver.Answer(in.ID, in.Decision, in.Scope); err != nil {
				o.Face.Emit(agent.Event{Type: agent.EventError, ID: in.ID, Text: err.Error()})
			}
		case InputCancel:
			running.cancel()
		default:
			work.push(in)
		}
	}
}

// turnSlot holds the running turn's cancel, for the cancel input.
type turnSlot struct {
	mu   sync.Mutex
	stop context.CancelFunc
}

func (s *turnSlot) run(ctx context.Context, interrupts <-chan os.Signal, fn func(context.Context)) {
	ctx, stop := interruptible(ctx, interrupts)
	s.mu.Lock()
	s.stop = stop
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.stop = nil
		s.mu.Unlock()
		stop()
	}()
	fn(ctx)
}

func (s *turnSlot) cancel() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stop != nil {
		s.stop()
	}
}
