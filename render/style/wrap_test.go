package style

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestWrap(t *testing.T) {
	tests := []struct {
		text   string
		width  int
		indent string
		want   []string
	}{
		{"short enough", 20, "  ", []string{"short enough"}},
		{"one two three four five", 10, "  ", []string{"one two", "  three", "  four", "  five"}},
		{"a " + strings.Repeat("x", 12), 8, "..", []string{"a", "..xxxxxx", "..xxxxxx"}},
		{"café crème brûlée", 11, "", []string{"café crème", "brûlée"}},
	}
	for _, tt := range tests {
		got := Wrap(tt.text, tt.width, tt.indent)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Wrap(%q, %d) = %q, want %q", tt.text, tt.width, got, tt.want)
		}
		for _, l := range got {
			if utf8.RuneCountInString(l) > tt.width {
				t.Errorf("line %q over %d", l, tt.width)
			}
		}
	}
}

// FuzzWrap: no line is over the width, and nothing but spaces is lost or
// added.
func FuzzWrap(f *testing.F) {
	f.Add("one two three", 5, uint8(2))
	f.Fuzz(func(t *testing.T, text string, width int, indent uint8) {
		pad := strings.Repeat(" ", int(indent))
		if width < 1 || width > 500 || int(indent) >= width || !utf8.ValidString(text) {
			return
		}
		lines := Wrap(text, width, pad)
		for _, l := range lines {
			if utf8.RuneCountInString(l) > width {
				t.Fatalf("line %q over %d", l, width)
			}
		}
		if squeeze(strings.Join(lines, "")) != squeeze(text) {
			t.Fatalf("wrap changed the text: %q -> %q", text, lines)
		}
	})
}

func squeeze(s string) string { return strings.ReplaceAll(s, " ", "") }
