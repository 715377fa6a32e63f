package chat

import (
	"bytes"
	"context"
	"errors"
	"os"
	"time"
	"unicode/utf8"
)

// keyKind is what a key does in the editor.
type keyKind int

const (
	keyNone keyKind = iota
	keyRune
	keyPaste
	keyEnter
	keyInterrupt
	keyEOF
	keyBackspace
	keyDelete
	keyLeft
	keyRight
	keyHome
	keyEnd
	keyUp
	keyDown
	keyKillEnd
	keyKillStart
	keyKillWord
)

// key is one key, or one paste.
type key struct {
	kind keyKind
	r    rune
	text string // keyPaste
}

// burstGap is how close behind one read another must come for the two to
// be one burst: far faster than anyone types, slower than a terminal
// delivers a paste it cut in pieces.
const burstGap = 15 * time.Millisecond

// maxBurst bounds one paste.
const maxBurst = 1 << 20

var (
	pasteStart = []byte("\x1b[200~")
	pasteEnd   = []byte("\x1b[201~")
)

// keyReader turns what the terminal sends into keys. A bracketed paste,
// and where the terminal does not bracket, a burst (an Enter that came in
// one read with other keys, and what follows within burstGap), is one
// keyPaste, whose Enters are the paste's newlines.
type keyReader struct {
	f       *os.File
	queue   []byte
	pasting bool   // inside a bracketed paste
	pasted  []byte // what it held so far
}

// next returns the next key; ctx's end (the read's deadline) is an error.
func (k *keyReader) next(ctx context.Context) (key, error) {
	for {
		if k.pasting {
			if i := bytes.Index(k.queue, pasteEnd); i >= 0 {
				text := string(append(k.pasted, k.queue[:i]...))
				k.queue, k.pasted, k.pasting = k.queue[i+len(pasteEnd):], nil, false
				return key{kind: keyPaste, text: text}, nil
			}
			// Keep what may be the start of the end marker.
			keep := min(len(k.queue), len(pasteEnd)-1)
			if len(k.pasted) < maxBurst {
				k.pasted = append(k.pasted, k.queue[:len(k.queue)-keep]...)
			}
			k.queue = k.queue[len(k.queue)-keep:]
		} else if len(k.queue) > 0 {
			if ky, n, ok := parseKey(k.queue); ok {
				k.queue = k.queue[n:]
				if ky.kind == keyPaste { // the start marker
					k.pasting = true
					continue
				}
				if ky.kind != keyNone {
					return ky, nil
				}
				continue
			}
		}
		chunk, err := k.read(ctx, 0)
		if err != nil {
			return key{}, err
		}
		if !k.pasting && len(k.queue) == 0 {
			if text, ok, err := k.burst(ctx, chunk); err != nil {
				return key{}, err
			} else if ok {
				return key{kind: keyPaste, text: text}, nil
			}
		}
		k.queue = append(k.queue, chunk...)
	}
}

// burst reports whether chunk, with what comes right behind it, is a
// paste the terminal did not bracket, and gives its text.
func (k *keyReader) burst(ctx context.Context, chunk []byte) (string, bool, error) {
	if bytes.Contains(chunk, pasteStart) || bytes.ContainsAny(chunk, "\x03\x04") {
		return "", false, nil
	}
	// A person's keys come one read at a time: an Enter that came
	// together with other keys was not typed after them.
	if !bytes.ContainsAny(chunk, "\r\n") || utf8.RuneCount(chunk) < 2 {
		return "", false, nil
	}
	for len(chunk) < maxBurst {
		more, err := k.read(ctx, burstGap)
		if err != nil {
			// Stopped inside a burst: what came is still a paste, never
			// keys (its Enters must not send a line); the stop is seen at
			// the next read.
			return string(chunk), true, nil
		}
		if len(more) == 0 {
			break
		}
		chunk = append(chunk, more...)
	}
	return string(chunk), true, nil
}

// read reads what the terminal has; with wait > 0, it waits that long at
// most and returns nothing when nothing came.
func (k *keyReader) read(ctx context.Context, wait time.Duration) ([]byte, error) {
	buf := make([]byte, 4096)
	if wait > 0 {
		k.f.SetReadDeadline(time.Now().Add(wait))
	}
	n, err := k.f.Read(buf)
	if wait > 0 {
		// A stop that came while the wait's deadline was set is seen
		// here: ctx's error is set before its AfterFunc runs.
		k.f.SetReadDeadline(time.Time{})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return buf[:n], nil
		}
	}
	if n > 0 {
		return buf[:n], nil
	}
	return nil, err
}

// parseKey reads one key at the start of b; ok is false when b holds only
// the start of one. A key the editor does not use is keyNone.
func parseKey(b []byte) (key, int, bool) {
	switch c := b[0]; {
	case c == '\r' || c == '\n':
		return key{kind: keyEnter}, 1, true
	case c == 0x1b:
		return parseEscape(b)
	case c < 0x20 || c == 0x7f:
		return key{kind: controlKeys[c]}, 1, true
	}
	if !utf8.FullRune(b) {
		return key{}, 0, false
	}
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n == 1 {
		return key{}, 1, true // not UTF-8: dropped
	}
	return key{kind: keyRune, r: r}, n, true
}

var controlKeys = map[byte]keyKind{
	0x01: keyHome, 0x02: keyLeft, 0x03: keyInterrupt, 0x04: keyEOF, 0x05: keyEnd, 0x06: keyRight,
	0x08: keyBackspace, 0x0b: keyKillEnd, 0x0e: keyDown, 0x10: keyUp, 0x15: keyKillStart,
	0x17: keyKillWord, 0x7f: keyBackspace,
}

var escapeKeys = map[string]keyKind{
	"[A": keyUp, "[B": keyDown, "[C": keyRight, "[D": keyLeft, "[H": keyHome, "[F": keyEnd,
	"OA": keyUp, "OB": keyDown, "OC": keyRight, "OD": keyLeft, "OH": keyHome, "OF": keyEnd,
	"[1~": keyHome, "[7~": keyHome, "[4~": keyEnd, "[8~": keyEnd, "[3~": keyDelete,
	"[200~": keyPaste,
}

// parseEscape reads an escape sequence: ESC [ params final, or ESC O x.
// An ESC followed by anything else is dropped alone.
func parseEscape(b []byte) (key, int, bool) {
	if len(b) < 2 {
		return key{}, 0, false
	}
	switch b[1] {
	case 'O':
		if len(b) < 3 {
			return key{}, 0, false
		}
		return key{kind: escapeKeys[string(b[1:3])]}, 3, true
	case '[':
		for i := 2; i < len(b); i++ {
			if b[i] >= 0x40 && b[i] <= 0x7e {
				return key{kind: escapeKeys[string(b[1:i+1])]}, i + 1, true
			}
			if i > 16 {
				return key{}, i + 1, true // not a key: dropped
			}
		}
		return key{}, 0, false
	}
	return key{}, 1, true
}
