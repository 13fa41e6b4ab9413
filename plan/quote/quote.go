// Package quote makes text that came from the user safe to show: manifests,
// annotation values and names end up in diagnostics, errors and terminal
// output, and a value must never be able to move the cursor, retitle the
// terminal, reorder a line (bidirectional overrides) or flood the screen.
// Every message that echoes user input goes through Value, or through Text
// or Lines when the whole message is printed.
package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxValue is how many characters of a value Value shows; the rest is
// summarised by its size.
const MaxValue = 120

// Value quotes a user-supplied value for a message: Go's double-quoted
// syntax, with every control, format (bidirectional) and otherwise
// unprintable character and every invalid UTF-8 byte escaped. A value longer
// than MaxValue characters is cut, and the cut says how many bytes were left
// out, so a 5 MB annotation cannot flood a terminal.
func Value(s string) string {
	cut, rest := truncate(s, MaxValue)
	q := strconv.Quote(cut)
	if rest > 0 {
		q += "… (" + strconv.Itoa(rest) + " more bytes)"
	}
	return q
}

// Cut shortens a whole message built from user values to at most n
// characters, saying how much was left out; text that fits is returned as
// is. Prefer Value on each value; Cut is for messages that embed errors
// quoting values raw (CCM's own error texts, which azsvc reproduces).
func Cut(s string, n int) string {
	cut, rest := truncate(s, n)
	if rest == 0 {
		return s
	}
	return cut + "… (" + strconv.Itoa(rest) + " more bytes)"
}

// truncate returns the first n characters of s and how many bytes follow.
func truncate(s string, n int) (string, int) {
	i := 0
	for count := 0; i < len(s) && count < n; count++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i], len(s) - i
}

// Text escapes the unprintable characters of a single-line text (a message,
// a source line) without quoting it: controls including newlines, escape
// sequences, bidirectional overrides and invalid UTF-8 become \n, \x1b,
// \u202e, \xff as in Go string literals. Tabs are kept, so excerpts line up.
// Text that needs no escaping is returned as is, without copying.
func Text(s string) string { return escape(s, false) }

// Lines is Text for multi-line text, such as a wrapped error: newlines are
// kept as well.
func Lines(s string) string { return escape(s, true) }

// Safe reports whether r is shown as itself by Text.
func Safe(r rune) bool {
	return r == '\t' || (r != utf8.RuneError && strconv.IsPrint(r))
}

func escape(s string, keepNewlines bool) string {
	clean := func(i int) bool {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		return Safe(r) || (keepNewlines && r == '\n')
	}
	first := -1
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf && s[i] >= 0x20 && s[i] != 0x7f {
			i++
			continue
		}
		if !clean(i) {
			first = i
			break
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if first < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:first])
	for i := first; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case clean(i):
			b.WriteString(s[i : i+size])
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + hex2(s[i]))
		default:
			q := strconv.QuoteRune(r) // 'x' with Go escapes
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&0xf]})
}
