package chat

import "github.com/wisp-sh/wisp/internal/agent"

// The plain chat's palette, in 24-bit colour. Outside is record 0064
// amendment item 6's colour for a line run outside the sandbox (#D27068, a
// muted red darker and greyer than removed, #FF6B6B, which is the danger
// colour); command is the amber of a line run in the sandbox.
const (
	sgrReset   = "\x1b[0m"
	sgrDim     = "\x1b[2m"
	sgrBold    = "\x1b[1m"
	sgrDanger  = "\x1b[1;38;2;255;107;107m" // #FF6B6B, bold
	sgrOutside = "\x1b[38;2;210;112;104m"   // #D27068
	sgrCommand = "\x1b[38;2;229;165;10m"    // amber
	sgrWarning = "\x1b[38;2;229;165;10m"
)

// Palette paints text when colour is on.
type Palette struct{ On bool }

// ColourWanted says whether to colour: only on a terminal, never with
// NO_COLOR set to anything (no-color.org) or TERM=dumb.
func ColourWanted(getenv func(string) string, isTerminal bool) bool {
	return isTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// levelSGR is the style of a note of level.
func (p Palette) levelSGR(level string) string {
	switch level {
	case agent.LevelDanger:
		return sgrDanger
	case agent.LevelWarning:
		return sgrWarning
	}
	return sgrDim
}
