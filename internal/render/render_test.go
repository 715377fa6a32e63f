package render

import (
	"bytes"
	"io"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/wisp-sh/wisp/internal/render/rendertest"
)

func TestText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain\nlines\tand tabs", "plain\nlines\tand tabs"},
		{"\x1b[31mred\x1b[0m and \x1b[1;38;2;1;2;3mbold\x1b[m", "red and bold"},
		{"\x1b[3A\x1b[2Kforged", `\x1b[3A\x1b[2Kforged`},
		{"\x1b]0;pwned-title\x07", `\x1b]0;pwned-title\a`},
		{"\x1bP1$r\x1b\\", `\x1bP1$r\x1b\`},
		{"hide \x1b[8mthis", "hide this"}, // a style dropped with the colours: nothing is concealed
		{"crlf\r\nkept", "crlf\nkept"},
		{"progress 10%\rprogress 99%", `progress 10%\rprogress 99%`},
		{"c1 \u009b2J", `c1 \u009b2J`},
		{"rm \u202eexe.txt \u200b\u2066", `rm \u202eexe.txt \u200b\u2066`},
		{"line\u2028sep", `line\u2028sep`},
		{"bad \xff byte", `bad \xff byte`},
		{"bell\a back\b del\x7f", `bell\a back\b del\x7f`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := Line("a\nb\tc\x1b[1mbold"); got != `a\nb\tc\x1b[1mbold` {
		t.Errorf("Line = %q", got)
	}
}

func TestWriterWrapsAtWordsAndKeepsCutSequencesWhole(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, func() int { return 20 })
	for _, piece := range []string{"the quick brown fox ", "jumps over the la", "zy dog \x1b", "[31mred\x1b[", "0m done é", "\xcc\x81 fin"} {
		w.WriteString(piece)
	}
	w.Flush()
	want := "the quick brown fox\njumps over the lazy\ndog red done é\u0301 fin"
	if out.String() != want {
		t.Errorf("wrapped:\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	w = NewWriter(&out, func() int { return 8 })
	w.WriteString("abcdefghijklmnopq xy")
	w.Flush()
	if got := out.String(); got != "abcdefgh\nijklmnop\nq xy" {
		t.Errorf("a word longer than the line: %q", got)
	}
}

// FuzzWriterCannotDrawAnythingButItself feeds any text, in any pieces,
// to a Writer over an emulated terminal: the cursor never goes up, nor
// left of where the text began on its first line, nothing sets the title,
// nothing on the screen is concealed, and the bytes hold no escape.
func FuzzWriterCannotDrawAnythingButItself(f *testing.F) {
	for _, seed := range []string{
		"\x1b[3A\x1b[2K· the sandbox is off for this project (approved always)\x1b]0;pwned-title\x07",
		"\x1b[8mhidden\x1b[0m", "\x1b[H\x1b[2J", "\x1b7\x1b[1;1Hx\x1b8", "\x9b2A", "\u009b2A", "a\rb\bc\x1bM",
		"\x1b[?1049h alt screen", "\x1bP$q\x1b\\", "\x1b_apc\x1b\\", "\x1b^pm\x1b\\", "\x1bXsos\x1b\\",
		"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "\x1b[6n", "wide 漢字漢字漢字漢字漢字漢字漢字漢字 \u0301\u200d",
		"\t\t\t\t\t\t\t\tlong tabs", strings.Repeat("word ", 40), "\x1bc reset",
	} {
		f.Add(seed, uint8(7))
	}
	f.Fuzz(func(t *testing.T, in string, cut uint8) {
		if len(in) > 256 {
			t.Skip("longer than the emulated screen is tall")
		}
		// Tall enough never to scroll: the emulator moves its cursor to
		// the top for an instant while it scrolls.
		scr := rendertest.NewScreen(30, 400)
		defer scr.Close()
		scr.Write([]byte("\r\n\r\n  » "))
		start := scr.Cursor()
		// A newline is CR then LF: on the first line, a move to column 0
		// is fine only when the next move leaves the line downwards.
		var moved []string
		crOnFirst := false
		scr.OnCursor = func(_, now uv.Position) {
			switch {
			case now.Y > start.Y:
				crOnFirst = false
			case now.Y < start.Y || now.X < start.X && (now.X != 0 || crOnFirst):
				moved = append(moved, now.String())
			case now.X < start.X:
				crOnFirst = true
			}
		}
		var raw bytes.Buffer
		w := NewWriter(&raw, func() int { return 30 - start.X })
		step := int(cut%16) + 1
		for i := 0; i < len(in); i += step {
			w.WriteString(in[i:min(i+step, len(in))])
		}
		w.Flush()
		// A backspace is the writer's own, taking back a word it moves to
		// the next line; the cursor's checks below hold it to the text.
		if bytes.ContainsAny(raw.Bytes(), "\x1b\r\x7f\a\x00") || bytes.Contains(raw.Bytes(), []byte("\u009b")) {
			t.Errorf("the rendered bytes hold a control: %q", raw.String())
		}
		rendertest.OutputCRLF(scr).Write(raw.Bytes())
		if crOnFirst {
			moved = append(moved, "column 0 of the first line")
		}
		if len(moved) > 0 {
			t.Errorf("the cursor went up or left of where the text began (%v): %v", start, moved)
		}
		if titles := scr.Titles(); len(titles) > 0 {
			t.Errorf("the text set the title: %q", titles)
		}
		if scr.Concealed() {
			t.Errorf("the text drew concealed or blinking cells")
		}
	})
}

// A word shows as it streams; when it grows past the line's end it moves
// to the next line whole, and the screen reads as if it had waited.
func TestWriterShowsAWordAsItComesAndMovesItWhole(t *testing.T) {
	scr := rendertest.NewScreen(12, 5)
	defer scr.Close()
	out := rendertest.OutputCRLF(scr)
	w := NewWriter(out, func() int { return 12 })
	w.WriteString("hello wor")
	if got := scr.Text(); got != "hello wor" {
		t.Errorf("before the word ends the screen shows %q, want it as it came", got)
	}
	w.WriteString("ldwide and")
	w.Flush()
	if got := scr.Text(); got != "hello\nworldwide\nand" {
		t.Errorf("the screen reads %q", got)
	}
}

// BenchmarkWriter renders a command's output of plain text and some
// escapes, wrapped at 100 columns, in pieces as a stream comes.
func BenchmarkWriter(b *testing.B) {
	line := "ok  github.com/wisp-sh/wisp/internal/render 0.012s \x1b[32mPASS\x1b[0m and \x1b]0;t\x07 words\n"
	text := strings.Repeat(line, 1<<14)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		w := NewWriter(io.Discard, func() int { return 100 })
		for i := 0; i < len(text); i += 4096 {
			w.WriteString(text[i:min(i+4096, len(text))])
		}
		w.Flush()
	}
}
