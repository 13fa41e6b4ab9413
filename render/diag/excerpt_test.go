package diag

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

func TestExcerpt(t *testing.T) {
	long := strings.Repeat("abcdefghij", 100) // 1,000 columns
	tests := []struct {
		name        string
		line        string
		column      int
		text, caret string
	}{
		{"short", "  port: 80", 9, "  port: 80", "        "},
		{"tab kept", "\tx: y", 2, "\tx: y", "\t"},
		{"past the end", "ab", 9, "ab", "  "},
		{"unknown column", "ab", 0, "ab", "  "},
		{"escape sequence", "x: \"\x1b]0;pwned\x07\"", 5, `x: "\x1b]0;pwned\a"`, "    "},
		{"after an escape", "\x1b[2Jy", 5, `\x1b[2Jy`, "       "},
		{"bidi override", "a\u202eb", 3, `a\u202eb`, "       "},
		{"invalid UTF-8", "a\xffb", 3, `a\xffb`, "     "},
		{"long, caret at start", long, 1, long[:198] + "…", ""},
		{"long, caret in the middle", long, 501, "…" + long[401:599] + "…", strings.Repeat(" ", 100)},
		{"long, caret at the end", long, 1000, "…" + long[802:], strings.Repeat(" ", 198)},
	}
	for _, tt := range tests {
		text, caret := excerpt([]byte(tt.line), tt.column)
		if text != tt.text || caret != tt.caret {
			t.Errorf("%s:\n got %q\n     %q\nwant %q\n     %q", tt.name, text, caret, tt.text, tt.caret)
		}
		if w := utf8.RuneCountInString(text); w > excerptWidth {
			t.Errorf("%s: excerpt is %d columns", tt.name, w)
		}
	}
}

// TestTextEscapesUserInput: nothing from the input reaches the terminal
// raw: not the file name, the message, the hint or the source line, and a
// 1 MB line is quoted in 200 columns.
func TestTextEscapesUserInput(t *testing.T) {
	evil := "\x1b]0;retitled\x07\x1b[2J"
	file := "deploy/" + evil + ".yaml"
	src := "metadata:\n  name: " + evil + strings.Repeat("x", 1<<20) + "\n"
	r := Report{
		Sources: map[string][]byte{file: []byte(src)},
		Diagnostics: []service.Diagnostic{{
			Code: "AZSVC1001", Severity: service.SeverityError,
			Pos:     service.Position{File: file, Line: 2, Column: 9},
			Message: "bad name " + evil, Hint: "rename " + evil,
		}},
	}
	var buf bytes.Buffer
	if err := Text(&buf, r, style.New(false)); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.ContainsAny(out, "\x1b\x07") {
		t.Errorf("raw control characters in %q", out)
	}
	if buf.Len() > 2000 {
		t.Errorf("%d bytes of output for one finding", buf.Len())
	}
	if want := "deploy/" + quote.Text(evil) + ".yaml:2:9: error[AZSVC1001]: bad name " + quote.Text(evil); !strings.HasPrefix(out, want) {
		t.Errorf("got %q\nwant prefix %q", out, want)
	}
}
