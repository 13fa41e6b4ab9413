package diag

import (
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/quote"
)

// excerptWidth is the most columns of a source line a diagnostic quotes:
// generated manifests can hold lines of megabytes (one-line JSON, a huge
// annotation value), and a finding must stay readable.
const excerptWidth = 200

// ellipsis marks where an excerpt was cut.
const ellipsis = "…"

// excerpt returns the part of a source line to show, escaped (quote.Text),
// at most excerptWidth columns wide and centred on the 1-based column when
// the line is longer, and the whitespace that puts a caret under that
// column. Tabs are kept so the caret lines up however the terminal expands
// them; a column past the end of the line puts the caret just after its
// last character. Columns count characters, as the YAML parser does, and
// an escaped character as wide as its escape.
func excerpt(line []byte, column int) (text, caret string) {
	at := caretOffset(line, column)
	start, end := window(line, at)
	var b, c strings.Builder
	if start > 0 {
		b.WriteString(ellipsis)
		c.WriteByte(' ')
	}
	for off := start; off < end; {
		_, size := utf8.DecodeRune(line[off:])
		shown := quote.Text(string(line[off : off+size]))
		b.WriteString(shown)
		if off < at {
			if shown == "\t" {
				c.WriteByte('\t')
			} else {
				c.WriteString(strings.Repeat(" ", utf8.RuneCountInString(shown)))
			}
		}
		off += size
	}
	if end < len(line) {
		b.WriteString(ellipsis)
	}
	return b.String(), c.String()
}

// caretOffset is the byte offset of the 1-based character column, or the
// line's length when the column lies past its end (or is unknown).
func caretOffset(line []byte, column int) int {
	off := 0
	for c := 1; c < column && off < len(line); c++ {
		_, size := utf8.DecodeRune(line[off:])
		off += size
	}
	if column < 1 {
		return len(line)
	}
	return off
}

// window picks the byte range [start, end) of line to show: all of it when
// it fits, else excerptWidth columns with the caret offset at in the middle,
// or as far from the middle as the line's ends require.
func window(line []byte, at int) (start, end int) {
	if len(line) <= excerptWidth/4 || width(line) <= excerptWidth {
		return 0, len(line)
	}
	budget := excerptWidth - 2 // room for the two ellipses
	start = at
	for used := 0; start > 0; {
		_, size := utf8.DecodeLastRune(line[:start])
		w := width(line[start-size : start])
		if used+w > budget/2 {
			break
		}
		used += w
		start -= size
	}
	end = start
	used := 0
	for end < len(line) {
		_, size := utf8.DecodeRune(line[end:])
		w := width(line[end : end+size])
		if used+w > budget {
			break
		}
		used += w
		end += size
	}
	for start > 0 { // near the end of the line: fill the rest on the left
		_, size := utf8.DecodeLastRune(line[:start])
		w := width(line[start-size : start])
		if used+w > budget {
			break
		}
		used += w
		start -= size
	}
	return start, end
}

// width is how many columns text takes once escaped; it stops counting
// past excerptWidth, so measuring a huge line is cheap.
func width(text []byte) int {
	n := 0
	for off := 0; off < len(text) && n <= excerptWidth; {
		_, size := utf8.DecodeRune(text[off:])
		n += utf8.RuneCountInString(quote.Text(string(text[off : off+size])))
		off += size
	}
	return n
}
