// Package rendertest reads back what a person would see: the bytes wisp
// writes go through a terminal emulator (charmbracelet/x/vt), and a test
// asserts on its screen, its cursor and its title rather than on bytes.
package rendertest

import (
	"io"
	"strings"
	"sync"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
)

// Screen is an emulated terminal. Write feeds it output; it is safe for
// use from more than one goroutine.
type Screen struct {
	mu     sync.Mutex
	em     *vt.Emulator
	titles []string
	// OnCursor, when set, sees every move of the cursor.
	OnCursor func(old, new uv.Position)
}

// NewScreen is a width×height terminal with a scrollback.
func NewScreen(width, height int) *Screen {
	s := &Screen{em: vt.NewEmulator(width, height)}
	s.em.SetCallbacks(vt.Callbacks{
		Title:    func(t string) { s.titles = append(s.titles, t) },
		IconName: func(t string) { s.titles = append(s.titles, "icon:"+t) },
		CursorPosition: func(old, new uv.Position) {
			if s.OnCursor != nil {
				s.OnCursor(old, new)
			}
		},
	})
	// The emulator answers queries (device attributes, cursor reports)
	// on its input; nobody types there, so the answers are dropped.
	go io.Copy(io.Discard, s.em)
	return s
}

// Close ends what reads the emulator's answers. It closes the answers'
// pipe rather than the emulator, whose Close races with a Read.
func (s *Screen) Close() {
	if pw, ok := s.em.InputPipe().(*io.PipeWriter); ok {
		pw.Close()
	}
}

// Write feeds the terminal what a program wrote.
func (s *Screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.Write(p)
}

// Titles are the titles (and icon names) anything set.
func (s *Screen) Titles() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.titles...)
}

// Cursor is where the cursor is.
func (s *Screen) Cursor() uv.Position {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.em.CursorPosition()
}

// Lines are the screen's lines, the scrollback's first, right-trimmed.
func (s *Screen) Lines() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var lines []string
	if sb := s.em.Scrollback(); sb != nil {
		for y := 0; y < s.em.ScrollbackLen(); y++ {
			var b strings.Builder
			for x := 0; x < s.em.Width(); x++ {
				if c := s.em.ScrollbackCellAt(x, y); c != nil {
					b.WriteString(c.Content)
				}
			}
			lines = append(lines, strings.TrimRight(b.String(), " "))
		}
	}
	for y := 0; y < s.em.Height(); y++ {
		var b strings.Builder
		for x := 0; x < s.em.Width(); x++ {
			if c := s.em.CellAt(x, y); c != nil {
				b.WriteString(c.Content)
			}
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Text is the screen (with the scrollback) as lines joined by newlines.
func (s *Screen) Text() string { return strings.Join(s.Lines(), "\n") }

// Concealed reports whether any cell on the screen is drawn concealed
// (SGR 8) or blinks: text a person could not read.
func (s *Screen) Concealed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := 0; y < s.em.Height(); y++ {
		for x := 0; x < s.em.Width(); x++ {
			if c := s.em.CellAt(x, y); c != nil && c.Style.Attrs&(uv.AttrConceal|uv.AttrBlink|uv.AttrRapidBlink) != 0 {
				return true
			}
		}
	}
	return false
}

// OutputCRLF turns the newlines a program writes into CR LF, as a
// terminal's line discipline does (ONLCR) before the emulator sees them.
func OutputCRLF(w io.Writer) io.Writer { return crlf{w} }

type crlf struct{ w io.Writer }

func (c crlf) Write(p []byte) (int, error) {
	_, err := c.w.Write([]byte(strings.ReplaceAll(string(p), "\n", "\r\n")))
	return len(p), err
}
