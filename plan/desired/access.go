package desired

import (
	"net/netip"
	"sort"

	"github.com/azsvc/azsvc/plan/service"
)

// access is a Service's NSG input (ccm-semantics §5.2,
// loadbalancer/accesscontrol.go).
type access struct {
	sourceRanges  []netip.Prefix // group A: spec.loadBalancerSourceRanges
	allowedRanges []netip.Prefix // group B: azure-allowed-ip-ranges + load-balancer-source-ranges
	invalid       []string
	tags          []string // azure-allowed-service-tags, plus Internet when implied
	denyAll       bool
	disabled      bool // azure-disable-load-balancer-nsg-rule
	additional    []netip.Addr
}

func analyzeAccess(r *refusal, s *service.Service) access {
	var a access
	var bad []string
	a.sourceRanges, a.invalid = s.SourceRanges()
	a.allowedRanges, bad = s.AllowedIPRanges()
	a.invalid = append(a.invalid, bad...)
	if len(a.sourceRanges) > 0 && len(a.allowedRanges) > 0 {
		r.add(CodeSourceRanges, "spec.loadBalancerSourceRanges", "keep one of the two; merge the ranges into it",
			"cannot set both spec.LoadBalancerSourceRanges and service annotation %s", service.AnnAllowedIPRanges)
	}
	a.tags = s.AllowedServiceTags()
	if allowFromInternet(a, s.InternalForNSG()) && !allowsAll(a.sourceRanges) && !allowsAll(a.allowedRanges) {
		a.tags = append(a.tags, serviceTagInternet)
	}
	ranged := len(a.sourceRanges) > 0 || len(a.allowedRanges) > 0
	a.denyAll = (s.Bool(service.AnnDenyAllExceptSourceRanges) && ranged) || len(a.invalid) > 0
	a.disabled = s.Bool(service.AnnDisableNSGRule)
	additional, err := s.AdditionalPublicIPs()
	if err != nil {
		r.add(CodeAdditionalIPs, annField(service.AnnAdditionalPublicIPs), "list IP addresses separated by commas", "%v", err)
	}
	a.additional = additional
	return a
}

// allowFromInternet is IsAllowFromInternet: no service tags, no range group
// that excludes anything, no invalid range, and for internal Services an
// explicit range (issue #698).
func allowFromInternet(a access, internal bool) bool {
	if len(a.tags) > 0 || len(a.invalid) > 0 {
		return false
	}
	if len(a.sourceRanges) > 0 && !allowsAll(a.sourceRanges) || len(a.allowedRanges) > 0 && !allowsAll(a.allowedRanges) {
		return false
	}
	return !internal || len(a.sourceRanges) > 0 || len(a.allowedRanges) > 0
}

func allowsAll(ps []netip.Prefix) bool {
	for _, p := range ps {
		if p.Bits() == 0 {
			return true
		}
	}
	return false
}

// rangesOf returns the aggregated ranges of family f as sorted strings:
// all ranges of a family go into one rule (§5.3).
func (a access) rangesOf(f family) []string {
	var ps []netip.Prefix
	for _, p := range append(append([]netip.Prefix(nil), a.sourceRanges...), a.allowedRanges...) {
		if p.Addr().Is4() == (f == ipv4) {
			ps = append(ps, p)
		}
	}
	ps = aggregate(ps)
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	sort.Strings(out)
	return out
}

// aggregate merges overlapping and adjacent prefixes into the fewest
// covering prefixes (iputil.AggregatePrefixes): drop prefixes inside
// another, then join sibling pairs into their parent, until stable.
func aggregate(ps []netip.Prefix) []netip.Prefix {
	for changed := true; changed; {
		changed = false
		sort.Slice(ps, func(i, j int) bool {
			if c := ps[i].Addr().Compare(ps[j].Addr()); c != 0 {
				return c < 0
			}
			return ps[i].Bits() < ps[j].Bits()
		})
		var out []netip.Prefix
		for _, p := range ps {
			if n := len(out); n > 0 && out[n-1].Contains(p.Addr()) && out[n-1].Bits() <= p.Bits() {
				changed = changed || out[n-1] != p
				continue
			}
			if n := len(out); n > 0 && siblings(out[n-1], p) {
				out[n-1] = netip.PrefixFrom(p.Addr(), p.Bits()-1).Masked()
				changed = true
				continue
			}
			out = append(out, p)
		}
		ps = out
	}
	return ps
}

func siblings(a, b netip.Prefix) bool {
	if a.Bits() != b.Bits() || a.Bits() == 0 || a == b {
		return false
	}
	return netip.PrefixFrom(a.Addr(), a.Bits()-1).Masked() == netip.PrefixFrom(b.Addr(), b.Bits()-1).Masked()
}
