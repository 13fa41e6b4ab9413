// Package style decides whether output is coloured and wraps text in ANSI
// escape sequences when it is. Every renderer takes a Style value, so the
// decision is made once, in the CLI, and renderers stay pure.
package style

// Style wraps text in ANSI colours, or returns it unchanged when disabled.
// The zero value is disabled.
type Style struct {
	enabled bool
}

// New returns a Style that colours text when enabled is true.
func New(enabled bool) Style { return Style{enabled: enabled} }

// Enabled reports whether s emits escape sequences.
func (s Style) Enabled() bool { return s.enabled }

const (
	codeBold   = "1"
	codeDim    = "2"
	codeRed    = "31"
	codeGreen  = "32"
	codeYellow = "33"
	codeBlue   = "34"
	codeCyan   = "36"
)

func (s Style) wrap(code, text string) string {
	if !s.enabled || text == "" {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// Bold makes text bold.
func (s Style) Bold(text string) string { return s.wrap(codeBold, text) }

// Dim makes text faint, for secondary detail such as line-number gutters.
func (s Style) Dim(text string) string { return s.wrap(codeDim, text) }

// Red colours text red: errors and deletions.
func (s Style) Red(text string) string { return s.wrap(codeRed, text) }

// Green colours text green: creations and success.
func (s Style) Green(text string) string { return s.wrap(codeGreen, text) }

// Yellow colours text yellow: warnings and updates.
func (s Style) Yellow(text string) string { return s.wrap(codeYellow, text) }

// Blue colours text blue: locations and gutters.
func (s Style) Blue(text string) string { return s.wrap(codeBlue, text) }

// Cyan colours text cyan: hints.
func (s Style) Cyan(text string) string { return s.wrap(codeCyan, text) }

// BoldRed is Red and Bold together, the form error labels use.
func (s Style) BoldRed(text string) string { return s.wrap(codeBold+";"+codeRed, text) }

// BoldYellow is Yellow and Bold together, the form warning labels use.
func (s Style) BoldYellow(text string) string { return s.wrap(codeBold+";"+codeYellow, text) }
