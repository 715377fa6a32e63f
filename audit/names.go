package audit

import (
	"fmt"
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

// closest returns the candidate nearest to name by edit distance, case
// folded, when it is near enough to be a typo, or the one candidate that
// name is a part of (decided for decision).
func closest(name string, candidates []string) string {
	lower := strings.ToLower(name)
	best, bestDist := "", len(name)/2+2
	for _, c := range candidates {
		if d := editDistance(lower, strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" && lower != "" {
		best = onlyContaining(lower, candidates)
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

// editDistance is the Levenshtein distance between a and b in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
