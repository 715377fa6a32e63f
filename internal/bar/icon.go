package bar

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strconv"
)

// IconSize is the icon's width and height in pixels; tray hosts scale it.
const IconSize = 32

// The icon's colours: a ring for wisp, and a red badge with the count in
// white, so the count is seen where a tray host shows no title.
var (
	ringColour  = color.NRGBA{0x55, 0x5b, 0x66, 0xff}
	badgeColour = color.NRGBA{0xd0, 0x30, 0x30, 0xff}
	digitColour = color.NRGBA{0xff, 0xff, 0xff, 0xff}
)

// digitFont is a 3×5 bitmap of each character the badge uses.
var digitFont = map[rune][5]string{
	'0': {"###", "#.#", "#.#", "#.#", "###"},
	'1': {".#.", "##.", ".#.", ".#.", "###"},
	'2': {"###", "..#", "###", "#..", "###"},
	'3': {"###", "..#", ".##", "..#", "###"},
	'4': {"#.#", "#.#", "###", "..#", "..#"},
	'5': {"###", "#..", "###", "..#", "###"},
	'6': {"###", "#..", "###", "#.#", "###"},
	'7': {"###", "..#", ".#.", ".#.", ".#."},
	'8': {"###", "#.#", "###", "#.#", "###"},
	'9': {"###", "#.#", "###", "..#", "###"},
	'+': {"...", ".#.", "###", ".#.", "..."},
}

// Icon is the tray icon as PNG bytes: the ring alone when nothing waits,
// with a badge holding the count (up to "9+") when something does.
func Icon(count int) []byte {
	img := IconImage(count)
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic("encode the tray icon: " + err.Error()) // an in-memory RGBA image always encodes
	}
	return buf.Bytes()
}

// IconImage is the icon before encoding.
func IconImage(count int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, IconSize, IconSize))
	drawRing(img, 16, 16, 13, 9, ringColour)
	if count > 0 {
		drawRing(img, 21, 21, 10, 0, badgeColour)
		drawText(img, badgeText(count), 21, 21)
	}
	return img
}

func badgeText(count int) string {
	if count > 9 {
		return "9+"
	}
	return strconv.Itoa(count)
}

// drawRing fills the pixels between radius inner and outer around (cx, cy).
func drawRing(img *image.NRGBA, cx, cy, outer, inner int, c color.NRGBA) {
	for y := range IconSize {
		for x := range IconSize {
			dx, dy := 2*(x-cx)+1, 2*(y-cy)+1 // pixel centres, in half pixels
			d := dx*dx + dy*dy
			if d <= 4*outer*outer && d >= 4*inner*inner {
				img.SetNRGBA(x, y, c)
			}
		}
	}
}

// drawText draws text centred on (cx, cy), each font pixel 2×2.
func drawText(img *image.NRGBA, text string, cx, cy int) {
	const scale, gap = 2, 1
	width := len(text)*(3*scale+gap) - gap
	left, top := cx-width/2, cy-5*scale/2
	for i, r := range text {
		glyph := digitFont[r]
		for gy, row := range glyph {
			for gx, on := range row {
				if on == '#' {
					fill(img, left+i*(3*scale+gap)+gx*scale, top+gy*scale, scale, digitColour)
				}
			}
		}
	}
}

func fill(img *image.NRGBA, x, y, size int, c color.NRGBA) {
	for dy := range size {
		for dx := range size {
			img.SetNRGBA(x+dx, y+dy, c)
		}
	}
}
