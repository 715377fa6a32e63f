package tui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/wisp-sh/wisp/internal/render"
)

// markdown lays out the model's words at width: headings in bold, code
// blocks dimmed and indented, list bullets as •, everything wrapped. It is
// deliberately small (docs/tui.md says why glamour is not used). The text
// goes through render first: an escape sequence in it shows as its
// escape, so only the styles added here reach the terminal.
func markdown(text string, width int, st styles) []string {
	var out []string
	code := false
	for _, line := range strings.Split(strings.TrimRight(render.Text(text), "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			code = !code
			continue
		case code:
			out = append(out, wrap("  "+expandTabs(line), width, st.dim)...)
			continue
		}
		out = append(out, markdownLine(line, width, st)...)
	}
	return out
}

func markdownLine(line string, width int, st styles) []string {
	trimmed := strings.TrimLeft(line, " ")
	indent := line[:len(line)-len(trimmed)]
	switch {
	case strings.HasPrefix(trimmed, "#"):
		return wrap(strings.TrimSpace(strings.TrimLeft(trimmed, "#")), width, st.bold)
	case strings.HasPrefix(trimmed, "- ") || strings.HasPrefix(trimmed, "* "):
		return hang(indent+"• ", trimmed[2:], width, st.text)
	}
	return wrap(expandTabs(line), width, st.text)
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
