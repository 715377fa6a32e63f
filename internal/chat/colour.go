package chat

import (
	"github.com/wisp-sh/wisp/internal/agent"
	"github.com/wisp-sh/wisp/internal/render"
)

// The plain chat's colours, in 24-bit colour, are the one palette's
// (render.Dark; docs/decisions.md, D28): outside for a line run outside
// the sandbox, removed (the danger colour) bold, command's amber for a
// line run in the sandbox and for a warning.
const (
	sgrReset = "\x1b[0m"
	sgrDim   = "\x1b[2m"
	sgrBold  = "\x1b[1m"
)

var (
	sgrDanger  = "\x1b[1;" + render.Foreground(render.Dark.Removed) + "m"
	sgrOutside = "\x1b[" + render.Foreground(render.Dark.Outside) + "m"
	sgrCommand = "\x1b[" + render.Foreground(render.Dark.Command) + "m"
	sgrWarning = "\x1b[" + render.Foreground(render.Dark.Warning) + "m"
)

// paint paints text in the palette's colours when colour is on.
type paint struct{ On bool }

// ColourWanted says whether to colour: only on a terminal, never with
// NO_COLOR set to anything (no-color.org) or TERM=dumb.
func ColourWanted(getenv func(string) string, isTerminal bool) bool {
	return isTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// levelSGR is the style of a note of level.
func (p paint) levelSGR(level string) string {
	switch level {
	case agent.LevelDanger:
		return sgrDanger
	case agent.LevelWarning:
		return sgrWarning
	}
	return sgrDim
}
