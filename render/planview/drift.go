package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// Drift is only what azsvc can know (issue 16 "honest labels"): given the
// saved plan it made last (plan --since), an owned resource that ARM now
// holds differently from what that plan recorded was changed outside
// azsvc. Without such a record nothing is called drift: a resource that
// differs from the Services may have been edited in the manifests or in
// Azure, and the plan says only that it differs.

// driftedKeys are the resources changed outside azsvc since the recorded
// plan.
func driftedKeys(p *plan.Plan) map[plan.Key]bool {
	out := make(map[plan.Key]bool, len(p.Drift))
	for _, c := range p.Drift {
		out[c.Key()] = true
	}
	return out
}

// driftTitle heads the drift section.
func driftTitle(since string) string {
	return "Drift: changed outside azsvc since " + since
}

// noDriftText says that the record and Azure agree.
func noDriftText(since string) string {
	return "No drift: Azure holds what " + since + " planned to write."
}

// driftLegend explains the attribute lines of the drift section.
const driftLegend = "(what azsvc planned to write -> what Azure holds now)"

// driftLines are the lines of one drifted resource, without indentation:
// what changed, or that it was deleted.
func driftLines(c *plan.Change) []displayLine {
	if c.After == nil {
		return []displayLine{{markNote, "# deleted outside azsvc"}}
	}
	var out []displayLine
	for _, a := range c.Attributes {
		out = append(out, changedAttr(displayPath(a.Path), a.Before, a.After, false).lines()...)
	}
	return out
}

func writeDrift(w *bufio.Writer, in Input, st style.Style) {
	if in.Since == "" {
		return
	}
	drift := in.Plan.Drift
	if len(drift) == 0 {
		fmt.Fprintf(w, "\n%s\n", noDriftText(in.Since))
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldYellow(driftTitle(in.Since)+":"))
	fmt.Fprintln(w, st.Dim(driftLegend))
	for _, c := range drift {
		sym := symbol(c.Actions)
		fmt.Fprintf(w, "  %s %s\n", colour(st, sym, fmt.Sprintf("%-3s", sym)), c.ID().Shown())
		for _, l := range driftLines(c) {
			text := l.text
			if l.mark == markNote {
				text = st.Dim(text)
			}
			fmt.Fprintf(w, "      %s\n", text)
		}
	}
	fmt.Fprintln(w, st.Dim(strings.Repeat("─", 72)))
}
