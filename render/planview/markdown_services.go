package planview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// The Services section: each Service with changes in a <details> block,
// under a heading per namespace, in natural order. Past the budget the
// remaining Services are counted per namespace in one table.

// maxFoldRows caps the namespaces the table of Services not shown lists
// one by one; the rest share one row.
const maxFoldRows = 100

// namespaceTitle heads the namespace a group is listed under.
func namespaceTitle(g group) string {
	if g.kind == groupUnnamed {
		return "Not in the input"
	}
	return "Namespace " + orDash(g.namespace())
}

// servicesHeading counts what the section lists as the headline does:
// a PrivateEndpoint is not a Service.
func (m *markdown) servicesHeading() string {
	if len(m.services) == 0 {
		return ""
	}
	if endpoints(m.services) == 0 {
		return fmt.Sprintf("\n#### Services (%s with changes)\n", thousands(len(m.services)))
	}
	return fmt.Sprintf("\n#### Services and PrivateEndpoints (%s with changes)\n", objectCounts(m.services))
}

// serviceBlock is Service i's <details> block, after its namespace's
// heading when it is the first Service of its namespace.
func (m *markdown) serviceBlock(i int) string {
	g := m.services[i]
	var b strings.Builder
	if i == 0 || namespaceTitle(m.services[i-1]) != namespaceTitle(g) {
		j := i
		for j < len(m.services) && namespaceTitle(m.services[j]) == namespaceTitle(g) {
			j++
		}
		fmt.Fprintf(&b, "\n##### %s (%s)\n", escapeInline(namespaceTitle(g)), objectCounts(m.services[i:j]))
	}
	body := m.diffBody(g.changes, func(*plan.Change) bool { return false })
	title := g.shortName()
	if note := sourceNote(g, m.in); note != "" {
		title += " (" + note + ")"
	}
	fmt.Fprintf(&b, "\n<details><summary>%s: %s</summary>\n\n%s\n</details>\n", escapeText(title), groupCounts(g), m.diffBlock(body))
	return b.String()
}

// objectCounts is "2 Services", "1 Service, 1 PrivateEndpoint": what the
// groups are changes of.
func objectCounts(groups []group) string { return objectCount(len(groups), endpoints(groups)) }

// objectCount is objectCounts for n groups of which endpoints are
// PrivateEndpoints.
func objectCount(n, endpoints int) string {
	text := count(n-endpoints, "Service", "Services")
	switch {
	case endpoints == 0:
		return text
	case endpoints == n:
		return count(endpoints, "PrivateEndpoint", "PrivateEndpoints")
	}
	return text + ", " + count(endpoints, "PrivateEndpoint", "PrivateEndpoints")
}

func endpoints(groups []group) int {
	n := 0
	for _, g := range groups {
		if g.kind == groupEndpoint {
			n++
		}
	}
	return n
}

// groupCounts is "2 to create, 1 to delete, 1 disruptive".
func groupCounts(g group) string {
	s := g.summary()
	text := s.counts()
	if s.Disruptive > 0 {
		text += fmt.Sprintf(", %d disruptive", s.Disruptive)
	}
	return text
}

// foldRow is one namespace's line in the table of Services not shown.
func foldRow(title string, services int, s Summary) string {
	return fmt.Sprintf("| %s | %s | %d | %d | %d | %d | %d | %d |\n", escapeCell(strings.TrimPrefix(title, "Namespace ")), thousands(services),
		s.Create, s.Update, s.Replace, s.Delete, s.Adopt, s.Disruptive)
}

// moreRow sums up the namespaces past maxFoldRows.
func moreRow(namespaces, services int) string {
	return fmt.Sprintf("| _and %s_ | %s | | | | | | |\n", count(namespaces, "more namespace", "more namespaces"), thousands(services))
}

const foldTableHead = "| Namespace | Services | + | ~ | -/+ | - | adopt | disruptive |\n|---|---|---|---|---|---|---|---|\n"

// foldSection counts the Services from index k on per namespace.
func (m *markdown) foldSection(k int) string {
	if k >= len(m.services) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n##### Not shown here (%s)\n\n", objectCounts(m.services[k:]))
	b.WriteString(foldTableHead)
	rows := 0
	for i := k; i < len(m.services); {
		title := namespaceTitle(m.services[i])
		if rows == maxFoldRows {
			b.WriteString(moreRow(m.namespacesFrom(i), len(m.services)-i))
			break
		}
		var s Summary
		j := i
		for ; j < len(m.services) && namespaceTitle(m.services[j]) == title; j++ {
			s.merge(m.services[j].summary())
		}
		b.WriteString(foldRow(title, j-i, s))
		rows++
		i = j
	}
	b.WriteString("\n")
	writeWrapped(&b, m.whereFull(), "")
	return b.String()
}

func (m *markdown) namespacesFrom(i int) int {
	n, last := 0, "\x00"
	for _, g := range m.services[i:] {
		if t := namespaceTitle(g); t != last {
			n, last = n+1, t
		}
	}
	return n
}

// foldSizes are the sizes of foldSection(k) for every k from 0 to
// len(m.services), computed in one backward pass: the section for k
// differs from the one for k+1 in one namespace's row, unless the row cap
// moves.
func (m *markdown) foldSizes() []int {
	n := len(m.services)
	sizes := make([]int, n+1)
	if n == 0 {
		return sizes
	}
	// Namespace spans, in order.
	type span struct {
		title      string
		start, end int
	}
	var spans []span
	for i := 0; i < n; {
		t := namespaceTitle(m.services[i])
		j := i
		for j < n && namespaceTitle(m.services[j]) == t {
			j++
		}
		spans = append(spans, span{t, i, j})
		i = j
	}
	whole := make([]int, len(spans)+1) // whole[j]: sum of the full rows of spans j..
	for j := len(spans) - 1; j >= 0; j-- {
		var s Summary
		for i := spans[j].start; i < spans[j].end; i++ {
			s.merge(m.services[i].summary())
		}
		whole[j] = whole[j+1] + m.length(foldRow(spans[j].title, spans[j].end-spans[j].start, s))
	}
	var where strings.Builder
	where.WriteString("\n")
	writeWrapped(&where, m.whereFull(), "")
	whereText := where.String()
	j := len(spans) - 1
	var partial Summary
	ends := 0 // PrivateEndpoints from k on
	for k := n - 1; k >= 0; k-- {
		if k < spans[j].start {
			j--
			partial = Summary{}
		}
		partial.merge(m.services[k].summary())
		if m.services[k].kind == groupEndpoint {
			ends++
		}
		size := m.length(fmt.Sprintf("\n##### Not shown here (%s)\n\n", objectCount(n-k, ends))) + m.length(foldTableHead)
		size += m.length(foldRow(spans[j].title, spans[j].end-k, partial))
		last := min(j+maxFoldRows, len(spans)) // rows j+1 .. last-1 are whole
		size += whole[j+1] - whole[last]
		if last < len(spans) {
			size += m.length(moreRow(len(spans)-last, n-spans[last].start))
		}
		size += m.length(whereText)
		sizes[k] = size
	}
	return sizes
}

// merge adds t's counts to s.
func (s *Summary) merge(t Summary) {
	s.Create += t.Create
	s.Update += t.Update
	s.Replace += t.Replace
	s.Delete += t.Delete
	s.Adopt += t.Adopt
	s.Disruptive += t.Disruptive
}
