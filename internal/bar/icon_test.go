package bar

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
)

// iconText draws the icon as text: "." clear, "o" ring, "R" badge, "#" digit.
func iconText(count int) string {
	img := IconImage(count)
	var b strings.Builder
	for y := range IconSize {
		for x := range IconSize {
			switch img.NRGBAAt(x, y) {
			case ringColour:
				b.WriteByte('o')
			case badgeColour:
				b.WriteByte('R')
			case digitColour:
				b.WriteByte('#')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// The count is drawn into the icon, since many tray hosts show no title.
func TestIconShowsTheCount(t *testing.T) {
	for _, count := range []int{0, 3, 12} {
		t.Run(fmt.Sprint(count), func(t *testing.T) {
			golden(t, fmt.Sprintf("icon-%d.txt", count), iconText(count))
		})
	}
}

func TestIconIsAPNGOfItsSize(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(Icon(7)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != IconSize || b.Dy() != IconSize {
		t.Errorf("icon is %v, want %d×%d", b, IconSize, IconSize)
	}
	if bytes.Equal(Icon(7), Icon(8)) || bytes.Equal(Icon(0), Icon(1)) {
		t.Error("icons for different counts are the same")
	}
}
