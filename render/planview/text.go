package planview

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/diag"
	"github.com/azsvc/azsvc/render/style"
)

// Text writes the human plan (ux-anchors §8.2): header, validation
// findings, drift, legend, changes grouped by Service, blocked changes,
// disruptive changes, limits and the summary line.
func Text(w io.Writer, in Input, st style.Style) error {
	bw := bufio.NewWriter(w)
	p := in.Plan
	writeHeader(bw, in.Header, st)
	if len(in.Diagnostics) > 0 {
		bw.WriteString("\n")
		if err := diag.Text(bw, diag.Report{Diagnostics: in.Diagnostics, Sources: in.FileContents}, st); err != nil {
			return fmt.Errorf("render diagnostics: %w", err)
		}
		if hasErrors(in.Diagnostics) {
			fmt.Fprintln(bw, st.BoldRed("The plan below is not applyable: fix the errors above first."))
		}
	}
	if len(p.Drift) > 0 {
		writeDrift(bw, p.Drift, st)
	}
	if len(p.Changes) > 0 {
		writeLegend(bw, p.Changes, st)
		for _, g := range groups(p.Changes) {
			writeGroup(bw, g, in.Sources, st)
		}
	}
	writeChains(bw, Chains(p), st)
	writeBlocked(bw, p.Blocked, st)
	writeAwaiting(bw, p.Awaiting, st)
	writeDisruptive(bw, p.Changes, st)
	writeLimits(bw, p.Limits, st)
	fmt.Fprintf(bw, "\n%s\n", st.Bold(Summarize(p).Line()))
	if est := estimateApply(p); est != nil {
		fmt.Fprintln(bw, est.Sentence())
	}
	writeRefused(bw, p.Refused, st)
	return bw.Flush()
}

func writeHeader(w *bufio.Writer, h Header, st style.Style) {
	fields := []struct{ label, value string }{
		{"Target", h.Target}, {"Tenant", h.Tenant}, {"Subscription", h.Subscription},
		{"Resource group", h.ResourceGroup}, {"Cluster", h.Cluster}, {"Location", h.Location},
		{"LB SKU", h.LBSKU}, {"Input", h.Source},
	}
	for _, f := range fields {
		if f.value != "" {
			fmt.Fprintf(w, "%-15s %s\n", f.label+":", f.value)
		}
	}
}

func writeDrift(w *bufio.Writer, drift []*plan.Change, st style.Style) {
	fmt.Fprintf(w, "\n%s\n", st.Bold("Drift: owned resources differ from what the Services want"))
	fmt.Fprintln(w, st.Dim("(azsvc keeps no prior state, so an edit made in Azure and a Service change look the same; apply puts them back)"))
	for _, c := range drift {
		sym := symbol(c.Actions)
		fmt.Fprintf(w, "  %s %s\n", colour(st, sym, sym), c.ID().Address())
		for _, a := range c.Attributes {
			fmt.Fprintf(w, "      %s: %s -> %s\n", displayPath(a.Path), formatValue(a.Before), formatValue(a.After))
		}
	}
	fmt.Fprintln(w, st.Dim(strings.Repeat("─", 72)))
}

func writeLegend(w *bufio.Writer, changes []*plan.Change, st style.Style) {
	fmt.Fprintf(w, "\nazsvc will perform these actions, in this order within each Service:\n")
	for _, s := range usedSymbols(changes) {
		fmt.Fprintf(w, "  %s %s\n", colour(st, s, fmt.Sprintf("%-3s", s)), legendText[s])
	}
}

func writeGroup(w *bufio.Writer, g group, sources map[string]string, st style.Style) {
	header := "# " + groupTitle(g.name)
	if src := sources[g.name]; src != "" {
		header += " (" + src + ")"
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold(header))
	for _, c := range g.changes {
		sym := symbol(c.Actions)
		fmt.Fprintf(w, "  %s %s\n", colour(st, sym, fmt.Sprintf("%-3s", sym)), st.Bold(c.ID().Address()))
		fmt.Fprintf(w, "      %s\n", st.Dim("# "+reasonText(c)))
		if note := servicesNote(c.Services); note != "" {
			fmt.Fprintf(w, "      %s\n", st.Dim("# "+note))
		}
		lines, hidden := attributes(c)
		for _, a := range lines {
			fmt.Fprintf(w, "      %s\n", a)
		}
		if hidden > 0 {
			fmt.Fprintf(w, "      %s\n", st.Dim(fmt.Sprintf("# (%d unchanged attributes hidden)", hidden)))
		}
	}
}

func reasonText(c *plan.Change) string {
	if c.Reason == plan.ReasonNone {
		return "no reason recorded"
	}
	return c.Reason.String()
}

func writeBlocked(w *bufio.Writer, blocked []plan.Blocked, st style.Style) {
	if len(blocked) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldYellow("Blocked (azsvc will not do these):"))
	for _, b := range blocked {
		fmt.Fprintf(w, "  ! %s: %s\n", b.Address, BlockedText(b))
	}
}

func writeChains(w *bufio.Writer, chains []Chain, st style.Style) {
	if len(chains) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold("Private Link (Service → frontend → private link service → private endpoint → DNS):"))
	for _, ch := range chains {
		fmt.Fprintf(w, "  %s\n", ch.Line())
	}
}

func writeAwaiting(w *bufio.Writer, awaiting []plan.Awaiting, st style.Style) {
	if len(awaiting) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldYellow("Awaiting approval by the PLS owner (apply succeeds; traffic flows once approved):"))
	for _, a := range awaiting {
		fmt.Fprintf(w, "  … %s: %s\n", a.Address, AwaitingText(a))
	}
}

func writeDisruptive(w *bufio.Writer, changes []*plan.Change, st style.Style) {
	var lines []string
	for _, c := range changes {
		if !c.Disruptive {
			continue
		}
		for _, imp := range Impact(c) {
			lines = append(lines, fmt.Sprintf("  %s %s: %s", symbol(c.Actions), c.ID().Address(), imp))
		}
	}
	if len(lines) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldRed("Disruptive changes:"))
	for _, l := range lines {
		fmt.Fprintln(w, st.Red(l))
	}
}

func writeLimits(w *bufio.Writer, limits []plan.Limit, st style.Style) {
	if len(limits) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldYellow("Limits above 80% after apply:"))
	for _, l := range limits {
		fmt.Fprintf(w, "  %s %s: %d/%d\n", l.Name, l.Scope, l.Used, l.Max)
	}
}

func colour(st style.Style, sym, text string) string {
	switch sym {
	case "+":
		return st.Green(text)
	case "~", ">":
		return st.Yellow(text)
	case "-", "-/+", "+/-":
		return st.Red(text)
	}
	return text
}
