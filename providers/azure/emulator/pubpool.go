package emulator

import (
	"container/heap"
	"net/netip"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// addressPool hands out public addresses from fixed ranges, lowest free
// first, in O(1) amortised: a cursor that only ever passes addresses in use,
// plus a heap of the addresses freed behind it. An address is returned, not
// reserved: the write claiming it may still be refused, and once it is
// committed the store's index marks it used, so the next call moves on.
type addressPool struct {
	ranges []netip.Prefix
	r      int        // range of the cursor
	cursor netip.Addr // every candidate before it is used or in freed
	freed  candidates
}

type candidate struct {
	r int
	a netip.Addr
}

func (c candidate) less(o candidate) bool {
	if c.r != o.r {
		return c.r < o.r
	}
	return c.a.Less(o.a)
}

// Public addresses come from the documentation ranges (RFC 5737, then RFC
// 2544's benchmarking 198.18.0.0/15 once those 762 addresses run out; IPv6
// from 2001:db8::/112), never a routable address.
func newPublicPools() (v4, v6 *addressPool) {
	return newAddressPool("203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24", "198.18.0.0/15"),
		newAddressPool("2001:db8::/112")
}

func newAddressPool(ranges ...string) *addressPool {
	p := &addressPool{}
	for _, r := range ranges {
		p.ranges = append(p.ranges, netip.MustParsePrefix(r))
	}
	p.cursor = p.ranges[0].Addr().Next()
	return p
}

// eligible: not the network or last address of its range, and no IPv4
// address ending in .255.
func (p *addressPool) eligible(c candidate) bool {
	pfx := p.ranges[c.r]
	return c.a != pfx.Addr() && c.a != plan.LastAddr(pfx) && !strings.HasSuffix(c.a.String(), ".255")
}

// next returns the lowest eligible address for which used is false, or ""
// when every range is exhausted.
func (p *addressPool) next(used func(string) bool) string {
	for len(p.freed) > 0 {
		top := p.freed[0]
		if s := top.a.String(); !used(s) {
			return s
		}
		heap.Pop(&p.freed)
	}
	for p.r < len(p.ranges) {
		c := candidate{p.r, p.cursor}
		if !p.ranges[p.r].Contains(c.a) {
			p.r++
			if p.r < len(p.ranges) {
				p.cursor = p.ranges[p.r].Addr().Next()
			}
			continue
		}
		if s := c.a.String(); p.eligible(c) && !used(s) {
			return s
		}
		p.cursor = p.cursor.Next()
	}
	return ""
}

// release puts an address no longer in use back, when the cursor is past it.
func (p *addressPool) release(ip string) {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return
	}
	for r, pfx := range p.ranges {
		if !pfx.Contains(a) {
			continue
		}
		c := candidate{r, a}
		if p.eligible(c) && c.less(candidate{p.r, p.cursor}) {
			heap.Push(&p.freed, c)
		}
		return
	}
}

type candidates []candidate

func (h candidates) Len() int           { return len(h) }
func (h candidates) Less(i, j int) bool { return h[i].less(h[j]) }
func (h candidates) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *candidates) Push(x any)        { *h = append(*h, x.(candidate)) }
func (h *candidates) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
