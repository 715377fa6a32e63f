package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/wisp-sh/wisp/internal/agent"
)

// bigTranscript is a model with n entries: messages, the model's words
// and command cards, laid out once as a person scrolling through would
// have them.
func bigTranscript(b *testing.B, n int) *Model {
	m, _, _ := newTestModel(true)
	zero := 0
	for i := 0; len(m.tr.entries) < n; i++ {
		cmd := fmt.Sprintf("go test ./pkg%d/...", i)
		feed(m,
			evMsg{agent.Event{Type: agent.EventMessage, Text: fmt.Sprintf("## Step %d\nI will run the tests of **pkg%d** and read what fails:\n- one\n- two", i, i)}},
			evMsg{agent.Event{Type: agent.EventToolCall, ID: fmt.Sprint(i), Name: "run_command", Command: cmd}},
			evMsg{agent.Event{Type: agent.EventCommandOutcome, Command: cmd, Ran: true, ExitCode: &zero, Output: "ok  \tpkg\t0.1s\n"}},
			evMsg{agent.Event{Type: agent.EventNote, Level: agent.LevelInfo, Text: "· a note"}},
		)
	}
	if m.tr.Len() < n {
		b.Fatalf("only %d entries", m.tr.Len())
	}
	return m
}

// The view of a 10,000-entry transcript, a frame: only what is on screen
// is laid out. The budget is 16 ms a frame.
func BenchmarkView10000(b *testing.B) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		b.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(b *testing.B) {
			m := bigTranscript(b, 10000)
			m.Update(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			b.ResetTimer()
			for b.Loop() {
				_ = m.View()
			}
		})
	}
}

// The view after a resize: every entry on screen laid out afresh.
func BenchmarkView10000Relayout(b *testing.B) {
	m := bigTranscript(b, 10000)
	w := 80
	for b.Loop() {
		w = 161 - w // 80 and 81 by turns: no layout kept fits
		m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		_ = m.View()
	}
}

// A key press to the next frame: Update with the key, then View, with a
// 10,000-entry transcript behind. The budget is 5 ms of wisp's
// time.
func BenchmarkKeyToFrame(b *testing.B) {
	m := bigTranscript(b, 10000)
	keys := typing("abcdefghij")
	i := 0
	for b.Loop() {
		m.Update(keys[i%len(keys)])
		_ = m.View()
		i++
		if i%200 == 0 {
			m.in.Set(Normal, "")
		}
	}
}
