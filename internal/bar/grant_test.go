package bar

import (
	"testing"

	"github.com/wisp-sh/wisp/pending"
)

// add_directory's banner asks in its own words, the folder shown on one
// line whatever it holds.
func TestAddDirectoryBannerTitle(t *testing.T) {
	r := pending.Request{Kind: pending.KindAddDirectory, Command: "add_directory /srv/site\n· forged", Level: pending.LevelModerate}
	if got, want := BannerTitle(r), `wisp: let commands write in /srv/site\n· forged for this session?`; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}
