package diag

import (
	"bytes"
	"unicode/utf8"
)

// sourceIndex finds lines in the input files. It indexes each file's line
// starts once, so quoting thousands of findings in one large generated file
// stays linear.
type sourceIndex struct {
	sources map[string][]byte
	starts  map[string][]int
}

func newSourceIndex(sources map[string][]byte) *sourceIndex {
	return &sourceIndex{sources: sources, starts: map[string][]int{}}
}

// lineStarts returns the byte offset of every line of file.
func (x *sourceIndex) lineStarts(file string) []int {
	if s, ok := x.starts[file]; ok {
		return s
	}
	src := x.sources[file]
	starts := []int{0}
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		starts = append(starts, off)
	}
	x.starts[file] = starts
	return starts
}

// line returns the 1-based line n of file without its line ending; false
// when the file is unknown or has no such line (the empty remainder after
// a final newline is not a line). It shares the file's bytes: a line may be
// megabytes long, and only a window of it is ever shown.
func (x *sourceIndex) line(file string, n int) ([]byte, bool) {
	src, ok := x.sources[file]
	if !ok || n < 1 {
		return nil, false
	}
	starts := x.lineStarts(file)
	if n > len(starts) {
		return nil, false
	}
	start, end := starts[n-1], len(src)
	if n < len(starts) {
		end = starts[n] - 1
	} else if start == len(src) {
		return nil, false
	}
	return bytes.TrimRight(src[start:end], "\r"), true
}

// offset converts a 1-based line and character column into a 0-based byte
// offset, as Terraform's ranges carry it; false when the position is not
// inside the file.
func (x *sourceIndex) offset(file string, line, column int) (int, bool) {
	if _, ok := x.sources[file]; ok && column == 1 && line == len(x.lineStarts(file)) {
		// The start of the last line, or the end of a file that ends in a
		// newline, where parsers report "unexpected end of input".
		return x.lineStarts(file)[line-1], true
	}
	text, ok := x.line(file, line)
	if !ok || column < 1 {
		return 0, false
	}
	off := 0
	for c := 1; c < column; c++ {
		if off >= len(text) {
			return 0, false
		}
		_, size := utf8.DecodeRune(text[off:])
		off += size
	}
	if off > len(text) {
		return 0, false
	}
	return x.lineStarts(file)[line-1] + off, true
}
