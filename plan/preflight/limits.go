package preflight

import (
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

// checkLimits measures the final write of every resource the plan puts: a
// limit exceeded is a refusal naming the resource and the count; a use
// above 80% is a warning (ux-anchors §8.2 item 7).
func checkLimits(w *world) ([]plan.Limit, []plan.Refusal) {
	var all []plan.Limit
	for _, k := range w.targets {
		st := w.final[k]
		if st.Op != plan.OpPut {
			continue
		}
		addr := st.Target.Address()
		switch st.Target.Kind {
		case plan.KindLoadBalancer:
			all = append(all, lbLimits(addr, st)...)
			all = append(all, plan.Limit{Name: "pls_per_lb", Scope: addr, Used: w.plsOnLB(k), Max: maxPLSPerLB})
		case plan.KindSecurityGroup:
			all = append(all, nsgLimits(addr, st.Children)...)
		case plan.KindPrivateLinkService:
			n := plan.AsPrivateLinkService(st.Body).NATIPCount()
			all = append(all, plan.Limit{Name: "pls_nat_ips", Scope: addr, Used: n, Max: maxPLSNATIPs})
		}
	}
	var refused []plan.Refusal
	var warn []plan.Limit
	for _, l := range all {
		switch {
		case l.Used > l.Max:
			refused = append(refused, plan.Refusal{Address: l.Scope, Code: plan.RefuseLimit, Limit: &l})
		case l.Used*5 > l.Max*4:
			warn = append(warn, l)
		}
	}
	return warn, refused
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
