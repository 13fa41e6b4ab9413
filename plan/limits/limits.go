// Package limits checks a scheduled plan against ARM's limits
// (arm-rules §2.4; ux-anchors §8.2 item 7): every resource the plan writes
// is measured as it will be after apply. It is its own pass over the plan,
// after the scheduler.
package limits

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// ARM limits checked at plan time. Probes have no documented per-LB limit
// in arm-rules §2.4, so none is checked.
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

// ErrLimitExceeded is wrapped by Check's error when the planned state would
// exceed an ARM limit: invalid input, not a runtime failure.
var ErrLimitExceeded = errors.New("plan exceeds ARM limits")

// Check measures the final write of every resource p puts. A limit
// exceeded is an error naming the resource and the count; the uses above
// 80% are returned.
func Check(p *plan.Plan, observed *plan.Index) ([]plan.Limit, error) {
	final := map[plan.Key]*plan.Step{}
	for _, st := range p.Steps {
		final[st.Target.Key()] = st
	}
	var all []plan.Limit
	for _, k := range slices.Sorted(maps.Keys(final)) {
		st := final[k]
		if st.Op != plan.OpPut {
			continue
		}
		addr := st.Target.Address()
		switch st.Target.Kind {
		case plan.KindLoadBalancer:
			all = append(all, lbLimits(addr, st)...)
			all = append(all, plan.Limit{Name: "pls_per_lb", Scope: addr, Used: plsOnLB(k, p, observed), Max: maxPLSPerLB})
		case plan.KindSecurityGroup:
			all = append(all, nsgLimits(addr, st.Children)...)
		case plan.KindPrivateLinkService:
			n := plan.AsPrivateLinkService(st.Body).NATIPCount()
			all = append(all, plan.Limit{Name: "pls_nat_ips", Scope: addr, Used: n, Max: maxPLSNATIPs})
		}
	}
	var errs []error
	var warn []plan.Limit
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

func lbLimits(addr string, st *plan.Step) []plan.Limit {
	lb := plan.AsLoadBalancer(st.Body)
	rules := lb.InboundNATRuleCount()
	frontends := 0
	for _, c := range st.Children {
		switch c.Kind() {
		case plan.KindFrontend:
			frontends++
		case plan.KindRule:
			rules++
		}
	}
	maxFE, maxRules := maxFrontendsStandard, maxRulesStandard
	if strings.EqualFold(lb.SKUName(), "Basic") {
		maxFE, maxRules = maxFrontendsBasic, maxRulesBasic
	}
	return []plan.Limit{
		{Name: "lb_frontends", Scope: addr, Used: frontends, Max: maxFE},
		{Name: "lb_rules", Scope: addr, Used: rules, Max: maxRules},
	}
}

func nsgLimits(addr string, rules []*plan.Resource) []plan.Limit {
	src, dst := 0, 0
	for _, r := range rules {
		rule := plan.AsSecurityRule(r)
		src += rule.SourceCount()
		dst += rule.DestinationCount()
	}
	return []plan.Limit{
		{Name: "nsg_rules", Scope: addr, Used: len(rules), Max: maxNSGRules},
		{Name: "nsg_source_prefixes", Scope: addr, Used: src, Max: maxNSGPrefixes},
		{Name: "nsg_destination_prefixes", Scope: addr, Used: dst, Max: maxNSGPrefixes},
	}
}

// plsOnLB counts the private link services on the LB's frontends after the
// plan: those observed and not deleted, plus those created.
func plsOnLB(lb plan.Key, p *plan.Plan, observed *plan.Index) int {
	after := map[plan.Key]*plan.Resource{}
	for _, e := range observed.OfKind(plan.KindPrivateLinkService) {
		after[e.Key] = e.R
	}
	for _, c := range p.Changes {
		if c.ID().Kind != plan.KindPrivateLinkService {
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
		for _, fe := range plan.AsPrivateLinkService(r).FrontendIDs() {
			if parent, ok := fe.Parent(); ok && parent == lb {
				n++
				break
			}
		}
	}
	return n
}
