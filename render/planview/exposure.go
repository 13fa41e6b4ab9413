package planview

import (
	"bufio"
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/exposure"
	"github.com/azsvc/azsvc/render/style"
)

// The Exposure section: what a reviewer must see first (issue 22 item 1).
// The core (plan/exposure) says whose reach changes and how; this words
// each Service's change on one line, at the top of the text plan and of
// the pull-request comment, never folded away.

const exposureTitle = "Exposure (who can reach what, from where):"

// ExposureLine words one Service's change of reach: direction, Service,
// then its parts, e.g. "wider: shop/web: internal → public on tcp/443;
// tcp/443 from Internet (new)".
func ExposureLine(e exposure.Exposure, named map[string]plan.RemovedService) string {
	return fmt.Sprintf("%s: %s: %s", e.Direction, exposureOwner(e, named), strings.Join(exposureParts(e), "; "))
}

// exposureOwner names the Service; one outside the input by what names
// it (named, by prefix), else by its names' prefix.
func exposureOwner(e exposure.Exposure, named map[string]plan.RemovedService) string {
	if e.Service != "" {
		return e.Service
	}
	if r := named[e.Prefix]; r.Service != "" {
		return r.Service + " (not in the input)"
	}
	return "Service not in the input, resource names starting " + e.Prefix
}

func exposureParts(e exposure.Exposure) []string {
	var parts []string
	opened, closed := e.Opened, e.Closed
	switch {
	case e.To == exposure.ReachPublic:
		parts = append(parts, reachWord(e.From)+" → public"+onPorts(opened))
		opened = nil
	case e.From == exposure.ReachPublic:
		parts = append(parts, "public → "+reachWord(e.To)+closedPorts(closed))
		closed = nil
	}
	if len(opened) > 0 {
		parts = append(parts, strings.Join(opened, ", ")+" opened on a public IP")
	}
	if len(closed) > 0 {
		parts = append(parts, strings.Join(closed, ", ")+" closed on the public IP")
	}
	for _, s := range e.Sources {
		parts = append(parts, sourcesText(s))
	}
	switch e.DenyAll {
	case "added":
		parts = append(parts, "every other source denied (deny-all rule added)")
	case "removed":
		parts = append(parts, "other sources no longer denied (deny-all rule removed)")
	}
	for _, pl := range e.PrivateLink {
		parts = append(parts, privateLinkText(pl))
	}
	return parts
}

func reachWord(r exposure.Reach) string {
	if r == exposure.ReachNone {
		return "no frontend"
	}
	return string(r)
}

func onPorts(ports []string) string {
	if len(ports) == 0 {
		return ""
	}
	return " on " + strings.Join(ports, ", ")
}

func closedPorts(ports []string) string {
	if len(ports) == 0 {
		return ""
	}
	return ", " + strings.Join(ports, ", ") + " no longer public"
}

// sourcesText: "tcp/443 from 0.0.0.0/0 (was 203.0.113.0/24)".
func sourcesText(s exposure.Sources) string {
	ports := strings.Join(s.Ports, ", ")
	switch {
	case len(s.Before) == 0:
		return ports + " from " + strings.Join(s.After, ", ") + " (new)"
	case len(s.After) == 0:
		return ports + " no longer from " + strings.Join(s.Before, ", ")
	}
	return ports + " from " + strings.Join(s.After, ", ") + " (was " + strings.Join(s.Before, ", ") + ")"
}

// privateLinkText: "pls/pls-foo visible to +S, auto-approved for +S".
func privateLinkText(pl exposure.PrivateLink) string {
	var parts []string
	if t := subscriptionsText(pl.Visibility); t != "" {
		parts = append(parts, "visible to "+t)
	}
	if t := subscriptionsText(pl.AutoApproval); t != "" {
		parts = append(parts, "auto-approved for "+t)
	}
	return plan.ShownAddress(pl.Address) + " " + strings.Join(parts, ", ")
}

func subscriptionsText(s exposure.Subscriptions) string {
	var parts []string
	for _, a := range s.Added {
		if a == "*" {
			a = "every subscription"
		}
		parts = append(parts, "+"+a)
	}
	for _, r := range s.Removed {
		if r == "*" {
			r = "every subscription"
		}
		parts = append(parts, "-"+r)
	}
	return strings.Join(parts, " ")
}

func writeExposure(w *bufio.Writer, es []exposure.Exposure, named map[string]plan.RemovedService, st style.Style) {
	if len(es) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%s\n", st.BoldYellow(exposureTitle))
	for _, e := range es {
		for _, l := range style.Wrap("  "+ExposureLine(e, named), style.Width, "      ") {
			if e.Direction == exposure.Narrower {
				fmt.Fprintln(w, st.Green(l))
				continue
			}
			fmt.Fprintln(w, st.Red(l))
		}
	}
}

// maxExposureItems bounds the Services the comment's Exposure section
// lists one by one; the rest are counted by direction, so that the
// section, which is never cut, leaves room for the rest of the plan.
const maxExposureItems = 50

func (m *markdown) exposureSection() string {
	es := m.exposure
	if len(es) == 0 {
		return ""
	}
	named := removedByPrefix(m.in.Plan.Removed)
	var b strings.Builder
	b.WriteString("\n#### 🌐 Exposure (who can reach what, from where)\n\n")
	for _, e := range cut(es, maxExposureItems) {
		writeWrapped(&b, fmt.Sprintf("- **%s** `%s`: %s", e.Direction, escapeCode(exposureOwner(e, named)), escapeText(strings.Join(exposureParts(e), "; "))), "  ")
	}
	if rest := es[min(len(es), maxExposureItems):]; len(rest) > 0 {
		by := map[exposure.Direction]int{}
		for _, e := range rest {
			by[e.Direction]++
		}
		var counts []string
		for _, d := range []exposure.Direction{exposure.Wider, exposure.Narrower, exposure.Changed} {
			if by[d] > 0 {
				counts = append(counts, fmt.Sprintf("%s %s", thousands(by[d]), d))
			}
		}
		writeWrapped(&b, fmt.Sprintf("- **and %s** (%s). %s", count(len(rest), "more Service", "more Services"), strings.Join(counts, ", "), m.whereFull()), "  ")
	}
	return b.String()
}
