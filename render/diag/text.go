package diag

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

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
	label := paint(string(d.Severity))
	if d.Code != "" {
		label += st.Bold("[" + d.Code + "]")
	}
	fmt.Fprintf(w, "%s: %s: %s\n", st.Bold(location(d.Pos)), label, st.Bold(quote.Text(d.Message)))

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
		fmt.Fprintf(w, "%s %s %s\n", strings.Repeat(" ", gutterWidth+1), st.Blue("="), st.Cyan("hint: "+quote.Text(d.Hint)))
	}
}

// location prints a position the way compilers do; a diagnostic about the
// whole input (no file) still gets a recognisable prefix.
func location(p service.Position) string {
	if p.File == "" {
		return "<input>"
	}
	return quote.Text(p.String())
}
