package diag

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/quote"
	"github.com/azsvc/azsvc/plan/service"
	"github.com/azsvc/azsvc/render/style"
)

// Text writes diagnostics in compiler style, one block per finding:
//
//	deploy/svc.yaml:7:5: error[AZSVC1001]: unknown annotation ...
//	 7 |     service.beta.kubernetes.io/azure-load-balancr-internal: "true"
//	   |     ^
//	   = hint: rename the key to ...
//
// Blocks are separated by a blank line. The source excerpt is omitted when
// the file's bytes are unavailable or the position is past its end.
func Text(w io.Writer, r Report, st style.Style) error {
	bw := bufio.NewWriter(w)
	src := newSourceIndex(r.Sources)
	for i, d := range r.sorted() {
		if i > 0 {
			bw.WriteByte('\n')
		}
		line, ok := src.line(d.Pos.File, d.Pos.Line)
		writeTextDiagnostic(bw, d, line, ok, st)
	}
	return bw.Flush()
}

func writeTextDiagnostic(w *bufio.Writer, d service.Diagnostic, line []byte, haveLine bool, st style.Style) {
	paint := st.Bold
	switch d.Severity {
	case service.SeverityError:
		paint = st.BoldRed
	case service.SeverityWarning:
		paint = st.BoldYellow
	}
	label, plainLabel := paint(string(d.Severity)), string(d.Severity)
	if d.Code != "" {
		label += st.Bold("[" + d.Code + "]")
		plainLabel += "[" + d.Code + "]"
	}
	// A long message goes on indented lines after the first, so no line is
	// wider than style.MaxColumns; the first keeps the compiler form.
	where := diagLocation(d)
	prefix := where + ": " + plainLabel + ": "
	lines := wrapAfter(prefix, quote.Text(d.Message), "    ")
	fmt.Fprintf(w, "%s: %s: %s\n", st.Bold(where), label, st.Bold(lines[0]))
	for _, l := range lines[1:] {
		fmt.Fprintln(w, st.Bold(l))
	}

	gutterWidth := len(strconv.Itoa(d.Pos.Line))
	if haveLine {
		blank := strings.Repeat(" ", gutterWidth)
		text, indent := excerpt(line, d.Pos.Column)
		fmt.Fprintf(w, " %s %s %s\n", st.Blue(strconv.Itoa(d.Pos.Line)), st.Blue("|"), text)
		if d.Pos.Column > 0 {
			fmt.Fprintf(w, " %s %s %s%s\n", blank, st.Blue("|"), indent, paint("^"))
		}
	}
	if d.Hint != "" {
		pad := strings.Repeat(" ", gutterWidth+1)
		lines := wrapAfter(pad+" = ", "hint: "+quote.Text(d.Hint), pad+"   ")
		fmt.Fprintf(w, "%s %s %s\n", pad, st.Blue("="), st.Cyan(lines[0]))
		for _, l := range lines[1:] {
			fmt.Fprintln(w, st.Cyan(l))
		}
	}
}

// wrapAfter wraps text written after prefix to style.MaxColumns: the
// first line returned is what follows prefix, the others start with indent.
func wrapAfter(prefix, text, indent string) []string {
	n := utf8.RuneCountInString(prefix)
	if n >= style.MaxColumns/2 {
		return []string{text} // a pathological file name: keep the compiler form
	}
	lines := style.Wrap(strings.Repeat("x", n)+text, style.MaxColumns, indent)
	lines[0] = string([]rune(lines[0])[n:])
	return lines
}

// location prints a position the way compilers do; a diagnostic about the
// whole input (no file) still gets a recognisable prefix.
func location(p service.Position) string {
	if p.File == "" {
		return "<input>"
	}
	return quote.Text(p.InFile())
}

// diagLocation is where a finding stands: file:line:col, or for a document
// helm template rendered the template first, since that is the file to
// edit, then the object and the place in helm's output:
// "chart/templates/svc.yaml (shop/web, from <stdin>:12:5)".
func diagLocation(d service.Diagnostic) string {
	if d.Pos.Template == "" {
		return location(d.Pos)
	}
	obj := ""
	if d.Service != "" {
		obj = d.Service + ", "
	}
	return quote.Text(d.Pos.Template + " (" + obj + "from " + d.Pos.InFile() + ")")
}
