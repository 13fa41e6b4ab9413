package yamlfast

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// scalar makes a scalar node for value, which starts at byte i of ln. A
// plain scalar's tag is what yaml.v3 resolves it to (plainTag); a quoted
// one is a string.
func (p *Parser) scalar(value string, style yaml.Style, ln *line, i int) *yaml.Node {
	n := p.node(yaml.ScalarNode, "!!str", ln.num, ln.column(i))
	n.Value, n.Style = value, style
	if style == 0 {
		n.Tag = plainTag(value)
	}
	return n
}

// plain parses a plain scalar at byte i of ln in the block context and
// returns it with the offset after its last character. A key ends at ':'
// followed by a space or the line end; a value must not hold one (yaml.v3:
// "mapping values are not allowed in this context").
func (p *Parser) plain(ln *line, i int, key bool) (*yaml.Node, int) {
	text := ln.text
	if !plainStart(text, i) {
		return nil, 0
	}
	end := i
	for j := i; j < len(text); j++ {
		switch text[j] {
		case ' ':
			if j+1 < len(text) && text[j+1] == '#' {
				if key {
					return nil, 0
				}
				return p.scalar(text[i:end], 0, ln, i), end
			}
			continue
		case ':':
			if blankAt(text, j+1) {
				if !key {
					return nil, 0
				}
				return p.scalar(text[i:end], 0, ln, i), end
			}
		}
		end = j + 1
	}
	if key {
		return nil, 0
	}
	return p.scalar(text[i:end], 0, ln, i), end
}

// plainStart reports that a plain scalar may start at byte i. yaml.v3 also
// starts one at '?' or ':' followed by a non-space; those are left to it.
func plainStart(text string, i int) bool {
	switch text[i] {
	case '-':
		return i+1 < len(text) && text[i+1] != ' '
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	}
	return true
}

// singleQuoted parses a single-quoted scalar at byte i of ln that closes on
// the same line, and returns it with the offset after the closing quote.
func (p *Parser) singleQuoted(ln *line, i int) (*yaml.Node, int) {
	text := ln.text
	end := quotedEnd(text, i)
	if end < 0 {
		return nil, 0
	}
	value := text[i+1 : end-1]
	if strings.Contains(value, "''") {
		value = strings.ReplaceAll(value, "''", "'")
	}
	return p.scalar(value, yaml.SingleQuotedStyle, ln, i), end
}

// doubleQuoted parses a double-quoted scalar at byte i of ln that closes on
// the same line, with yaml.v3's escapes, and returns it with the offset
// after the closing quote.
func (p *Parser) doubleQuoted(ln *line, i int) (*yaml.Node, int) {
	text := ln.text
	j := i + 1
	for j < len(text) && text[j] != '"' && text[j] != '\\' {
		j++
	}
	if j == len(text) {
		return nil, 0 // continues on the next line
	}
	if text[j] == '"' {
		return p.scalar(text[i+1:j], yaml.DoubleQuotedStyle, ln, i), j + 1
	}
	buf := []byte(text[i+1 : j])
	for j < len(text) && text[j] != '"' {
		if text[j] != '\\' {
			buf = append(buf, text[j])
			j++
			continue
		}
		var ok bool
		if buf, j, ok = unescape(buf, text, j); !ok {
			return nil, 0
		}
	}
	if j == len(text) {
		return nil, 0
	}
	return p.scalar(string(buf), yaml.DoubleQuotedStyle, ln, i), j + 1
}

// simpleEscapes maps the character after a backslash to what it stands for.
var simpleEscapes = [256]string{
	'0': "\x00", 'a': "\x07", 'b': "\x08", 't': "\x09", 'n': "\x0a", 'v': "\x0b", 'f': "\x0c",
	'r': "\x0d", 'e': "\x1b", ' ': " ", '"': "\"", '\'': "'", '\\': "\\",
	'N': "\u0085", '_': "\u00a0", 'L': "\u2028", 'P': "\u2029",
}

// unescape appends the escape sequence at byte j of text (a backslash) to
// buf, as yaml.v3's scanner does, and returns the offset after it. A
// backslash at the line end (a line continuation) is not accepted.
func unescape(buf []byte, text string, j int) ([]byte, int, bool) {
	if j+1 >= len(text) {
		return buf, j, false
	}
	c := text[j+1]
	if s := simpleEscapes[c]; s != "" {
		return append(buf, s...), j + 2, true
	}
	digits := hexEscapes[c]
	if digits == 0 || j+2+digits > len(text) {
		return buf, j, false
	}
	value := 0
	for _, h := range []byte(text[j+2 : j+2+digits]) {
		d, ok := hexDigit(h)
		if !ok {
			return buf, j, false
		}
		value = value<<4 + d
	}
	if value >= 0xd800 && value <= 0xdfff || value > utf8.MaxRune {
		return buf, j, false
	}
	if value <= 0x7f {
		buf = append(buf, byte(value))
	} else {
		buf = utf8.AppendRune(buf, rune(value))
	}
	return buf, j + 2 + digits, true
}

// hexEscapes is the number of hex digits after \x, \u and \U.
var hexEscapes = [256]int{'x': 2, 'u': 4, 'U': 8}

func hexDigit(h byte) (int, bool) {
	switch {
	case h >= '0' && h <= '9':
		return int(h - '0'), true
	case h >= 'a' && h <= 'f':
		return int(h-'a') + 10, true
	case h >= 'A' && h <= 'F':
		return int(h-'A') + 10, true
	}
	return 0, false
}
