package agentcli

import (
	"github.com/wisp-sh/wisp/internal/config"
	"github.com/wisp-sh/wisp/internal/darwin/banners"
)

// doctorBar is doctor's wisp-bar line on a Mac: whether macOS shows
// wisp-bar's banners, as wisp-bar last found it (wisp is built without cgo
// and has no bundle, so it reads wisp-bar's record rather than asking
// macOS). Banners off is a warning, with why and the fix: wisp-bar then
// brings its alert instead.
func doctorBar(home config.Home) (string, error) {
	line, err := banners.Doctor(home)
	if err != nil {
		return "", doctorWarning{err}
	}
	return line, nil
}
