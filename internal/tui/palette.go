package tui

import (
	"charm.land/lipgloss/v2"
	"github.com/wisp-sh/wisp/internal/render"
)

// The face's colours are the one palette, render's (docs/decisions.md, D28).
type Palette = render.Palette

// PaletteFor picks the palette (render.PaletteFor).
func PaletteFor(theme string, dark bool) Palette { return render.PaletteFor(theme, dark) }

// styles are the palette as lipgloss styles; with colour off, every style
// is plain and the markers alone tell the modes apart.
type styles struct {
	colour                            bool
	text, dim, warning, bold          lipgloss.Style
	box, command, outside             lipgloss.Style
	commandSent, outsideSent          lipgloss.Style
	ember, removed, status, modal     lipgloss.Style
	card, modalTitle, danger, spinner lipgloss.Style
	markdown                          render.MarkdownStyle // the model's words (render.Markdown)
}

func newStyles(p Palette, colour bool) styles {
	plain := lipgloss.NewStyle()
	s := styles{colour: colour, text: plain, dim: plain, warning: plain, bold: plain.Bold(true),
		box: plain, command: plain, outside: plain, commandSent: plain, outsideSent: plain, ember: plain,
		removed: plain, status: plain.Reverse(!colour), modal: plain, card: plain, modalTitle: plain.Bold(true),
		danger: plain.Bold(true), spinner: plain}
	if !colour {
		return s
	}
	fg := func(c string) lipgloss.Style { return plain.Foreground(lipgloss.Color(c)) }
	on := func(text, bg string) lipgloss.Style {
		return plain.Foreground(lipgloss.Color(text)).Background(lipgloss.Color(bg))
	}
	s.text, s.dim, s.warning = fg(p.Text), fg(p.Dim), fg(p.Warning)
	s.box, s.command, s.outside = on(p.BoxText, p.Box), on(p.CommandText, p.Command), on(p.OutsideText, p.Outside)
	s.commandSent, s.outsideSent = on(p.CommandSentText, p.CommandSent), on(p.OutsideSentText, p.OutsideSent)
	s.ember, s.removed = on(p.EmberText, p.Ember), on(p.RemovedText, p.Removed).Bold(true)
	s.status, s.modal, s.card = on(p.StatusText, p.Status), on(p.ModalText, p.Modal), on(p.CardText, p.Card)
	s.modalTitle = s.modal.Bold(true)
	s.danger = s.removed
	s.spinner = fg(p.Warning)
	s.markdown = render.MarkdownStyle{Reset: "\x1b[0;" + render.Foreground(p.Text) + "m",
		Bold: "\x1b[1m", Italic: "\x1b[3m", Heading: "\x1b[1;4m",
		Code: "\x1b[" + render.Foreground(p.Dim) + "m", Dim: "\x1b[" + render.Foreground(p.Dim) + "m"}
	return s
}

// boxStyle is the input box's style in mode.
func (s styles) boxStyle(m Mode) lipgloss.Style {
	switch m {
	case Command:
		return s.command
	case Outside:
		return s.outside
	}
	return s.box
}
