package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/render"
)

// maxBoxLines is the most the input box grows to; a longer text scrolls
// in it, around the cursor.
const maxBoxLines = 6

// styledLine is a line of a dialog or the list, in its style.
type styledLine struct {
	text string
	st   lipgloss.Style
}

// View draws the screen: the transcript (only what is on screen is laid
// out), a hint line when there is one, the input box and the status line;
// a dialog or the list over the transcript.
func (m *Model) View() tea.View {
	box, curX, curY := m.in.layout(m.width, m.st)
	hint := m.hint()
	status := m.statusLines()
	rows := m.height - len(status) - len(box) - len(hint)
	l := layout{width: m.width, st: m.st, now: m.o.Now(), spinner: m.spin.View(), asking: m.askingLine()}
	lines, above, scroll := m.tr.window(rows, m.scroll, l.lay)
	m.topShown, m.scroll = !above, scroll
	screen := make([]string, 0, m.height)
	for i := len(lines); i < rows; i++ {
		screen = append(screen, "")
	}
	screen = append(screen, lines...)
	if panel := m.panel(); panel != nil {
		screen = overlay(screen, panel)
	}
	screen = append(screen, hint...)
	boxTop := len(screen)
	screen = append(screen, box...)
	screen = append(screen, status...)
	v := tea.NewView(strings.Join(screen, "\n"))
	v.AltScreen = true
	if m.dialogs == nil && m.list == nil && !m.quitting {
		v.Cursor = tea.NewCursor(curX, boxTop+curY)
	}
	return v
}

// transcriptHeight is how many lines the transcript has on screen.
func (m *Model) transcriptHeight() int {
	return max(1, m.height-1-len(m.statusLines())-len(m.hint()))
}

func (m *Model) hint() []string {
	h := m.in.Hint
	if h == "" && m.scroll > 0 {
		h = "scrolled up: PgDn goes down"
	}
	if h == "" {
		return nil
	}
	return []string{m.st.warning.Render(ansi.Truncate(h, m.width, "…"))}
}

// panel is the dialog on screen, or the list, framed.
func (m *Model) panel() []string {
	var body []styledLine
	switch {
	case len(m.dialogs) > 0:
		body = m.dialogs[0].lines(m.o.Now(), m.st)
		if n := len(m.dialogs) - 1; n > 0 {
			body = append(body, styledLine{"(" + itoa(n) + " more waiting)", m.st.modal})
		}
	case m.list != nil:
		body = m.list.lines(m.o.Now(), m.o.Home, m.st)
	default:
		return nil
	}
	return frame(body, min(m.width-2, 100), m.st)
}

// frame draws lines in a box width wide, each wrapped to fit.
func frame(body []styledLine, width int, st styles) []string {
	inner := max(10, width-4)
	out := []string{st.modal.Render("┌" + strings.Repeat("─", inner+2) + "┐")}
	for _, l := range body {
		for _, w := range strings.Split(ansi.Wrap(l.text, inner, ""), "\n") {
			pad := strings.Repeat(" ", max(0, inner-ansi.StringWidth(w)))
			out = append(out, st.modal.Render("│ ")+l.st.Render(w)+st.modal.Render(pad+" │"))
		}
	}
	return append(out, st.modal.Render("└"+strings.Repeat("─", inner+2)+"┘"))
}

// overlay puts the panel over the lower part of the screen's lines, a
// column in from the left, keeping the lines it covers out of sight.
func overlay(screen, panel []string) []string {
	if len(panel) > len(screen) {
		panel = panel[len(panel)-len(screen):]
	}
	top := max(0, (len(screen)-len(panel))/2)
	out := append([]string(nil), screen...)
	for i, p := range panel {
		out[top+i] = " " + p
	}
	return out
}

// layout draws the box: the marker, then the text wrapped to the width,
// in the mode's colours; and where the cursor is in it. Each character
// is shown as render shows a line, so a pasted escape shows as one.
func (in *Input) layout(width int, st styles) (lines []string, curX, curY int) {
	marker := in.Mode.Marker() + " "
	pw := ansi.StringWidth(marker)
	cw := max(1, width-pw)
	var rows []string
	var row strings.Builder
	col := 0
	curRow, curCol := 0, 0
	for i, r := range in.text {
		if i == in.cursor {
			curRow, curCol = len(rows), col
		}
		if r == '\n' {
			rows, col = append(rows, row.String()), 0
			row.Reset()
			continue
		}
		cell := render.Line(string(r))
		w := ansi.StringWidth(cell)
		if col+w > cw {
			rows, col = append(rows, row.String()), 0
			row.Reset()
			if i == in.cursor {
				curRow, curCol = len(rows), 0
			}
		}
		row.WriteString(cell)
		col += w
	}
	if in.cursor >= len(in.text) {
		curRow, curCol = len(rows), col
		if col >= cw {
			rows, col = append(rows, row.String()), 0
			row.Reset()
			curRow, curCol = len(rows), 0
		}
	}
	rows = append(rows, row.String())
	first := max(0, min(curRow-maxBoxLines+1, len(rows)-maxBoxLines))
	rows = rows[first:min(len(rows), first+maxBoxLines)]
	style := st.boxStyle(in.Mode)
	for i, r := range rows {
		lead := strings.Repeat(" ", pw)
		if i == 0 && first == 0 {
			lead = marker
		}
		text := lead + r
		lines = append(lines, style.Render(text+strings.Repeat(" ", max(0, width-ansi.StringWidth(text)))))
	}
	return lines, pw + curCol, curRow - first
}

// askingLine is the command the dialog on screen asks about, "" when no
// dialog is open or it asks about a host.
func (m *Model) askingLine() string {
	if len(m.dialogs) == 0 || m.dialogs[0].host != "" {
		return ""
	}
	return m.dialogs[0].req.Line
}
