package model_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wisp-sh/wisp/internal/model"
)

func TestRepeatDetector(t *testing.T) {
	for _, tc := range []struct {
		name   string
		text   string
		loops  bool
		period int
		line   string
	}{
		{"one line 16 times", strings.Repeat("- main.go\n", 16), true, 1, "- main.go"},
		{"one line 15 times", strings.Repeat("- main.go\n", 15), false, 0, ""},
		{"two lines 8 times", strings.Repeat("a = 1\nb = 2\n", 8), true, 2, "b = 2"},
		{"eight lines 4 times", strings.Repeat("1\n2\n3\n4\n5\n6\n7\n8\n", 4), true, 8, "8"},
		{"blank lines between do not hide it", strings.Repeat("same\n\n", 16), true, 1, "same"},
		{"a list of different items", listOf(200), false, 0, ""},
		{"blank lines alone", strings.Repeat("\n", 100), false, 0, ""},
		{"a line that comes back between others", everyOther(100), false, 0, ""},
		{"a cycle of four lines", strings.Repeat("x\ny\nz\nw\n", 4), true, 4, "w"},
		{"the line not yet ended does not count", strings.Repeat("- main.go\n", 15) + "- main.go", false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Fed in pieces of 3 bytes, as a stream would.
			var r model.RepeatDetector
			got := false
			for i := 0; i < len(tc.text); i += 3 {
				got = r.Feed(tc.text[i:min(i+3, len(tc.text))]) || got
			}
			line, period, _, ok := r.Looping()
			if got != tc.loops || ok != tc.loops || period != tc.period || line != tc.line {
				t.Errorf("Feed said %v; Looping() = %q, %d, %v; want %v, %q, %d", got, line, period, ok, tc.loops, tc.line, tc.period)
			}
		})
	}
}

func everyOther(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "}\nreturn %d\n", i)
	}
	return b.String()
}

func listOf(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "- file%d.go\n", i)
	}
	return b.String()
}

func TestCallRepeats(t *testing.T) {
	ls := []model.ToolCall{{ID: "a", Name: "run_command", Arguments: `{"command":"ls","timeout":5}`}}
	lsAgain := []model.ToolCall{{ID: "b", Name: "run_command", Arguments: `{ "timeout": 5, "command": "ls" }`}}
	pwd := []model.ToolCall{{ID: "c", Name: "run_command", Arguments: `{"command":"pwd"}`}}
	var r model.CallRepeats
	steps := []struct {
		calls []model.ToolCall
		times int
		loop  bool
	}{
		{ls, 1, false}, {lsAgain, 2, false}, {pwd, 1, false}, {ls, 1, false}, {ls, 2, false},
		{lsAgain, 3, true}, {nil, 0, false}, {ls, 1, false},
	}
	for i, s := range steps {
		if times, loop := r.Observe(s.calls); times != s.times || loop != s.loop {
			t.Fatalf("step %d: Observe = %d, %v; want %d, %v", i, times, loop, s.times, s.loop)
		}
	}
	strict := model.CallRepeats{Max: 2}
	strict.Observe(pwd)
	if _, loop := strict.Observe(pwd); !loop {
		t.Error("Max 2: the second same call is not a loop")
	}
}
