package bar

import (
	"fmt"
	visiblepkg "github.com/wisp-sh/wisp/internal/visible"
	"path/filepath"
	"strings"
	"time"

	"github.com/wisp-sh/wisp/pending"
)

// The wording every face shares, declared in pending (docs/decisions.md, D19).
const (
	outsideTitle  = "wisp: " + pending.OutsideAsk
	outsidePrefix = pending.OutsideMark
)

// Lengths past which a menu label is shortened; the details show all.
const (
	maxLineRunes   = 60
	maxFolderRunes = 32
)

// BannerTitle is the banner's title for r.
func BannerTitle(r pending.Request) string {
	if r.OutsideSandbox {
		return outsideTitle
	}
	if title, ok := networkTitle(r); ok {
		return title
	}
	if r.Kind == pending.KindAddDirectory {
		return "wisp: let commands write in " + visible(pending.AddDirectoryFolder(r)) + " for this session?"
	}
	return fmt.Sprintf("wisp: approve a command (%s risk)", r.Level)
}

// visible makes text safe to show on one line: a newline in a command can
// never fake the banner's next line (internal/visible).
func visible(text string) string { return visiblepkg.Line(text) }

// shorten cuts text to at most n runes, marking the cut with "…" at the end.
func shorten(text string, n int) string {
	runes := []rune(text)
	if len(runes) <= n {
		return text
	}
	return string(runes[:n-1]) + "…"
}

// shortenLeft cuts text to at most n runes from the left, keeping the end,
// which is the part of a folder that tells it apart.
func shortenLeft(text string, n int) string {
	runes := []rune(text)
	if len(runes) <= n {
		return text
	}
	return "…" + string(runes[len(runes)-n+1:])
}

// Folder shows dir with the person's home as "~", as the menu, the banners
// and wisp tui's status line name a folder.
func Folder(dir, home string) string {
	if home != "" && home != "/" {
		if dir == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(dir, home+string(filepath.Separator)); ok {
			return "~/" + rest
		}
	}
	return dir
}

// age says how long ago t was, in the coarsest unit that is not zero.
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < 5*time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	default:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
}

// line is the command as a menu shows it: marked when it runs outside the
// sandbox, escaped, shortened.
func line(r pending.Request) string {
	text := shorten(visible(r.Command), maxLineRunes)
	if r.OutsideSandbox {
		return outsidePrefix + text
	}
	return text
}

// prefixScopeLabels begin a prefix scope's menu line, which then names
// the prefix held.
var prefixScopeLabels = map[string]string{
	pending.ScopeSession: "Approve for this session",
	pending.ScopeProject: "Approve for this project",
	pending.ScopeAlways:  "Approve always",
}

// scopeLabels names each scope as the menu offers it.
var scopeLabels = map[string]string{
	pending.ScopeOnce:    "Approve once",
	pending.ScopeSession: "Approve for this session",
	pending.ScopeProject: "Approve for this project",
	pending.ScopeAlways:  "Approve always",
}
