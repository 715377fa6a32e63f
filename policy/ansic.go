package policy

import (
	"strconv"
	"strings"
)

// decodeANSIC decodes the escapes of bash's $'…' quoting, so that
// $'\x73udo' is read as sudo.
func decodeANSIC(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i += decodeEscape(&b, s[i+1:])
	}
	return b.String()
}

// simpleEscapes maps the one-letter escapes of $'…' to their bytes.
var simpleEscapes = map[byte]byte{
	'a': '\a', 'b': '\b', 'e': 0x1b, 'E': 0x1b, 'f': '\f', 'n': '\n', 'r': '\r',
	't': '\t', 'v': '\v', '\\': '\\', '\'': '\'', '"': '"', '?': '?',
}

// decodeEscape writes the escape that rest (the text after a backslash)
// starts with and returns how many bytes of rest it used.
func decodeEscape(b *strings.Builder, rest string) int {
	c := rest[0]
	if v, ok := simpleEscapes[c]; ok {
		b.WriteByte(v)
		return 1
	}
	switch c {
	case 'x':
		return 1 + writeNumber(b, rest[1:], 16, 2, false)
	case 'u':
		return 1 + writeNumber(b, rest[1:], 16, 4, true)
	case 'U':
		return 1 + writeNumber(b, rest[1:], 16, 8, true)
	case 'c':
		if len(rest) > 1 {
			b.WriteByte(rest[1] & 0x1f)
			return 2
		}
	}
	if '0' <= c && c <= '7' {
		return writeNumber(b, rest, 8, 3, false)
	}
	b.WriteByte('\\')
	b.WriteByte(c)
	return 1
}

// writeNumber reads up to max digits of base from s and writes the byte or
// rune they name; with no digits it writes nothing. It returns the digits
// read.
func writeNumber(b *strings.Builder, s string, base, max int, isRune bool) int {
	n := 0
	for n < max && n < len(s) && isDigitOf(s[n], base) {
		n++
	}
	if n == 0 {
		return 0
	}
	v, err := strconv.ParseUint(s[:n], base, 32)
	if err != nil {
		return n
	}
	if isRune {
		b.WriteRune(rune(v))
	} else {
		b.WriteByte(byte(v))
	}
	return n
}

func isDigitOf(c byte, base int) bool {
	switch {
	case '0' <= c && c <= '7':
		return true
	case c == '8' || c == '9':
		return base >= 10
	case 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		return base == 16
	}
	return false
}
