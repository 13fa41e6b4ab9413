package planview

import (
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/render/style"
)

// terminalSafe escapes what a plan's text would otherwise pass raw to the
// terminal from names, paths and values: escape sequences (an OSC title,
// a screen clear), C1 controls (CSI as \x9b), a bare CR that fakes a line,
// bidirectional overrides, invalid UTF-8. They are shown as validate
// shows them (quote.Lines: \x1b, \u009b, \r); newlines and tabs stay. The
// colour sequences st writes itself are kept, and only those.
func terminalSafe(s string, st style.Style) string {
	if !st.Enabled() {
		return quote.Lines(s)
	}
	own := styleSequences(st)
	var b strings.Builder
	for {
		i := strings.IndexByte(s, 0x1b)
		if i < 0 {
			b.WriteString(quote.Lines(s))
			return b.String()
		}
		b.WriteString(quote.Lines(s[:i]))
		s = s[i:]
		n := ownSequence(s, own)
		if n == 0 {
			b.WriteString(quote.Lines(s[:1]))
			s = s[1:]
			continue
		}
		b.WriteString(s[:n])
		s = s[n:]
	}
}

// ownSequence is the length of the sequence of own that s starts with, or 0.
func ownSequence(s string, own []string) int {
	for _, seq := range own {
		if strings.HasPrefix(s, seq) {
			return len(seq)
		}
	}
	return 0
}

// styleSequences are the escape sequences st writes: each style's opening
// one and the reset, taken from st itself so they cannot drift apart.
func styleSequences(st style.Style) []string {
	var out []string
	for _, f := range []func(string) string{st.Bold, st.Dim, st.Red, st.Green, st.Yellow, st.Blue, st.Cyan, st.BoldRed, st.BoldYellow} {
		open, reset, _ := strings.Cut(f("x"), "x")
		out = append(out, open, reset)
	}
	return out
}

// escapeInline is escapeText for markdown text outside code spans: a
// backtick in a name cannot open a code span there.
func escapeInline(s string) string { return strings.ReplaceAll(escapeText(s), "`", "\\`") }
