package planview

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/exposure"
	"github.com/azsvc/azsvc/plan/quote"
)

// Budgets of the markdown targets (ux-anchors §8.4): a pull-request comment
// stays under GitHub's 65,536-character limit with headroom; a step
// summary under its 1 MiB limit, counted in bytes.
const (
	PRCommentBudget   = 60000
	StepSummaryBudget = 1000000
)

// MarkdownOptions tunes the markdown renderer.
type MarkdownOptions struct {
	// Budget is the maximum length; 0 means PRCommentBudget.
	Budget int
	// Bytes counts the budget in bytes, as GitHub's step summary limit is,
	// instead of characters, as its comment limit is.
	Bytes bool
	// Artifact is the saved plan file (plan --out): the footer's apply
	// hint, and a place the full plan is.
	Artifact string
	// FullPlan names the other places the plan was written, such as the
	// job's step summary or a --summary-file. Only places actually
	// written: a comment that leaves something out points there.
	FullPlan []Place
	// RunURL links the CI run in the footer.
	RunURL string
}

// Markdown writes the plan for review (ux-anchors §8.4): the headline
// first (counts, disruptive count, target), then every disruptive change
// and every change to a shared resource in full, since they are what a
// reviewer must see, then drift, findings, blocked changes and limits,
// then the Services by namespace in natural order, each in a <details>
// block. It never exceeds the budget: Services that do not fit are counted
// per namespace instead, and the comment says where the full plan is.
func Markdown(w io.Writer, in Input, opts MarkdownOptions) error {
	out, _ := MarkdownText(in, opts)
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("write markdown: %w", err)
	}
	return nil
}

// MarkdownText is Markdown's text, and whether it holds the whole plan
// (nothing was counted or cut to fit the budget).
func MarkdownText(in Input, opts MarkdownOptions) (string, bool) {
	if opts.Budget <= 0 {
		opts.Budget = PRCommentBudget
	}
	text, whole := newMarkdown(in, opts).fit()
	// Names and values are escaped where they are written (escapeText,
	// escapeCode, diffBlock); this catches any that are not, for a
	// comment read in a terminal.
	return quote.Lines(text), whole
}

// Place is somewhere the plan was written for a comment to point at.
type Place struct {
	// Name is how the comment names it, e.g. "`summary.md`".
	Name string
	// Partial: it too had to leave part of the plan out.
	Partial bool
}

type markdown struct {
	in       Input
	opts     MarkdownOptions
	summary  Summary
	services []group // Service groups (and unnamed ones), in order
	shared   []*plan.Change
	drifted  map[plan.Key]bool
	exposure []exposure.Exposure
	fence    string
}

func newMarkdown(in Input, opts MarkdownOptions) *markdown {
	m := &markdown{in: in, opts: opts, summary: Summarize(in.Plan), drifted: driftedKeys(in.Plan), exposure: exposure.Of(in.Plan), fence: "```"}
	m.summary.inputErrors = hasErrors(in.Diagnostics)
	for _, g := range groupsOf(in.Plan) {
		if g.kind == groupShared {
			m.shared = g.changes
			continue
		}
		m.services = append(m.services, g)
	}
	// A PrivateEndpoint's changes go with its namespace's Services.
	sort.SliceStable(m.services, func(i, j int) bool {
		a, b := m.services[i], m.services[j]
		if (a.kind == groupUnnamed) != (b.kind == groupUnnamed) {
			return b.kind == groupUnnamed
		}
		return naturalLess(a.namespace(), b.namespace())
	})
	for _, c := range in.Plan.Changes {
		if strings.Contains(m.changeDiff(c, false), "```") {
			m.fence = "~~~" // tfcmt's rule: a fence the content cannot close
			break
		}
	}
	return m
}

// length measures text against the budget.
func (m *markdown) length(s string) int {
	if m.opts.Bytes {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// top is the marker, the title and the headline.
func (m *markdown) top() string {
	var b strings.Builder
	h := m.in.Header
	fmt.Fprintf(&b, "<!-- azsvc:plan v1 cluster=%s rg=%s target=%s plan_id=%s -->\n", markerValue(h.Cluster), markerValue(h.ResourceGroup), markerValue(h.Target), markerValue(m.in.PlanID))
	fmt.Fprintf(&b, "### azsvc plan: %s / %s %s\n\n", escapeText(orDash(h.Cluster)), escapeText(orDash(h.ResourceGroup)), m.status())
	fmt.Fprintf(&b, "**%s**\n", m.summary.line("below"))
	headline := "Target: " + escapeText(orDash(h.Target)) + "."
	if len(m.services) > 0 {
		headline += fmt.Sprintf(" Changes for %s in %s.", objectCounts(m.services), count(m.namespaces(), "namespace", "namespaces"))
	}
	headline += writesSentence(plan.WriteScopes(m.in.Plan, h.Subscription))
	if len(h.Settings) > 0 {
		headline += " Settings: " + escapeText(strings.Join(h.Settings, "; ")) + "."
	}
	if h.Focus != "" {
		headline += " Focused on " + escapeText(h.Focus) + ": the other Services were read, not changed."
	}
	if h.Base != "" {
		headline += " Base→head: " + escapeText(h.Base) + "."
	}
	b.WriteString("\n")
	writeWrapped(&b, headline, "")
	if est := estimateApply(m.in.Plan); est != nil {
		fmt.Fprintf(&b, "\n%s\n", escapeText(est.Sentence()))
	}
	b.WriteString(m.exposureSection())
	return b.String()
}

// namespaces counts the namespaces of the Services with changes; Services
// outside the input known only by name count as one.
func (m *markdown) namespaces() int {
	seen := map[string]bool{}
	for _, g := range m.services {
		seen[namespaceTitle(g)] = true
	}
	return len(seen)
}

func (m *markdown) status() string {
	switch {
	case hasErrors(m.in.Diagnostics), len(m.in.Plan.Refused) > 0:
		return "❌ failed"
	case m.summary.BlockedFailing > 0:
		return "❌ blocked"
	case m.summary.Disruptive > 0:
		return "⚠️ disruptive"
	case m.summary.HasChanges:
		return "📝 changes"
	case m.summary.Blocked > 0:
		return "⛔ blocked"
	}
	return "✅ no changes"
}

// changeDiff is one change in diff form: the symbol in column 0 so
// GitHub's diff highlighting colours the line ("!" for updates,
// ux-anchors §8.4). collapsed replaces the attribute lines by their count.
func (m *markdown) changeDiff(c *plan.Change, collapsed bool) string {
	var b strings.Builder
	sym := symbol(c.Actions)
	col := diffColumn(sym)
	fmt.Fprintf(&b, "%s %s\n", diffSymbol(sym), c.ID().Shown())
	if obviousReason(c) == "" {
		fmt.Fprintf(&b, "#     %s\n", changeReason(c, m.drifted))
	}
	if note := servicesNote(c.Services); note != "" {
		writeWrapped(&b, "#     "+note, "#       ")
	}
	lines, hidden := attributes(c)
	if collapsed && len(lines) > 0 {
		fmt.Fprintf(&b, "#     %s changed\n", count(len(lines), "attribute", "attributes"))
		return b.String()
	}
	for _, a := range lines {
		writeDiffLines(&b, col, a.lines())
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "#     (%s hidden)\n", count(hidden, "unchanged attribute", "unchanged attributes"))
	}
	return b.String()
}

// obviousReason is the symbol that already says why a change is made: a
// create a Service needs, a delete none needs any more. The comment leaves
// their reason lines out; "" means the reason line is shown.
func obviousReason(c *plan.Change) string {
	switch {
	case c.Reason == plan.ReasonServiceAdded && c.Has(plan.ActionCreate) && !c.IsReplace():
		return "+"
	case c.Reason == plan.ReasonServiceRemoved && c.IsDelete():
		return "-"
	}
	return ""
}

// writeDiffLines writes display lines under a change whose lines start
// with col: members added with "+", removed with "-", notes with "#".
func writeDiffLines(b *strings.Builder, col string, lines []displayLine) {
	for _, l := range lines {
		c := col
		switch l.mark {
		case markAdded:
			c = "+"
		case markRemoved:
			c = "-"
		case markNote:
			c = "#"
		}
		fmt.Fprintf(b, "%s     %s\n", c, l.text)
	}
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

// diffBlock fences a diff body.
func (m *markdown) diffBlock(body string) string {
	return m.fence + "diff\n" + quote.Lines(body) + m.fence + "\n"
}

// footer is the plan ID, how to apply it and the CI run.
func (m *markdown) footer() string {
	var b strings.Builder
	b.WriteString("\n---\n")
	if m.in.PlanID != "" {
		fmt.Fprintf(&b, "Plan `%s`. ", m.in.PlanID)
	}
	if m.opts.Artifact != "" {
		fmt.Fprintf(&b, "Apply with `azsvc apply %s`.", escapeCode(m.opts.Artifact))
	} else {
		b.WriteString("`azsvc apply` plans again before it changes anything.")
	}
	if m.opts.RunURL != "" {
		fmt.Fprintf(&b, " [CI run](%s)", m.opts.RunURL)
	}
	b.WriteString("\n")
	return b.String()
}

// whereFull says where the complete plan is; never a place not written,
// and never one that is not complete as such.
func (m *markdown) whereFull() string {
	var full, partial []string
	for _, p := range m.opts.FullPlan {
		if p.Partial {
			partial = append(partial, escapeText(p.Name))
			continue
		}
		full = append(full, escapeText(p.Name))
	}
	if a := m.opts.Artifact; a != "" {
		full = append(full, fmt.Sprintf("the saved plan `%s` (`azsvc show %s`)", escapeCode(a), escapeCode(a)))
	}
	text := "The full plan is in " + joinAnd(full) + "."
	if len(full) == 0 {
		text = "Run `azsvc plan -o json`, or give `--out FILE` and run `azsvc show FILE`, for the full plan."
	}
	if len(partial) > 0 {
		text += " More of it than here is in " + joinAnd(partial) + "."
	}
	return text
}

func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
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
