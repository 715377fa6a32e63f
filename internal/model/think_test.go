package model

import (
	"strings"
	"testing"
)

// splitThinking feeds content to a thinkSplitter in the pieces given and
// returns the answer and the thinking that came out.
func splitThinking(pieces []string) (text, thinking string, retracted bool) {
	var tb, rb strings.Builder
	t := thinkSplitter{out: func(k DeltaKind, s string) {
		switch k {
		case DeltaText:
			tb.WriteString(s)
		case DeltaReasoning:
			rb.WriteString(s)
		case DeltaRetract:
			rb.WriteString(tb.String())
			tb.Reset()
			retracted = true
		}
	}}
	for _, p := range pieces {
		t.feed(p)
	}
	t.flush()
	return tb.String(), rb.String(), retracted
}

func TestThinkSplitter(t *testing.T) {
	for _, tc := range []struct {
		name, content, text, thinking string
		retract                       bool
	}{
		{"no thinking", "Run `ls`.", "Run `ls`.", "", false},
		{"think block", "<think>\nhmm\n</think>\n\nRun `ls`.", "Run `ls`.", "\nhmm\n", false},
		{"thinking block", "<thinking>a</thinking>b", "b", "a", false},
		{"leading space", "\n <think>a</think>b", "b", "a", false},
		{"never closed", "<think>still going", "", "still going", false},
		{"orphan close (R1)", "I should list.\n</think>\n\nRun ls.", "Run ls.", "I should list.\n", true},
		{"tag later is text", "Use <think> tags.", "Use <think> tags.", "", false},
		{"a partial tag at the end is text", "<thi", "<thi", "", false},
		{"a lone < is text", "<", "<", "", false},
		{"a closing tag inside the answer after thinking stays", "<think>a</think>b </think> c", "b </think> c", "a", false},
		{"an unrelated tag", "<b>bold</b>", "<b>bold</b>", "", false},
		{"empty", "", "", "", false},
		{"only thinking, closed", "<think>x</think>\n\n", "", "x", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Whole, then cut at every byte, then one byte a piece.
			cuts := [][]string{{tc.content}}
			for i := 1; i < len(tc.content); i++ {
				cuts = append(cuts, []string{tc.content[:i], tc.content[i:]})
			}
			cuts = append(cuts, strings.Split(tc.content, ""))
			for _, pieces := range cuts {
				text, thinking, retracted := splitThinking(pieces)
				if text != tc.text || thinking != tc.thinking || retracted != tc.retract {
					t.Fatalf("pieces %q: text %q, thinking %q, retracted %v; want %q, %q, %v",
						pieces, text, thinking, retracted, tc.text, tc.thinking, tc.retract)
				}
			}
		})
	}
}
