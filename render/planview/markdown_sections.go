package planview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/render/style"
)

// The sections a reviewer must see, in full: disruptive changes and
// changes to shared resources (ux-anchors §8.4 items 4-6), drift, findings,
// blocked changes and limits. Each renders the first keep of its items
// (keep < 0: all) and says how many it left out; only a plan too large for
// any comment leaves any out.

// disruptive is every disruptive change, first its consequences, then the
// attribute diffs of those that have them.
func (m *markdown) disruptive() []*plan.Change {
	var out []*plan.Change
	for _, c := range m.in.Plan.Changes {
		if c.Disruptive {
			out = append(out, c)
		}
	}
	return out
}

func (m *markdown) disruptiveSection(changes []*plan.Change, keep int) string {
	if len(changes) == 0 {
		return ""
	}
	shown := cut(changes, keep)
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### ⚠️ Disruptive changes (%s)\n\n", thousands(len(changes)))
	var withAttrs []*plan.Change
	for _, c := range shown {
		who := ""
		if len(c.Services) == 1 {
			who = " (" + escapeInline(c.Services[0]) + ")"
		}
		if !strings.EqualFold(c.ID().Subscription, m.in.Header.Subscription) {
			who += " " + escapeText(scopeText(c.ID(), m.in.Header.Subscription))
		}
		for _, imp := range Impact(c) {
			writeWrapped(&b, fmt.Sprintf("- `%s` `%s`%s: %s", symbol(c.Actions), escapeCode(c.ID().Shown()), who, escapeText(imp)), "  ")
		}
		if lines, _ := attributes(c); len(lines) > 0 {
			withAttrs = append(withAttrs, c)
		}
	}
	if len(withAttrs) > 0 {
		b.WriteString("\n" + m.diffBlock(m.diffBody(withAttrs, func(*plan.Change) bool { return false })))
	}
	b.WriteString(m.leftOut(len(changes)-len(shown), "disruptive change", "disruptive changes"))
	return b.String()
}

// sharedSection is every change to a resource several Services share, or
// the cluster: the load balancers, the NSG rules CCM merges (ccm-semantics
// §5.3). collapsed replaces attribute lines of non-disruptive ones by a
// count.
func (m *markdown) sharedSection(keep int, collapsed bool) string {
	if len(m.shared) == 0 {
		return ""
	}
	shown := cut(m.shared, keep)
	body := m.diffBody(shown, func(c *plan.Change) bool { return collapsed && !c.Disruptive })
	var b strings.Builder
	fmt.Fprintf(&b, "\n#### Shared and cluster resources (%s)\n\n", count(len(m.shared), "change", "changes"))
	b.WriteString(m.diffBlock(body))
	b.WriteString(m.leftOut(len(m.shared)-len(shown), "shared change", "shared changes"))
	return b.String()
}

// diffBody is changes in diff form, each run of changes landing in one
// resource group under a line saying which (issue 22 item 2).
func (m *markdown) diffBody(changes []*plan.Change, collapsed func(*plan.Change) bool) string {
	var body strings.Builder
	scopeRuns(changes, m.in.Header.Subscription, func(scope string, c *plan.Change) {
		if scope != "" {
			body.WriteString("# " + scope + ":\n")
		}
		body.WriteString(m.changeDiff(c, collapsed(c)))
	})
	return body.String()
}

// driftSection lists what changed outside azsvc since the saved plan given
// with --since, or says that nothing did; nothing without --since.
func (m *markdown) driftSection() string {
	if m.in.Since == "" {
		return ""
	}
	drift := m.in.Plan.Drift
	if len(drift) == 0 {
		return "\n" + escapeText(noDriftText(m.in.Since)) + "\n"
	}
	var body strings.Builder
	for _, c := range drift {
		sym := symbol(c.Actions)
		fmt.Fprintf(&body, "%s %s\n", diffSymbol(sym), c.ID().Shown())
		writeDiffLines(&body, diffColumn(sym), driftLines(c))
	}
	return fmt.Sprintf("\n#### %s (%s)\n\n%s\n%s", escapeText(driftTitle(m.in.Since)), thousands(len(drift)),
		escapeText(driftLegend), m.diffBlock(body.String()))
}

// findings are the validation findings, blocked changes and limits.
func (m *markdown) findings() string {
	var b strings.Builder
	if len(m.in.Diagnostics) > 0 {
		b.WriteString("\n#### Validation findings\n\n")
		for _, d := range m.in.Diagnostics {
			writeWrapped(&b, fmt.Sprintf("- **%s** %s `%s`: %s", d.Severity, d.Code, escapeCode(d.Pos.String()), escapeInline(d.Message)), "  ")
		}
	}
	refusedMarkdown(&b, m.in.Plan.Refused)
	unresolvedMarkdown(&b, m.in.Plan.Unresolved)
	adoptedMarkdown(&b, m.in.Plan.Adopted)
	adoptedPortsMarkdown(&b, m.in.Plan.AdoptedPorts)
	if p := m.in.Plan; len(p.Blocked) > 0 {
		b.WriteString("\n#### Blocked (azsvc will not do these)\n\n")
		for _, x := range p.Blocked {
			writeWrapped(&b, fmt.Sprintf("- %s `%s`: %s", blockedMark(x), escapeCode(plan.ShownAddress(x.Address)), escapeText(blockedSentence(x))), "  ")
			if s := blockedSuggestion(x); s != "" {
				b.WriteString("  " + escapeText(s) + "\n")
			}
		}
		if note := FailingBlockedNote(p.Blocked); note != "" {
			b.WriteString("\n")
			writeWrapped(&b, "**"+escapeText(note)+"**", "")
		}
	}
	if p := m.in.Plan; len(p.Awaiting) > 0 {
		b.WriteString("\n#### ⏳ Awaiting approval by the PLS owner\n\n")
		for _, a := range p.Awaiting {
			writeWrapped(&b, fmt.Sprintf("- `%s`: %s", escapeCode(a.Address), escapeText(AwaitingText(a))), "  ")
		}
	}
	membershipMarkdown(&b, m.in.Plan.Membership)
	if chains := Chains(m.in.Plan); len(chains) > 0 {
		b.WriteString("\n#### Private Link\n\n")
		for _, ch := range chains {
			writeWrapped(&b, "- "+escapeText(ch.Line()), "  ")
		}
	}
	if p := m.in.Plan; len(p.Limits) > 0 {
		b.WriteString("\n#### Limits above 80%\n\n| Limit | Resource | Used | Max |\n|---|---|---|---|\n")
		for _, l := range p.Limits {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", escapeCell(l.Name), escapeCell(l.Scope), l.Used, l.Max)
		}
	}
	return b.String()
}

// leftOut says how many items of a section the budget left out, and where
// they are.
func (m *markdown) leftOut(n int, one, many string) string {
	if n <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n")
	writeWrapped(&b, fmt.Sprintf("**%s not shown: the comment limit was reached.** %s", count(n, "more "+one, "more "+many), m.whereFull()), "")
	return b.String()
}

// writeWrapped writes a line of prose wrapped to style.Width, the later
// lines indented (a list item's continuation, or a quote's "> ").
func writeWrapped(b *strings.Builder, text, indent string) {
	for _, l := range style.Wrap(text, style.Width, indent) {
		b.WriteString(l + "\n")
	}
}

// escapeCode makes text safe inside a code span.
func escapeCode(s string) string { return strings.ReplaceAll(escapeText(s), "`", "'") }

func cut[T any](items []T, keep int) []T {
	if keep < 0 || keep > len(items) {
		return items
	}
	return items[:keep]
}
