package planview

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan/quote"
)

// Budgets of the markdown targets (ux-anchors §8.4): a pull-request comment
// stays under GitHub's 65,536-character limit with headroom; a step
// summary under 1 MiB.
const (
	PRCommentBudget   = 60000
	StepSummaryBudget = 1000000
)

// MarkdownOptions tunes the markdown renderer.
type MarkdownOptions struct {
	// Budget is the maximum length in characters; 0 means PRCommentBudget.
	Budget int
	// Artifact is the saved plan file named in the footer's apply hint.
	Artifact string
	// RunURL links the CI run in the footer.
	RunURL string
}

// Markdown writes a pull-request comment (ux-anchors §8.4) that never
// exceeds the budget. When the full text does not fit it degrades in a
// fixed order, stopping as soon as it fits:
//  1. drop the "(N unchanged attributes hidden)" lines;
//  2. replace the attribute lines of non-disruptive changes by a count;
//  3. drop per-Service details blocks, largest first (ties by name);
//  4. keep only the marker, title, summary, disruptive changes,
//     validation findings, blocked changes and limits.
//
// The disruptive section is never cut by these steps. Only if it alone
// overflows the budget is its tail replaced by a count of the changes left
// out: the budget is a hard limit (GitHub rejects longer comments).
func Markdown(w io.Writer, in Input, opts MarkdownOptions) error {
	budget := opts.Budget
	if budget <= 0 {
		budget = PRCommentBudget
	}
	m := newMarkdown(in, opts)
	out := m.fit(budget)
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

type markdown struct {
	in      Input
	opts    MarkdownOptions
	summary Summary
	groups  []group
	fence   string
	cache   map[detailsKey]string
	// tableRows caps the per-Service summary table (-1: every Service); a
	// plan of hundreds of Services overflows the budget with it alone.
	tableRows int
}

type detailsKey struct {
	group string
	level int
}

func newMarkdown(in Input, opts MarkdownOptions) *markdown {
	m := &markdown{in: in, opts: opts, summary: Summarize(in.Plan), groups: groups(in.Plan.Changes), fence: "```",
		cache: map[detailsKey]string{}, tableRows: -1}
	for _, g := range m.groups {
		if strings.Contains(m.diffBody(g, 0), "```") {
			m.fence = "~~~"
		}
	}
	return m
}

func length(s string) int { return utf8.RuneCountInString(s) }

// fit applies the truncation steps, measuring pieces rendered once each
// rather than re-rendering the whole comment per step.
func (m *markdown) fit(budget int) string {
	fixed := length(m.top()) + length(m.findings())
	disruptive := m.disruptiveLines()
	dLen := length(m.disruptiveSection(disruptive, -1))
	for level := 0; level <= 2; level++ {
		total := fixed + dLen + length(m.footer(truncNote(level)))
		for _, g := range m.groups {
			total += length(m.details(g, level))
		}
		if total <= budget {
			return m.render(level, nil, -1, truncNote(level))
		}
	}
	dropped := map[string]bool{}
	total := fixed + dLen + length(m.footer(truncNote(3)))
	for _, g := range m.groups {
		total += length(m.details(g, 2))
	}
	for _, g := range m.bySize() {
		dropped[g.name] = true
		total += length(omitted(g)) - length(m.details(g, 2))
		if total <= budget {
			return m.render(2, dropped, -1, truncNote(3))
		}
	}
	allOmitted := length(m.omittedAll())
	if fixed+dLen+allOmitted+length(m.footer(truncNote(4))) <= budget {
		return m.render(2, dropped, -1, truncNote(4))
	}
	// Next: shorten the per-Service table, keeping as many rows as fit.
	if fit := m.fitTable(budget - dLen - allOmitted - length(m.footer(truncNote(4)))); fit {
		return m.render(2, dropped, -1, truncNote(4))
	}
	fixed = length(m.top()) + length(m.findings())
	// Last resort: the budget is a hard limit, so the disruptive list is
	// cut, with a count of what is left out.
	room := budget - fixed - allOmitted - length(m.footer(truncNote(5)))
	keep := 0
	for keep < len(disruptive) && length(m.disruptiveSection(disruptive, keep+1)) <= room {
		keep++
	}
	return m.render(2, dropped, keep, truncNote(5))
}

func truncNote(level int) string {
	switch level {
	case 0:
		return ""
	case 1:
		return "unchanged-attribute counts left out"
	case 2:
		return "attribute diffs of non-disruptive changes collapsed to counts"
	case 3:
		return "attribute diffs collapsed and the largest per-Service details omitted"
	case 4:
		return "all per-Service details omitted"
	}
	return "all per-Service details omitted and the disruptive list cut short"
}

// bySize orders groups largest first, ties by name, for step 3.
func (m *markdown) bySize() []group {
	gs := append([]group(nil), m.groups...)
	size := map[string]int{}
	for _, g := range gs {
		size[g.name] = length(m.details(g, 2))
	}
	sort.SliceStable(gs, func(i, j int) bool {
		if size[gs[i].name] != size[gs[j].name] {
			return size[gs[i].name] > size[gs[j].name]
		}
		return gs[i].name < gs[j].name
	})
	return gs
}

// render builds the comment; keepDisruptive < 0 keeps every disruptive
// line.
func (m *markdown) render(level int, dropped map[string]bool, keepDisruptive int, note string) string {
	var b strings.Builder
	b.WriteString(m.top())
	b.WriteString(m.disruptiveSection(m.disruptiveLines(), keepDisruptive))
	b.WriteString(m.findings())
	if len(m.groups) > 0 && len(dropped) == len(m.groups) {
		b.WriteString(m.omittedAll())
	} else {
		for _, g := range m.groups {
			if dropped[g.name] {
				b.WriteString(omitted(g))
				continue
			}
			b.WriteString(m.details(g, level))
		}
	}
	b.WriteString(m.footer(note))
	return b.String()
}

func omitted(g group) string {
	return fmt.Sprintf("\n_%s: details omitted; see step summary or artifact._\n", escapeText(g.name))
}

func (m *markdown) omittedAll() string {
	return "\n_Per-Service details omitted; see step summary or artifact._\n"
}

func (m *markdown) top() string {
	var b strings.Builder
	h := m.in.Header
	fmt.Fprintf(&b, "<!-- azsvc:plan v1 cluster=%s rg=%s target=%s plan_id=%s -->\n", markerValue(h.Cluster), markerValue(h.ResourceGroup), markerValue(h.Target), markerValue(m.in.PlanID))
	fmt.Fprintf(&b, "### azsvc plan: %s / %s %s\n\n", orDash(h.Cluster), orDash(h.ResourceGroup), m.status())
	fmt.Fprintf(&b, "**%s**\n", m.summary.line("below"))
	if est := estimateApply(m.in.Plan); est != nil {
		fmt.Fprintf(&b, "\n%s\n", escapeText(est.Sentence()))
	}
	if len(m.groups) == 0 {
		return b.String()
	}
	b.WriteString("\n| Service | + | ~ | -/+ | - | adopt | release | disruptive |\n|---|---|---|---|---|---|---|---|\n")
	for i, g := range m.groups {
		if m.tableRows >= 0 && i == m.tableRows {
			fmt.Fprintf(&b, "| _%d more Services: see the artifact_ | | | | | | | |\n", len(m.groups)-i)
			break
		}
		s := g.summary()
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | 0 | %d |\n", escapeCell(g.name), s.Create, s.Update, s.Replace, s.Delete, s.Adopt, s.Disruptive)
	}
	return b.String()
}

// fitTable keeps the most table rows with which the top and findings fit
// in room (binary search: the top is rendered a few times, not per row).
// It reports whether even the shortest table fits; m.tableRows is set to
// the best cap either way.
func (m *markdown) fitTable(room int) bool {
	size := func(rows int) int {
		m.tableRows = rows
		return length(m.top()) + length(m.findings())
	}
	lo, hi := 0, len(m.groups)
	if size(lo) > room {
		m.tableRows = 0
		return false
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if size(mid) <= room {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	m.tableRows = lo
	return true
}

func (m *markdown) status() string {
	switch {
	case hasErrors(m.in.Diagnostics), len(m.in.Plan.Refused) > 0:
		return "❌ failed"
	case m.summary.Disruptive > 0:
		return "⚠️ disruptive"
	case m.summary.HasChanges:
		return "📝 changes"
	case m.summary.Blocked > 0:
		return "⛔ blocked"
	}
	return "✅ no changes"
}

func (m *markdown) disruptiveLines() []string {
	var out []string
	for _, c := range m.in.Plan.Changes {
		if !c.Disruptive {
			continue
		}
		for _, imp := range Impact(c) {
			out = append(out, fmt.Sprintf("- `%s` %s: %s", symbol(c.Actions), c.ID().Address(), escapeText(imp)))
		}
	}
	return out
}

func (m *markdown) disruptiveSection(lines []string, keep int) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\n#### ⚠️ Disruptive changes\n\n")
	if keep < 0 || keep > len(lines) {
		keep = len(lines)
	}
	for _, l := range lines[:keep] {
		b.WriteString(l + "\n")
	}
	if keep < len(lines) {
		fmt.Fprintf(&b, "- **%d more disruptive changes not shown: the comment limit was reached. Read the full plan (`azsvc plan -o json`).**\n", len(lines)-keep)
	}
	return b.String()
}

func (m *markdown) findings() string {
	var b strings.Builder
	if len(m.in.Diagnostics) > 0 {
		b.WriteString("\n#### Validation findings\n\n| Severity | Rule | Location | Message |\n|---|---|---|---|\n")
		for _, d := range m.in.Diagnostics {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", d.Severity, d.Code, escapeCell(d.Pos.String()), escapeCell(d.Message))
		}
	}
	refusedMarkdown(&b, m.in.Plan.Refused)
	if p := m.in.Plan; len(p.Blocked) > 0 {
		b.WriteString("\n#### Blocked (azsvc will not do these)\n\n")
		for _, x := range p.Blocked {
			fmt.Fprintf(&b, "- `%s`: %s\n", x.Address, escapeText(BlockedText(x)))
		}
	}
	if p := m.in.Plan; len(p.Awaiting) > 0 {
		b.WriteString("\n#### ⏳ Awaiting approval by the PLS owner\n\n")
		for _, a := range p.Awaiting {
			fmt.Fprintf(&b, "- `%s`: %s\n", a.Address, escapeText(AwaitingText(a)))
		}
	}
	if chains := Chains(m.in.Plan); len(chains) > 0 {
		b.WriteString("\n#### Private Link\n\n")
		for _, ch := range chains {
			fmt.Fprintf(&b, "- %s\n", escapeText(ch.Line()))
		}
	}
	if p := m.in.Plan; len(p.Limits) > 0 {
		b.WriteString("\n#### Limits above 80%\n\n| Limit | Resource | Used | Max |\n|---|---|---|---|\n")
		for _, l := range p.Limits {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", l.Name, l.Scope, l.Used, l.Max)
		}
	}
	return b.String()
}

// details is one Service's <details> block with a diff-highlighted body.
func (m *markdown) details(g group, level int) string {
	k := detailsKey{g.name, level}
	if d, ok := m.cache[k]; ok {
		return d
	}
	d := fmt.Sprintf("\n<details><summary>%s: %s</summary>\n\n%sdiff\n%s%s\n\n</details>\n",
		escapeText(g.name), g.summary().counts(), m.fence, m.diffBody(g, level), m.fence)
	m.cache[k] = d
	return d
}

// diffBody puts the symbol in column 0 so GitHub's diff highlighting
// colours the line ("!" for updates, ux-anchors §8.4).
func (m *markdown) diffBody(g group, level int) string {
	var b strings.Builder
	for _, c := range g.changes {
		sym := symbol(c.Actions)
		col := diffColumn(sym)
		fmt.Fprintf(&b, "%s %s\n", diffSymbol(sym), c.ID().Address())
		if note := servicesNote(c.Services); note != "" {
			fmt.Fprintf(&b, "#     %s\n", note)
		}
		lines, hidden := attributes(c)
		if level >= 2 && !c.Disruptive && len(lines) > 0 {
			fmt.Fprintf(&b, "#     %d attributes changed\n", len(lines))
			continue
		}
		for _, a := range lines {
			fmt.Fprintf(&b, "%s     %s\n", col, a)
		}
		if hidden > 0 && level < 1 {
			fmt.Fprintf(&b, "#     (%d unchanged attributes hidden)\n", hidden)
		}
	}
	return b.String()
}

func diffSymbol(sym string) string {
	if sym == "~" {
		return "!"
	}
	return sym
}

func diffColumn(sym string) string {
	switch sym {
	case "+":
		return "+"
	case "-", "-/+", "+/-":
		return "-"
	case "~":
		return "!"
	}
	return " "
}

func (m *markdown) footer(note string) string {
	var b strings.Builder
	b.WriteString("\n---\n")
	if m.in.PlanID != "" {
		fmt.Fprintf(&b, "Plan `%s`. ", m.in.PlanID)
	}
	if m.opts.Artifact != "" {
		fmt.Fprintf(&b, "Apply with `azsvc apply %s`.", m.opts.Artifact)
	} else {
		b.WriteString("`azsvc apply` plans again before it changes anything.")
	}
	if m.opts.RunURL != "" {
		fmt.Fprintf(&b, " [CI run](%s)", m.opts.RunURL)
	}
	b.WriteString("\n")
	if note != "" {
		fmt.Fprintf(&b, "\n> **Truncated** to fit the comment limit: %s. The full plan is in the JSON output (`azsvc plan -o json`).\n", note)
	}
	return b.String()
}

func markerValue(s string) string {
	if s == "" {
		return "-"
	}
	s = strings.ReplaceAll(s, "--", "- -")
	if strings.ContainsAny(s, " \t\n\"") {
		return fmt.Sprintf("%q", s)
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func escapeCell(s string) string { return strings.ReplaceAll(escapeText(s), "|", "\\|") }

func escapeText(s string) string {
	return quote.Text(strings.NewReplacer("<", "&lt;", ">", "&gt;", "\n", " ").Replace(s))
}
