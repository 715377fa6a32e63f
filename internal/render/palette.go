package render

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
)

// Palette is every colour wisp's faces use, as #RRGGBB: wisp tui paints
// with all of them, the plain chat with the few it needs (docs/decisions.md,
// D28). D28 names command (the amber of command mode, chosen
// from renders), commandSent (half its brightness, under a sent !
// line), outside (#D27068, a muted red darker and greyer than ember and
// removed), outsideSent (#693834, half outside's brightness) and removed
// (#FF6B6B, the danger colour). Each is a box's background with its text
// colour beside it; Pairs lists every text and background that meet, and
// the palette check holds each to WCAG AA (4.5:1).
//
// Background is the terminal's own background as the palette assumes it:
// a face never paints it, it is what the plain text and the dim text are
// read against.
type Palette struct {
	Name string

	Background, Text, Dim, Warning string

	Box, BoxText string // the normal input box

	Command, CommandText         string // the command-mode box (black text)
	CommandSent, CommandSentText string // a sent ! line in the transcript
	Outside, OutsideText         string // the outside-mode box (command mode's black text)
	OutsideSent, OutsideSentText string // a sent !! line in the transcript

	Ember, EmberText     string // what is live: a running command's card, the model streaming
	Removed, RemovedText string // danger: runs OUTSIDE the sandbox, --unsafe, a refusal

	Status, StatusText string // the status line
	Modal, ModalText   string // the approval dialog and the request list
	Card, CardText     string // a command card's head
}

// Dark is the palette for a dark terminal, and the one used when the
// terminal does not say.
var Dark = Palette{
	Name:       "dark",
	Background: "#1E1E1E", Text: "#E4E4E4", Dim: "#A0A0A0", Warning: "#E5A50A",
	Box: "#303030", BoxText: "#EEEEEE",
	Command: "#E5A50A", CommandText: "#000000",
	CommandSent: "#725205", CommandSentText: "#FFFFFF",
	Outside: "#D27068", OutsideText: "#000000",
	OutsideSent: "#693834", OutsideSentText: "#FFFFFF",
	Ember: "#FF8A5B", EmberText: "#000000",
	Removed: "#FF6B6B", RemovedText: "#000000",
	Status: "#3A3A3A", StatusText: "#E4E4E4",
	Modal: "#262626", ModalText: "#F0F0F0",
	Card: "#2A2A2A", CardText: "#E4E4E4",
}

// Light is the palette for a light terminal. The boxes of the modes keep
// their colours, so a mode looks the same on either; the text around them
// is darker.
var Light = Palette{
	Name:       "light",
	Background: "#FFFFFF", Text: "#1A1A1A", Dim: "#5E5E5E", Warning: "#805300",
	Box: "#E8E8E8", BoxText: "#111111",
	Command: "#E5A50A", CommandText: "#000000",
	CommandSent: "#725205", CommandSentText: "#FFFFFF",
	Outside: "#D27068", OutsideText: "#000000",
	OutsideSent: "#693834", OutsideSentText: "#FFFFFF",
	Ember: "#FF8A5B", EmberText: "#000000",
	Removed: "#FF6B6B", RemovedText: "#000000",
	Status: "#DADADA", StatusText: "#111111",
	Modal: "#F4F4F4", ModalText: "#111111",
	Card: "#EFEFEF", CardText: "#1A1A1A",
}

// Pair is a text colour on a background colour.
type Pair struct{ Name, Text, Background string }

// Pairs is every text and background that meet on the screen.
func (p Palette) Pairs() []Pair {
	return []Pair{
		{"text", p.Text, p.Background}, {"dim", p.Dim, p.Background}, {"warning", p.Warning, p.Background},
		{"box", p.BoxText, p.Box},
		{"command", p.CommandText, p.Command}, {"commandSent", p.CommandSentText, p.CommandSent},
		{"outside", p.OutsideText, p.Outside}, {"outsideSent", p.OutsideSentText, p.OutsideSent},
		{"ember", p.EmberText, p.Ember}, {"removed", p.RemovedText, p.Removed},
		{"status", p.StatusText, p.Status}, {"modal", p.ModalText, p.Modal}, {"card", p.CardText, p.Card},
		{"dim on card", p.Dim, p.Card}, {"dim on modal", p.Dim, p.Modal}, {"warning on modal", p.Warning, p.Modal},
	}
}

// Contrast is the WCAG 2 contrast ratio of two #RRGGBB colours, 1 to 21.
func Contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(hex string) float64 {
	c := parseHex(hex)
	lin := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.04045 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

func parseHex(hex string) color.RGBA {
	v, _ := strconv.ParseUint(hex[1:], 16, 32)
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// PaletteFor picks the palette: theme "dark" or "light" as configured
// (ui.theme), else by the terminal's background when it told (dark is
// true when it did not).
func PaletteFor(theme string, dark bool) Palette {
	switch theme {
	case "light":
		return Light
	case "dark":
		return Dark
	}
	if dark {
		return Dark
	}
	return Light
}

// Foreground is the SGR parameters that set hex as the text colour in
// 24-bit colour: "38;2;R;G;B".
func Foreground(hex string) string {
	c := parseHex(hex)
	return fmt.Sprintf("38;2;%d;%d;%d", c.R, c.G, c.B)
}
