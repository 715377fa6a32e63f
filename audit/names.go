package audit

import (
	"fmt"
	"github.com/wisp-sh/wisp/internal/suggest"
	"slices"
	"strings"
)

// UnknownEventError says an event name is not one wisp writes.
type UnknownEventError struct {
	Name    string
	Closest string // the likely intended name, or ""
}

func (e *UnknownEventError) Error() string {
	msg := fmt.Sprintf("%q is not an audit event", e.Name)
	if e.Closest != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", e.Closest)
	}
	return msg + "; the events are " + strings.Join(EventNames, ", ")
}

// CheckEventName returns nil for a known event name, else an
// *UnknownEventError with the nearest known name.
func CheckEventName(name string) error {
	if slices.Contains(EventNames, name) {
		return nil
	}
	return &UnknownEventError{Name: name, Closest: closest(name, EventNames)}
}

// closest is suggest.Closest, or else the one candidate that name is a
// part of (decided for decision).
func closest(name string, candidates []string) string {
	best := suggest.Closest(name, candidates)
	if best == "" && name != "" {
		best = onlyContaining(strings.ToLower(name), candidates)
	}
	return best
}

func onlyContaining(part string, candidates []string) string {
	found := ""
	for _, c := range candidates {
		if strings.Contains(strings.ToLower(c), part) {
			if found != "" {
				return ""
			}
			found = c
		}
	}
	return found
}
