package exposure

import (
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// sourcesDirection compares the sources allowed before and after: wider
// when some source is added that none before covered, narrower when some
// is removed that none after covers; false when the same addresses are
// allowed (ranges merged or split, ccm-semantics §5.3).
func sourcesDirection(before, after []string) (Direction, bool) {
	wider := slices.ContainsFunc(after, func(s string) bool { return !covered(s, before) })
	narrower := slices.ContainsFunc(before, func(s string) bool { return !covered(s, after) })
	switch {
	case wider && narrower:
		return Changed, true
	case wider:
		return Wider, true
	case narrower:
		return Narrower, true
	}
	return "", false
}

// everyone are the sources NSGs read as any address at all.
func everyone(s string) bool {
	switch strings.ToLower(s) {
	case "*", "internet", "any", "0.0.0.0/0", "::/0":
		return true
	}
	return false
}

// covered reports whether set admits every address src stands for: the
// same source, one admitting everyone, or prefixes that together hold it
// (10.0.0.0/23 is 10.0.0.0/24 and 10.0.1.0/24). A service tag is covered
// by itself or by everyone only.
func covered(src string, set []string) bool {
	var prefixes []netip.Prefix
	for _, s := range set {
		if strings.EqualFold(s, src) || everyone(s) {
			return true
		}
		if q, ok := prefixOf(s); ok {
			prefixes = append(prefixes, q)
		}
	}
	p, ok := prefixOf(src)
	return ok && coveredBy(p, prefixes)
}

// coveredBy reports whether the prefixes hold every address of p: one of
// them contains it, or each of its halves is held. A half no prefix
// overlaps fails at once, so the search follows the prefixes only.
func coveredBy(p netip.Prefix, prefixes []netip.Prefix) bool {
	overlaps := false
	for _, q := range prefixes {
		if q.Addr().Is4() != p.Addr().Is4() || !q.Overlaps(p) {
			continue
		}
		if q.Bits() <= p.Bits() {
			return true // overlapping and no longer: it contains p
		}
		overlaps = true
	}
	if !overlaps || p.Bits() == p.Addr().BitLen() {
		return false
	}
	low := netip.PrefixFrom(p.Addr(), p.Bits()+1)
	return coveredBy(low, prefixes) && coveredBy(netip.PrefixFrom(upperHalf(p), p.Bits()+1), prefixes)
}

// upperHalf is the first address of p's upper half.
func upperHalf(p netip.Prefix) netip.Addr {
	b := p.Addr().AsSlice()
	bit := p.Bits()
	b[bit/8] |= 0x80 >> (bit % 8)
	a, _ := netip.AddrFromSlice(b)
	return a
}

// prefixOf reads a prefix or a bare address (a /32 or /128).
func prefixOf(s string) (netip.Prefix, bool) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), true
	}
	if a, err := netip.ParseAddr(s); err == nil {
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	return netip.Prefix{}, false
}

func diffSubscriptions(sides [2][]string) Subscriptions {
	return Subscriptions{Added: minusList(sides[1], sides[0]), Removed: minusList(sides[0], sides[1])}
}

// subscriptionsDirection: added subscriptions widen, removed ones narrow;
// a list with "*" covers every subscription.
func subscriptionsDirection(d Subscriptions) []Direction {
	var out []Direction
	if len(d.Added) > 0 {
		out = append(out, Wider)
	}
	if len(d.Removed) > 0 && !(slices.Contains(d.Added, "*")) {
		out = append(out, Narrower)
	}
	return out
}

// minusList is the members of a not in b, sorted, never nil.
func minusList(a, b []string) []string {
	out := []string{}
	for _, s := range a {
		if !slices.ContainsFunc(b, func(t string) bool { return strings.EqualFold(s, t) }) && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.Sort(out)
	return out
}

// minus is the keys of a not in b, in port order.
func minus(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	return sortPorts(out)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sortedPorts(m map[string]bool) []string { return sortPorts(sortedKeys(m)) }

// sortPorts orders "proto/port" by protocol, then port number.
func sortPorts(ports []string) []string {
	slices.SortFunc(ports, func(a, b string) int {
		pa, na := splitPort(a)
		pb, nb := splitPort(b)
		if pa != pb {
			return strings.Compare(pa, pb)
		}
		if na != nb {
			return na - nb
		}
		return strings.Compare(a, b)
	})
	return ports
}

func splitPort(s string) (string, int) {
	proto, port, _ := strings.Cut(s, "/")
	first, _, _ := strings.Cut(port, "-")
	n, err := strconv.Atoi(first)
	if err != nil {
		n = 1 << 30
	}
	return proto, n
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}
