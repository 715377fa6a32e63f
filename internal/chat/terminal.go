package chat

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/wisp-sh/wisp/internal/agent"
)

// LineReader gives the person's lines: the Editor on a terminal, or
// PlainLines from a pipe.
type LineReader interface {
	// ReadLine returns io.EOF when the person leaves, ErrInterrupted for
	// a line dropped with Ctrl-C, and ctx's error when ctx ends first.
	ReadLine(ctx context.Context) (string, error)
}

// TerminalOptions configure the plain terminal chat.
type TerminalOptions struct {
	Agent *agent.Agent
	Face  *TerminalFace
	Lines LineReader
	// Interrupts carries SIGINT: it stops the model's answer or a running
	// command; while wisp waits for a line, it leaves.
	Interrupts <-chan os.Signal
	Approvals  *Approvals // nil: /approvals is not offered
	// Status gives /status the lines only the caller knows: the model's
	// state, the approval threshold.
	Status func() []string
}

// quitHint answers Ctrl-C at an empty prompt.
const quitHint = "· to leave, press Ctrl-C again, or Ctrl-D, or type /quit"

// RunTerminal is the plain chat: it reads lines until the person leaves
// (/quit, Ctrl-D, Ctrl-C twice at an empty prompt) or ctx ends (SIGTERM).
func RunTerminal(ctx context.Context, o TerminalOptions) error {
	if ed, ok := o.Lines.(*Editor); ok {
		ed.SetColour(o.Face.p.On)
	}
	for ctx.Err() == nil {
		drain(o.Interrupts)
		readCtx, stop := interruptible(ctx, o.Interrupts)
		line, err := o.Lines.ReadLine(readCtx)
		stopped := readCtx.Err() != nil
		stop()
		switch {
		case errors.Is(err, ErrInterruptedEmpty):
			o.Face.Println(quitHint)
			continue
		case errors.Is(err, ErrInterrupted):
			continue
		case err == io.EOF || (err != nil && stopped):
			return nil
		case err != nil:
			return err
		}
		if quit := handleLine(ctx, o, line); quit {
			return nil
		}
	}
	return nil
}

// handleLine runs one line: a typed command, a / command, or a message.
func handleLine(ctx context.Context, o TerminalOptions, line string) bool {
	if strings.TrimSpace(line) == "" {
		return false
	}
	if t, ok := agent.ParseTyped(line); ok {
		turn(ctx, o.Interrupts, func(ctx context.Context) {
			if err := o.Agent.RunTyped(ctx, t); err != nil {
				o.Face.Emit(agent.Event{Type: agent.EventError, Text: err.Error()})
			}
		})
		return false
	}
	if sessionSlash(ctx, o, line) || toolsSlash(o.Agent, line, o.Face.Println) {
		return false
	}
	if quit, ok := slash(line, o.Approvals, o.Face.Println); ok {
		return quit
	}
	turn(ctx, o.Interrupts, func(ctx context.Context) { o.Agent.Send(ctx, line) })
	return false
}

// turn runs fn with a context that SIGINT cancels: Ctrl-C stops this
// turn, not wisp.
func turn(ctx context.Context, interrupts <-chan os.Signal, fn func(context.Context)) {
	ctx, stop := interruptible(ctx, interrupts)
	defer stop()
	fn(ctx)
}

func interruptible(ctx context.Context, interrupts <-chan os.Signal) (context.Context, func()) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		select {
		case <-interrupts:
			cancel()
		case <-done:
		case <-ctx.Done():
		}
	}()
	var once sync.Once
	return ctx, func() { once.Do(func() { close(done); cancel() }) }
}

// drain drops a SIGINT left from the moment a turn ended, so it does not
// end the chat at the next prompt.
func drain(interrupts <-chan os.Signal) {
	for {
		select {
		case <-interrupts:
		default:
			return
		}
	}
}

// PlainLines reads lines from a pipe or a file, without editing.
type PlainLines struct {
	lines chan string
}

// NewPlainLines reads r line by line in the background.
func NewPlainLines(r io.Reader) *PlainLines {
	p := &PlainLines{lines: make(chan string)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	return p
}

// ReadLine returns the next line, io.EOF at the end.
func (p *PlainLines) ReadLine(ctx context.Context) (string, error) {
	select {
	case l, ok := <-p.lines:
		if !ok {
			return "", io.EOF
		}
		return l, nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}
