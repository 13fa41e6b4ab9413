package style

import (
	"strings"
	"unicode/utf8"
)

// MaxColumns is the widest line azsvc prints (issue 16): plans are read
// in terminals and pull requests.
const MaxColumns = 200

// Width is how wide renderers let a line of prose get before they wrap
// it: under MaxColumns, leaving room for indentation and markup.
const Width = 160

// Wrap breaks text at spaces into lines of at most width characters, the
// second and later lines starting with indent (which counts towards the
// width). A word longer than a line is cut. The first line is returned
// without indent: the caller has already written its prefix into text.
func Wrap(text string, width int, indent string) []string {
	if utf8.RuneCountInString(text) <= width {
		return []string{text}
	}
	var lines []string
	line, n, content := "", 0, false
	flush := func() {
		lines = append(lines, line)
		line, n, content = indent, utf8.RuneCountInString(indent), false
	}
	for _, word := range strings.Split(text, " ") {
		w := utf8.RuneCountInString(word)
		if content {
			if n+1+w <= width {
				line += " "
				n++
			} else {
				flush()
			}
		}
		for w > width-n && width > n {
			r := []rune(word)
			cut := width - n
			line += string(r[:cut])
			flush()
			word, w = string(r[cut:]), w-cut
		}
		line += word
		n += w
		content = true
	}
	return append(lines, line)
}
