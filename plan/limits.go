package plan

import (
	"errors"
	"fmt"
	"strings"
)

// ARM limits checked at plan time (arm-rules §2.4; ux-anchors §8.2 item 7).
// Probes have no documented per-LB limit in arm-rules §2.4, so none is
// checked.
const (
	maxFrontendsStandard = 600
	maxRulesStandard     = 1500
	maxFrontendsBasic    = 200
	maxRulesBasic        = 250
	maxNSGRules          = 1000
	maxNSGPrefixes       = 4000
	maxPLSPerLB          = 8
	maxPLSNATIPs         = 8
)

// checkLimits measures every resource the plan writes as it will be after
// apply. A limit exceeded is an error naming the resource and the count; a
// limit above 80% is returned as a warning entry.
// ErrLimitExceeded is wrapped by Diff's error when the planned state would
// exceed an ARM limit: invalid input, not a runtime failure.
var ErrLimitExceeded = errors.New("plan exceeds ARM limits")

func checkLimits(p *Plan, d *differ) ([]Limit, error) {
	final := map[Key]*Step{}
	for _, st := range p.Steps {
		final[st.Target.Key()] = st
	}
	var all []Limit
	for _, k := range sortedStepKeys(final) {
		st := final[k]
		if st.Op != OpPut {
			continue
		}
		addr := st.Target.Address()
		switch st.Target.Kind {
		case KindLoadBalancer:
			all = append(all, lbLimits(addr, st)...)
			all = append(all, Limit{Name: "pls_per_lb", Scope: addr, Used: d.plsOnLB(k, p), Max: maxPLSPerLB})
		case KindSecurityGroup:
			all = append(all, nsgLimits(addr, st.Children)...)
		case KindPrivateLinkService:
			n := len(asList(st.Body.Properties["ipConfigurations"]))
			all = append(all, Limit{Name: "pls_nat_ips", Scope: addr, Used: n, Max: maxPLSNATIPs})
		}
	}
	var errs []error
	var warn []Limit
	for _, l := range all {
		switch {
		case l.Used > l.Max:
			errs = append(errs, fmt.Errorf("%s: %s would be %d, over the limit of %d", l.Scope, l.Name, l.Used, l.Max))
		case l.Used*5 > l.Max*4:
			warn = append(warn, l)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrLimitExceeded, errors.Join(errs...))
	}
	return warn, nil
}

func sortedStepKeys(m map[Key]*Step) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

func lbLimits(addr string, st *Step) []Limit {
	frontends, rules := 0, len(asList(st.Body.Properties["inboundNatRules"]))
	for _, c := range st.Children {
		switch c.Kind() {
		case KindFrontend:
			frontends++
		case KindRule:
			rules++
		}
	}
	maxFE, maxRules := maxFrontendsStandard, maxRulesStandard
	if name, _ := st.Body.SKU["name"].(string); strings.EqualFold(name, "Basic") {
		maxFE, maxRules = maxFrontendsBasic, maxRulesBasic
	}
	return []Limit{
		{Name: "lb_frontends", Scope: addr, Used: frontends, Max: maxFE},
		{Name: "lb_rules", Scope: addr, Used: rules, Max: maxRules},
	}
}

func nsgLimits(addr string, rules []*Resource) []Limit {
	src, dst := 0, 0
	for _, r := range rules {
		src += prefixCount(r, "sourceAddressPrefix")
		dst += prefixCount(r, destPrefix)
	}
	return []Limit{
		{Name: "nsg_rules", Scope: addr, Used: len(rules), Max: maxNSGRules},
		{Name: "nsg_source_prefixes", Scope: addr, Used: src, Max: maxNSGPrefixes},
		{Name: "nsg_destination_prefixes", Scope: addr, Used: dst, Max: maxNSGPrefixes},
	}
}

func prefixCount(r *Resource, field string) int {
	n := len(asList(r.Properties[field+"es"]))
	if v, ok := r.Properties[field]; ok && v != nil && v != "" {
		n++
	}
	return n
}

func asList(v any) []any { l, _ := v.([]any); return l }

// plsOnLB counts the private link services on the LB's frontends after the
// plan: those observed and not deleted, plus those created.
func (d *differ) plsOnLB(lb Key, p *Plan) int {
	after := map[Key]*Resource{}
	for _, e := range ofKind(d.obsList, KindPrivateLinkService) {
		after[e.key] = e.r
	}
	for _, c := range p.Changes {
		if c.ID().Kind != KindPrivateLinkService {
			continue
		}
		if c.After != nil {
			after[c.Key()] = c.After
		} else {
			delete(after, c.Key())
		}
	}
	n := 0
	for _, r := range after {
		for _, fe := range asList(r.Properties["loadBalancerFrontendIpConfigurations"]) {
			if id, err := ParseID(refID(fe)); err == nil {
				if pid, ok := id.ParentID(); ok && pid.Key() == lb {
					n++
					break
				}
			}
		}
	}
	return n
}
