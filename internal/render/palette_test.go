package render

import (
	"reflect"
	"regexp"
	"testing"
)

var hexColour = regexp.MustCompile(`^#[0-9A-F]{6}$`)

// Every colour exists in both palettes, as #RRGGBB, and each is listed in
// a pair of the contrast check (none escapes it by being left out).
func TestPalettesDefineEveryColour(t *testing.T) {
	for _, p := range []Palette{Dark, Light} {
		v := reflect.ValueOf(p)
		inPairs := map[string]bool{}
		for _, pr := range p.Pairs() {
			inPairs[pr.Text], inPairs[pr.Background] = true, true
		}
		for i := 0; i < v.NumField(); i++ {
			name := v.Type().Field(i).Name
			if name == "Name" {
				continue
			}
			c := v.Field(i).String()
			if !hexColour.MatchString(c) {
				t.Errorf("%s palette: %s is %q, not a #RRGGBB colour", p.Name, name, c)
			}
			if !inPairs[c] {
				t.Errorf("%s palette: %s (%s) is in no pair the contrast check reads", p.Name, name, c)
			}
		}
	}
}

// The colours decision D28 names, as it names them.
func TestPalettesKeepTheNamedColours(t *testing.T) {
	for _, p := range []Palette{Dark, Light} {
		for name, got := range map[string][2]string{
			"outside":     {p.Outside, "#D27068"},
			"outsideSent": {p.OutsideSent, "#693834"},
			"removed":     {p.Removed, "#FF6B6B"},
			"outsideText": {p.OutsideText, p.CommandText}, // command mode's black text
		} {
			if got[0] != got[1] {
				t.Errorf("%s palette: %s is %s, want %s", p.Name, name, got[0], got[1])
			}
		}
		// The sent colours are half their box's brightness.
		for name, pair := range map[string][2]string{"commandSent": {p.CommandSent, p.Command}, "outsideSent": {p.OutsideSent, p.Outside}} {
			sent, box := parseHex(pair[0]), parseHex(pair[1])
			for i, ch := range [][2]uint8{{sent.R, box.R}, {sent.G, box.G}, {sent.B, box.B}} {
				if d := int(ch[0]) - int(ch[1])/2; d < -1 || d > 1 {
					t.Errorf("%s palette: %s channel %d is %d, not half of %d", p.Name, name, i, ch[0], ch[1])
				}
			}
		}
	}
}

// Text on every box colour, and on the background, reads at WCAG AA:
// a contrast ratio of at least 4.5:1.
func TestPalettesContrast(t *testing.T) {
	for _, p := range []Palette{Dark, Light} {
		for _, pr := range p.Pairs() {
			if c := Contrast(pr.Text, pr.Background); c < 4.5 {
				t.Errorf("%s palette: %s text %s on %s has contrast %.2f:1, under 4.5:1", p.Name, pr.Name, pr.Text, pr.Background, c)
			}
		}
	}
}

// The ratio itself, against values WCAG's own examples give.
func TestContrastRatio(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"#000000", "#FFFFFF", 21}, {"#FFFFFF", "#000000", 21}, {"#777777", "#FFFFFF", 4.48}, {"#FF6B6B", "#FF6B6B", 1},
	} {
		if got := Contrast(tc.a, tc.b); got < tc.want-0.01 || got > tc.want+0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", tc.a, tc.b, got, tc.want)
		}
	}
}

// ui.theme picks the palette; unset, the terminal's background does,
// dark when it did not say.
func TestPaletteFor(t *testing.T) {
	for _, tc := range []struct {
		theme string
		dark  bool
		want  string
	}{{"light", true, "light"}, {"dark", false, "dark"}, {"", true, "dark"}, {"", false, "light"}, {"auto", false, "light"}} {
		if got := PaletteFor(tc.theme, tc.dark).Name; got != tc.want {
			t.Errorf("PaletteFor(%q, %v) = %s, want %s", tc.theme, tc.dark, got, tc.want)
		}
	}
}
