package planview

import (
	"fmt"
	"strings"
)

// layout is what one rendering of the comment shows.
type layout struct {
	services int // Services shown in full, in order; the rest are counted
	// keepDisruptive and keepShared cut those sections (-1: whole).
	keepDisruptive, keepShared int
	// collapsed shows shared non-disruptive changes without attributes.
	collapsed bool
}

func (l layout) cuts() bool { return l.keepDisruptive >= 0 || l.keepShared >= 0 }

// fit renders the comment within the budget, giving up detail in a fixed
// order and stopping as soon as it fits:
//  1. Services past the budget, in order, are counted per namespace
//     instead of shown (ux-anchors §8.4 step 4, in natural order rather
//     than largest first, so a reviewer knows which ones are there);
//  2. shared changes that are not disruptive lose their attribute lines;
//  3. the shared section, then the disruptive one, keep only the changes
//     that fit, and count the others.
//
// Steps 2 and 3 happen only for plans whose disruptive and shared changes
// alone overflow the budget. Whatever is left out, the comment says so at
// the top and says where the full plan is.
func (m *markdown) fit() (string, bool) {
	all := layout{services: len(m.services), keepDisruptive: -1, keepShared: -1}
	if text := m.render(all); m.length(text) <= m.opts.Budget {
		return text, true
	}
	for _, collapsed := range []bool{false, true} {
		l := layout{keepDisruptive: -1, keepShared: -1, collapsed: collapsed}
		if k, ok := m.mostServices(l); ok {
			l.services = k
			return m.render(l), false
		}
	}
	return m.cutSections(), false
}

// mostServices finds the most Services (in order) l fits with.
func (m *markdown) mostServices(l layout) (int, bool) {
	fixed := m.length(m.fixed(l))
	folds := m.foldSizes()
	best, found, used := 0, false, 0
	for k := 0; k <= len(m.services); k++ {
		if k > 0 {
			used += m.length(m.serviceBlock(k - 1))
		}
		if fixed+used+folds[k] <= m.opts.Budget {
			best, found = k, true
		}
		if fixed+used > m.opts.Budget {
			break
		}
	}
	return best, found
}

// cutSections keeps as many shared, then disruptive, changes as fit with
// every Service counted.
func (m *markdown) cutSections() string {
	l := layout{keepDisruptive: -1, keepShared: 0, collapsed: true}
	fits := func(l layout) bool { return m.length(m.render(l)) <= m.opts.Budget }
	if fits(l) {
		l.keepShared = largest(len(m.shared), func(n int) bool { return fits(layout{keepDisruptive: -1, keepShared: n, collapsed: true}) })
		return m.render(l)
	}
	l.keepDisruptive = largest(len(m.disruptive()), func(n int) bool { return fits(layout{keepDisruptive: n, keepShared: 0, collapsed: true}) })
	return m.hardLimit(m.render(l))
}

// largest is the largest n in [0, max] with ok(n), ok being monotone and
// ok(0) assumed.
func largest(max int, ok func(int) bool) int {
	lo, hi := 0, max
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// fixed is everything but the Services and their fold: the sizes the
// search works with.
func (m *markdown) fixed(l layout) string {
	var b strings.Builder
	b.WriteString(m.top())
	b.WriteString(m.notice(l, len(m.services), true))
	b.WriteString(m.disruptiveSection(m.disruptive(), l.keepDisruptive))
	b.WriteString(m.sharedSection(l.keepShared, l.collapsed))
	b.WriteString(m.driftSection())
	b.WriteString(m.findings())
	b.WriteString(m.servicesHeading())
	b.WriteString(m.footer())
	return b.String()
}

func (m *markdown) render(l layout) string {
	var b strings.Builder
	b.WriteString(m.top())
	b.WriteString(m.notice(l, l.services, l.services < len(m.services)))
	b.WriteString(m.disruptiveSection(m.disruptive(), l.keepDisruptive))
	b.WriteString(m.sharedSection(l.keepShared, l.collapsed))
	b.WriteString(m.driftSection())
	b.WriteString(m.findings())
	b.WriteString(m.servicesHeading())
	for i := 0; i < l.services; i++ {
		b.WriteString(m.serviceBlock(i))
	}
	b.WriteString(m.foldSection(l.services))
	b.WriteString(m.footer())
	return b.String()
}

// notice says at the top what the comment leaves out, and where the full
// plan is; nothing when it leaves nothing out. shown is the number of
// Services shown (fixed measures with the largest), folding whether some
// are not.
func (m *markdown) notice(l layout, shown int, folding bool) string {
	var text string
	switch {
	case l.cuts():
		text = "> **This plan is too large for one comment:** every Service is counted per namespace at the end, " +
			"and some disruptive or shared changes are left out (counted where they would be). " + m.whereFull()
	case l.collapsed:
		text = fmt.Sprintf("> **This comment shows %d of %s;** the others are counted per namespace at the end, and shared changes "+
			"that are not disruptive are shown without their attributes. %s", shown, objectCounts(m.services)+" with changes", m.whereFull())
	case folding:
		text = fmt.Sprintf("> **This comment shows %d of %s;** the others are counted per namespace at the end. %s",
			shown, objectCounts(m.services)+" with changes", m.whereFull())
	default:
		return ""
	}
	var b strings.Builder
	b.WriteString("\n")
	writeWrapped(&b, text, "> ")
	return b.String()
}

// hardLimit is the last guard of the budget, for plans whose findings or
// blocked entries alone overflow it: it cuts the text at a line, closes an
// open fence and says so.
func (m *markdown) hardLimit(text string) string {
	if m.length(text) <= m.opts.Budget {
		return text
	}
	tail := fmt.Sprintf("\n\n**Cut here: the comment limit was reached.** %s\n", m.whereFull())
	room := m.opts.Budget - m.length(tail) - m.length(m.fence) - 2
	runes := []rune(text)
	for m.length(string(runes)) > room {
		runes = runes[:len(runes)*9/10]
	}
	cut := string(runes)
	if i := strings.LastIndexByte(cut, '\n'); i >= 0 {
		cut = cut[:i+1]
	}
	if strings.Count(cut, "\n"+m.fence)%2 == 1 {
		cut += m.fence + "\n"
	}
	return cut + tail
}
