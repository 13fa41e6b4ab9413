package yamlfast

import (
	"strings"
	"unicode/utf8"
)

// line is a line that holds content (not blank, not only a comment).
type line struct {
	text   string // without the line break
	num    int    // 1-based line number in the document
	indent int    // leading spaces
	ascii  bool   // byte offsets are columns
}

// split cuts src into content lines, checking every character on the way.
// explicit reports a leading "---" line. ok is false for anything outside
// the subset at the character level: tabs, control characters, a carriage
// return not before a line feed, invalid UTF-8, characters yaml.v3 treats
// as line breaks or byte order marks, directives and document markers.
func (p *Parser) split(src string) (explicit, ok bool) {
	p.lines, p.estimate = p.lines[:0], 2 // the document and its root
	for num := 1; src != ""; num++ {
		text := src
		if nl := strings.IndexByte(src, '\n'); nl >= 0 {
			text, src = src[:nl], src[nl+1:]
		} else {
			src = ""
		}
		text = strings.TrimSuffix(text, "\r")
		ascii, valid := checkChars(text)
		if !valid {
			return false, false
		}
		indent := 0
		for indent < len(text) && text[indent] == ' ' {
			indent++
		}
		if indent == len(text) || text[indent] == '#' {
			continue // blank or a comment
		}
		if indent == 0 && (text[0] == '%' || strings.HasPrefix(text, "---") || strings.HasPrefix(text, "...")) {
			if num != 1 || !isStartLine(text) {
				return false, false
			}
			explicit = true
			continue
		}
		p.lines = append(p.lines, line{text: text, num: num, indent: indent, ascii: ascii})
		p.estimate += 2 // a key and its value, or an item and its collection
		if text[indent] == '-' {
			p.estimate++ // "- name: x" adds the mapping
		}
	}
	return explicit, true
}

// isStartLine reports a "---" line with nothing but a comment after it.
func isStartLine(text string) bool {
	if !strings.HasPrefix(text, "---") {
		return false
	}
	if len(text) == 3 {
		return true
	}
	rest := skipSpaces(text, 3)
	return text[3] == ' ' && (rest == len(text) || text[rest] == '#')
}

// checkChars accepts printable ASCII and the non-ASCII characters yaml.v3
// reads as ordinary printable ones.
func checkChars(text string) (ascii, ok bool) {
	ascii = true
	for i := 0; i < len(text); {
		b := text[i]
		if b >= 0x20 && b < 0x7f {
			i++
			continue
		}
		if b < 0x80 {
			return false, false // a tab, a control character, DEL or a lone CR
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if !ordinaryRune(r) || r == utf8.RuneError && size == 1 {
			return false, false
		}
		ascii = false
		i += size
	}
	return ascii, true
}

// ordinaryRune excludes NEL, the line and paragraph separators (breaks in
// YAML 1.1) and the byte order mark, which yaml.v3 skips at a line start.
func ordinaryRune(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= utf8.MaxRune:
		return true
	}
	return false
}

// column is the 1-based column of byte i of ln: yaml.v3 counts characters.
func (ln *line) column(i int) int {
	if ln.ascii {
		return i + 1
	}
	return utf8.RuneCountInString(ln.text[:i]) + 1
}

func skipSpaces(text string, i int) int {
	for i < len(text) && text[i] == ' ' {
		i++
	}
	return i
}

// restIsComment reports that after byte i the line holds only spaces and,
// after at least one of them, a comment.
func restIsComment(text string, i int) bool {
	j := skipSpaces(text, i)
	return j == len(text) || j > i && text[j] == '#'
}
