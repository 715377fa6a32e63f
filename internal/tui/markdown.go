package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/render"
)

// markdown lays out the model's words at width with the one renderer
// of them, render.Markdown, that the plain chat streams through: marks
// dropped, headings and emphasis styled, bullets as •, links with their
// targets, code as it is (issue 28 item 11). render makes the text safe
// first, so only the styles it adds reach the terminal. Its lines are
// then wrapped here, their styles kept, at the transcript's width.
func markdown(text string, width int, st styles) []string {
	var b strings.Builder
	w := render.NewWriter(&b, nil) // unwrapped: a retracted word would leave backspaces
	md := render.NewMarkdown(w, st.markdown)
	md.Write(text)
	md.End()
	w.Flush()
	var out []string
	for _, line := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		out = append(out, wrapStyled(st.markdown.Reset+expandTabs(line), width, st.markdown.Reset)...)
	}
	return out
}

// wrapStyled breaks s, which carries its styles, at width. With colour
// (base set), each line ends every style and a line after the first
// starts in base, the face's text colour: a span broken in two keeps its
// style on its first line only.
func wrapStyled(s string, width int, base string) []string {
	if width < 1 {
		width = 1
	}
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	if base == "" {
		return lines
	}
	for i := range lines {
		if i > 0 {
			lines[i] = base + lines[i]
		}
		lines[i] += "\x1b[0m"
	}
	return lines
}

// styler is what wrap needs of a lipgloss.Style.
type styler interface{ Render(...string) string }

// wrap breaks s at width (words where it can, else anywhere) and styles
// each line. s holds no escape sequence: render has made it safe.
func wrap(s string, width int, st styler) []string {
	if width < 1 {
		width = 1
	}
	lines := strings.Split(ansi.Wrap(s, width, ""), "\n")
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// hang wraps s after the prefix, its later lines indented under the text.
func hang(prefix, s string, width int, st styler) []string {
	pad := strings.Repeat(" ", ansi.StringWidth(prefix))
	lines := wrap(s, max(1, width-len(pad)), st)
	for i := range lines {
		if i == 0 {
			lines[i] = prefix + lines[i]
		} else {
			lines[i] = pad + lines[i]
		}
	}
	return lines
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
