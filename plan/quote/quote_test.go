package quote

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValue(t *testing.T) {
	tests := []struct{ in, want string }{
		{"web-1", `"web-1"`},
		{"naïve", `"naïve"`},
		{"a\x1b]0;pwned\x07b", `"a\x1b]0;pwned\ab"`},
		{"x\ny", `"x\ny"`},
		{"rtl\u202egnp.exe", `"rtl\u202egnp.exe"`},
		{"bad\xffutf8", `"bad\xffutf8"`},
		{strings.Repeat("a", MaxValue), `"` + strings.Repeat("a", MaxValue) + `"`},
		{strings.Repeat("a", MaxValue+5), `"` + strings.Repeat("a", MaxValue) + `"… (5 more bytes)`},
		{strings.Repeat("é", MaxValue+1), `"` + strings.Repeat("é", MaxValue) + `"… (2 more bytes)`},
	}
	for _, tt := range tests {
		if got := Value(tt.in); got != tt.want {
			t.Errorf("Value(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestCut(t *testing.T) {
	if got := Cut("short", 10); got != "short" {
		t.Errorf("Cut kept %q", got)
	}
	if got := Cut(strings.Repeat("x", 15), 10); got != "xxxxxxxxxx… (5 more bytes)" {
		t.Errorf("Cut = %q", got)
	}
}

func TestText(t *testing.T) {
	tests := []struct{ in, want, lines string }{
		{"plain text, tabs\tkept", "plain text, tabs\tkept", "plain text, tabs\tkept"},
		{"über", "über", "über"},
		{"a\x1b[2Jb", `a\x1b[2Jb`, `a\x1b[2Jb`},
		{"one\ntwo\r", `one\ntwo\r`, "one\ntwo\\r"},
		{"c1 \u009b31m", `c1 \u009b31m`, `c1 \u009b31m`},
		{"del\x7f", `del\x7f`, `del\x7f`},
		{"bidi \u2066x\u2069", `bidi \u2066x\u2069`, `bidi \u2066x\u2069`},
		{"\xc3", `\xc3`, `\xc3`},
	}
	for _, tt := range tests {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if got := Lines(tt.in); got != tt.lines {
			t.Errorf("Lines(%q) = %q, want %q", tt.in, got, tt.lines)
		}
	}
}

// FuzzText: the output of Text and Value never holds a character a terminal
// would act on, and clean input comes back unchanged.
func FuzzText(f *testing.F) {
	f.Add("a\x1b]2;title\x07")
	f.Add("\u202e\xff\n\t")
	f.Fuzz(func(t *testing.T, s string) {
		for _, out := range []string{Text(s), Value(s)} {
			if !utf8.ValidString(out) {
				t.Fatalf("invalid UTF-8 out of %q: %q", s, out)
			}
			for _, r := range out {
				if !Safe(r) {
					t.Fatalf("unsafe %U in %q (from %q)", r, out, s)
				}
			}
		}
		clean := true
		for _, r := range s {
			clean = clean && Safe(r)
		}
		if clean && utf8.ValidString(s) && Text(s) != s {
			t.Fatalf("Text changed clean %q to %q", s, Text(s))
		}
	})
}
