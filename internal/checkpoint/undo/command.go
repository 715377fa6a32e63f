package undo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/wisp-sh/wisp/internal/checkpoint"
)

// Command is `wisp undo [--list] [N]`: list the checkpoints taken before
// turns, or undo the last turn (or back to checkpoint N), showing what will
// change and asking on in. record is told what was done (the audit log);
// it may be nil.
func Command(s *checkpoint.Store, list bool, args []string, in io.Reader, out io.Writer, record func(*Done)) error {
	if list {
		if len(args) > 0 {
			return fmt.Errorf("wisp undo --list takes no checkpoint: `wisp undo %s` undoes back to it", args[0])
		}
		return List(s, out)
	}
	id := 0
	switch len(args) {
	case 0:
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil || n <= 0 {
			return fmt.Errorf("%q is not a checkpoint number: `wisp undo --list` shows them", args[0])
		}
		id = n
	default:
		return errors.New("wisp undo takes at most one checkpoint number: `wisp undo --list` shows them")
	}
	p, err := PlanUndo(s, id)
	if err != nil {
		return err
	}
	d, err := Run(s, p, out, LineAsker(in, out))
	if errors.Is(err, ErrCanceled) {
		fmt.Fprintln(out, "Nothing was changed.")
		return nil
	}
	if err != nil {
		return err
	}
	if record != nil && d.Restored != nil {
		record(d)
	}
	fmt.Fprintln(out, capital(d.String()))
	return nil
}

// List writes the checkpoints taken before turns and ! lines, newest
// first, marking the ones an undo has gone back past.
func List(s *checkpoint.Store, out io.Writer) error {
	cps, err := s.List()
	if err != nil {
		return err
	}
	h := replay(cps)
	n := 0
	for i := len(cps) - 1; i >= 0; i-- {
		cp := cps[i]
		if !isBefore(cp) {
			continue
		}
		if n == 0 {
			fmt.Fprintln(out, "Checkpoints taken before each turn, newest first (`wisp undo N` goes back to N):")
		}
		n++
		mark := ""
		if cp.ID >= h.floor {
			mark = "  (undone)"
		}
		fmt.Fprintf(out, "%6d  %s  %s%s\n", cp.ID, cp.Time.Local().Format("2006-01-02 15:04:05"), cp.Label, mark)
	}
	if n == 0 {
		fmt.Fprintln(out, "No checkpoints yet: wisp takes one before each turn of the chat (checkpoints.enabled).")
	}
	return nil
}

// LineAsker asks on a line-oriented stream: the question, the answers in
// brackets, and a line read back; an answer may be shortened to its first
// letter. The end of the input is no.
func LineAsker(in io.Reader, out io.Writer) Ask {
	r := bufio.NewReader(in)
	return func(q string, answers []string) (string, error) {
		for {
			fmt.Fprintf(out, "%s [%s] ", q, strings.Join(answers, "/"))
			line, err := r.ReadString('\n')
			if a := Match(line, answers); a != "" {
				return a, nil
			}
			if err != nil {
				fmt.Fprintln(out)
				return "", ErrCanceled
			}
			fmt.Fprintf(out, "Answer %s.\n", strings.Join(answers, " or "))
		}
	}
}

// Match finds the answer s names, whole or by its first letter.
func Match(s string, answers []string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	for _, a := range answers {
		if s != "" && (s == a || s == a[:1]) {
			return a
		}
	}
	return ""
}
