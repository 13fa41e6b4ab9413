package planview

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/exposure"
	"github.com/azsvc/azsvc/render/diag"
	"github.com/azsvc/azsvc/render/style"
)

// Text writes the human plan (ux-anchors §8.2): header, validation
// findings, drift, legend, changes grouped by Service, blocked changes,
// disruptive changes, limits and the summary line.
func Text(w io.Writer, in Input, st style.Style) error {
	var out strings.Builder // escaped whole by terminalSafe
	bw := bufio.NewWriter(&out)
	p := in.Plan
	writeHeader(bw, in.Header, st)
	writeWrites(bw, in)
	writeExposure(bw, exposure.Of(p), removedByPrefix(p.Removed), st)
	if len(in.Diagnostics) > 0 {
		bw.WriteString("\n")
		if err := diag.Text(bw, diag.Report{Diagnostics: in.Diagnostics, Sources: in.FileContents}, st); err != nil {
			return fmt.Errorf("render diagnostics: %w", err)
		}
		if hasErrors(in.Diagnostics) {
			fmt.Fprintln(bw, st.BoldRed("The plan below is not applyable: fix the errors above first."))
		}
	}
	writeAdopted(bw, p.Adopted, st)
	writeAdoptedPorts(bw, p.AdoptedPorts, st)
	writeDrift(bw, in, st)
	if len(p.Changes) > 0 {
		writeLegend(bw, p.Changes, st)
		drifted := driftedKeys(p)
		for _, g := range groupsOf(p) {
			writeGroup(bw, g, in, drifted, st)
		}
	}
	writeChains(bw, Chains(p), st)
	writeBlocked(bw, p.Blocked, st)
	writeAwaiting(bw, p.Awaiting, st)
	writeMembership(bw, p.Membership, st)
	writeDisruptive(bw, p.Changes, st)
	writeLimits(bw, p.Limits, st)
	writeUnresolved(bw, p.Unresolved, st)
	sum := Summarize(p)
	sum.inputErrors = hasErrors(in.Diagnostics)
	fmt.Fprintf(bw, "\n%s\n", st.Bold(sum.Line()))
	if est := estimateApply(p); est != nil {
		fmt.Fprintln(bw, est.Sentence())
	}
	writeRefused(bw, p.Refused, st)
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, terminalSafe(out.String(), st))
	return err
}

func writeHeader(w *bufio.Writer, h Header, st style.Style) {
	fields := []struct{ label, value string }{
		{"Target", h.Target}, {"Tenant", h.Tenant}, {"Subscription", h.Subscription},
		{"Resource group", h.ResourceGroup}, {"Cluster", h.Cluster}, {"Location", h.Location},
		{"LB SKU", h.LBSKU}, {"Input", h.Source}, {"Base", h.Base}, {"Focus", h.Focus}, {"Settings", strings.Join(h.Settings, "; ")},
	}
	for _, f := range fields {
		if f.value != "" {
			for _, l := range style.Wrap(fmt.Sprintf("%-15s %s", f.label+":", f.value), style.Width, strings.Repeat(" ", 16)) {
				fmt.Fprintln(w, l)
			}
		}
	}
}

func writeLegend(w *bufio.Writer, changes []*plan.Change, st style.Style) {
	fmt.Fprintf(w, "\nazsvc will perform these actions, in this order within each Service:\n")
	for _, s := range usedSymbols(changes) {
		fmt.Fprintf(w, "  %s %s\n", colour(st, s, fmt.Sprintf("%-3s", s)), legendText[s])
	}
}

func writeGroup(w *bufio.Writer, g group, in Input, drifted map[plan.Key]bool, st style.Style) {
	header := "# " + g.title()
	if note := sourceNote(g, in); note != "" {
		header += " (" + note + ")"
	}
	fmt.Fprintf(w, "\n%s\n", st.Bold(header))
	scopeRuns(g.changes, in.Header.Subscription, func(scope string, c *plan.Change) {
		if scope != "" {
			fmt.Fprintf(w, "  %s\n", st.Dim(scope+":"))
		}
		writeChange(w, c, drifted, st)
	})
}

func writeChange(w *bufio.Writer, c *plan.Change, drifted map[plan.Key]bool, st style.Style) {
	sym := symbol(c.Actions)
	fmt.Fprintf(w, "  %s %s\n", colour(st, sym, fmt.Sprintf("%-3s", sym)), st.Bold(c.ID().Shown()))
	fmt.Fprintf(w, "      %s\n", st.Dim("# "+changeReason(c, drifted)))
	if note := servicesNote(c.Services); note != "" {
		for _, l := range style.Wrap("# "+note, style.Width, "#   ") {
			fmt.Fprintf(w, "      %s\n", st.Dim(l))
		}
	}
	lines, hidden := attributes(c)
	for _, a := range lines {
		writeAttr(w, a, st)
	}
	if hidden > 0 {
		fmt.Fprintf(w, "      %s\n", st.Dim("# ("+count(hidden, "unchanged attribute", "unchanged attributes")+" hidden)"))
	}
}

// writeAttr writes an attribute's lines, members added in green and
// removed in red.
func writeAttr(w *bufio.Writer, a attrLine, st style.Style) {
	for _, l := range a.lines() {
		text := l.text
		switch l.mark {
		case markAdded:
			text = st.Green(text)
		case markRemoved:
			text = st.Red(text)
		case markNote:
			text = st.Dim(text)
		}
		fmt.Fprintf(w, "      %s\n", text)
	}
}

// sourceNote says where a Service's group came from: its file, or that it
// is not in the input (its resources are pruned).
func sourceNote(g group, in Input) string {
	switch {
	case g.kind == groupUnnamed:
		return "pruned"
	case g.kind == groupEndpoint:
		return in.Sources[g.name]
	case g.kind != groupService:
		return ""
	case in.Sources[g.name] != "":
		return in.Sources[g.name]
	case in.Sources != nil:
		return "not in the input: pruned"
	}
	return ""
}

// changeReason is the reason line of a change; a change that puts back
// what was changed outside azsvc says so (plan --since).
func changeReason(c *plan.Change, drifted map[plan.Key]bool) string {
	if drifted[c.Key()] && !c.IsDelete() {
		return "puts back what was changed outside azsvc (see Drift)"
	}
	return ReasonText(c)
}

func writeBlocked(w *bufio.Writer, blocked []plan.Blocked, st style.Style) {
	var items []string
	for _, b := range blocked {
		items = append(items, fmt.Sprintf("  %s %s: %s", blockedMark(b), plan.ShownAddress(b.Address), blockedSentence(b)))
		if s := blockedSuggestion(b); s != "" {
			items = append(items, "      "+s)
		}
	}
	writeSection(w, st.BoldYellow("Blocked (azsvc will not do these):"), items, "      ")
	if note := FailingBlockedNote(blocked); note != "" {
		for _, l := range style.Wrap(note, style.Width, "  ") {
			fmt.Fprintln(w, st.BoldRed(l))
		}
	}
}

func writeChains(w *bufio.Writer, chains []Chain, st style.Style) {
	items := make([]string, len(chains))
	for i, ch := range chains {
		items[i] = "  " + ch.Line()
	}
	writeSection(w, st.Bold("Private Link (Service → frontend → private link service → private endpoint → DNS):"), items, "      ")
}

func writeAwaiting(w *bufio.Writer, awaiting []plan.Awaiting, st style.Style) {
	items := make([]string, len(awaiting))
	for i, a := range awaiting {
		items[i] = fmt.Sprintf("  … %s: %s", a.Address, AwaitingText(a))
	}
	writeSection(w, st.BoldYellow("Awaiting approval by the PLS owner (apply succeeds; traffic flows once approved):"), items, "      ")
}

// writeSection writes heading and each item wrapped at style.Width, its
// continuation lines indented by indent; nothing without items.
func writeSection(w *bufio.Writer, heading string, items []string, indent string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", heading)
	for _, item := range items {
		for _, l := range style.Wrap(item, style.Width, indent) {
			fmt.Fprintln(w, l)
		}
	}
}

func writeDisruptive(w *bufio.Writer, changes []*plan.Change, st style.Style) {
	var lines []string
	for _, c := range changes {
		if !c.Disruptive {
			continue
		}
		for _, imp := range Impact(c) {
			lines = append(lines, style.Wrap(fmt.Sprintf("  %s %s: %s", symbol(c.Actions), c.ID().Shown(), imp), style.Width, "      ")...)
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
