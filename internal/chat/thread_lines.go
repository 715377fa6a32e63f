package chat

import (
	"fmt"
	"time"

	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// ThreadLines are a list's lines for a person: id, age, folder, first
// message, each of others' text on one line. A thread that keeps no
// message (a wisp respond the model never answered) is counted, not
// listed: it is no conversation to go back to.
func ThreadLines(all []agent.ThreadInfo, now time.Time, max int) []string {
	var kept []agent.ThreadInfo
	for _, ti := range all {
		if ti.Messages > 0 {
			kept = append(kept, ti)
		}
	}
	empty := len(all) - len(kept)
	if len(all) == 0 {
		return []string{"· no threads yet"}
	}
	var lines []string
	for i, ti := range kept {
		if max > 0 && i == max {
			lines = append(lines, fmt.Sprintf("· %d older threads not shown; wisp threads lists them all", len(kept)-max))
			break
		}
		first := ti.First
		if first == "" {
			first = "(no message)"
		}
		line := fmt.Sprintf("%s  %4s  %s  %s", ti.ID, Age(now.Sub(ti.Modified)), render.Line(ti.Dir),
			render.Line(firstLine(first, 60)))
		if ti.Undos > 0 {
			line += fmt.Sprintf("  (%d undone or redone)", ti.Undos)
		}
		lines = append(lines, line)
	}
	if empty > 0 {
		lines = append(lines, fmt.Sprintf("· %d threads with no message the model answered are not listed", empty))
	}
	return lines
}

// Age is a duration as a list shows it: 40s, 5m, 3h, 2d.
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(0, int(d/time.Second)))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd", int(d/(24*time.Hour)))
}
