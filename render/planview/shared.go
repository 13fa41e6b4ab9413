package planview

import (
	"bufio"
	"io"

	"github.com/azsvc/azsvc/render/style"
)

// What other views (render/statusview) share with the plan, so that azsvc
// status opens, orders and counts as the plan does.

// WriteHeader writes the header naming the target, as the text plan opens.
func WriteHeader(w io.Writer, h Header) error {
	bw := bufio.NewWriter(w)
	writeHeader(bw, h, style.Style{})
	return bw.Flush()
}

// NaturalLess is the order Services are listed in: runs of digits compare
// as numbers, so svc-2 comes before svc-10.
func NaturalLess(a, b string) bool { return naturalLess(a, b) }

// Count writes n with its noun in the right number: "1 change", "2
// changes", "1,200 changes".
func Count(n int, one, many string) string { return count(n, one, many) }

// TerminalSafe escapes what text would otherwise pass raw to a terminal,
// keeping the colour sequences st writes itself (terminalSafe).
func TerminalSafe(s string, st style.Style) string { return terminalSafe(s, st) }

// Counts words the changes counted, "2 to create, 1 to replace", as the
// plan's groups do.
func (s Summary) Counts() string { return s.counts() }
