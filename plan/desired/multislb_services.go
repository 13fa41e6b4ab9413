package desired

import (
	"maps"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
)

// HeldServices is what ARM holds that multi-SLB Service placement depends
// on (ccm-semantics §7.6, getAzureLoadBalancerName): which load balancers
// exist and how many load-balancing rules each has, and which load
// balancer holds each Service, found as CCM finds it. Names and prefixes
// are lower-cased; load balancer names keep "-internal".
type HeldServices struct {
	// rules counts the load-balancing rules of every load balancer of the
	// LB resource group.
	rules map[string]int
	// byRules maps a Service's name prefix to the load balancers holding
	// rules named after it: CCM's ActiveServices, which it rebuilds from
	// rule names at start (reconcileMultipleStandardLoadBalancerConfigurations).
	byRules map[string]hold
	// byFrontend maps a Service's name prefix to the load balancers holding
	// a frontend named after it (getLoadBalancerNameByFrontendIPName).
	byFrontend map[string]hold
	// observed and rg find pinned IPs, on the first Service that pins one.
	observed *plan.State
	rg       string
	pinned   *pinnedIPs
}

// hold is the load balancers holding a Service's rules or frontends and
// how many: nearly always one, kept without a further allocation.
type hold struct {
	lb   string
	n    int
	more []lbCount
}

type lbCount struct {
	lb string
	n  int
}

func (h *hold) add(lb string) {
	if h.lb == "" || h.lb == lb {
		h.lb, h.n = lb, h.n+1
		return
	}
	for i := range h.more {
		if h.more[i].lb == lb {
			h.more[i].n++
			return
		}
	}
	h.more = append(h.more, lbCount{lb, 1})
}

// each calls f for every load balancer held and its count.
func (h hold) each(f func(lb string, n int)) {
	if h.lb != "" {
		f(h.lb, h.n)
	}
	for _, c := range h.more {
		f(c.lb, c.n)
	}
}

// pinnedIPs map the addresses frontends hold to their load balancers.
type pinnedIPs struct {
	// public maps a public IP, by "<rg>/<address>" and by its key, to the
	// load balancer whose frontend holds it (getLoadBalancerNameByPublicIP).
	public map[string]string
	// private maps a private address on an internal load balancer's
	// frontend to it (getLoadBalancerNameByPrivateIP).
	private map[string]string
}

// HeldFrom reads HeldServices from the observed state; nil unless cfg is a
// multi-SLB configuration. Without it (offline, or before ARM is read) a
// build places every Service as if none were placed yet.
func HeldFrom(observed *plan.State, cfg *cluster.Config) *HeldServices {
	if observed == nil || !cfg.MultiSLB() {
		return nil
	}
	h := &HeldServices{rules: map[string]int{}, byRules: make(map[string]hold, observed.Len()/8),
		byFrontend: make(map[string]hold, observed.Len()/8), observed: observed, rg: strings.ToLower(cfg.LBResourceGroup())}
	for _, r := range observed.All() {
		if !strings.EqualFold(r.ID.ResourceGroup, h.rg) {
			continue
		}
		switch r.Kind() {
		case plan.KindLoadBalancer:
			h.rules[strings.ToLower(r.Name())] += 0
		case plan.KindRule:
			lb := strings.ToLower(r.ID.Names[0])
			h.rules[lb]++
			p := namePrefix(r.Name())
			rh := h.byRules[p]
			rh.add(lb)
			h.byRules[p] = rh
		case plan.KindFrontend:
			p := namePrefix(r.Name())
			fh := h.byFrontend[p]
			fh.add(strings.ToLower(r.ID.Names[0]))
			h.byFrontend[p] = fh
		}
	}
	return h
}

// pinnedIPs indexes the addresses the frontends of the LB resource group
// hold, once.
func (h *HeldServices) pinnedIPs() *pinnedIPs {
	if h.pinned != nil {
		return h.pinned
	}
	h.pinned = &pinnedIPs{public: map[string]string{}, private: map[string]string{}}
	pipLB := map[plan.Key]string{}
	for _, fe := range h.observed.All() {
		if fe.Kind() != plan.KindFrontend || !strings.EqualFold(fe.ID.ResourceGroup, h.rg) {
			continue
		}
		lb := strings.ToLower(fe.ID.Names[0])
		f := plan.AsFrontend(fe)
		if id := f.PublicIPID(); id != "" {
			pipLB[plan.KeyOf(id)] = lb
		}
		if ip := f.PrivateIP(); ip != "" && trimInternal(lb) != lb {
			h.pinned.private[plan.CanonicalIP(ip)] = lb
		}
	}
	for k, pip := range h.observed.All() {
		if lb, ok := pipLB[k]; ok && pip.Kind() == plan.KindPublicIP {
			h.pinned.public[string(k)] = lb
			if addr := plan.AsPublicIP(pip).Address(); addr != "" {
				h.pinned.public[strings.ToLower(pip.ID.ResourceGroup)+"/"+plan.CanonicalIP(addr)] = lb
			}
		}
	}
	return h.pinned
}

// namePrefix is the part of a rule or frontend name before its first "-",
// lower-cased: the Service's prefix when CCM named it ("a" and the UID
// without dashes, so the prefix itself holds none).
func namePrefix(name string) string {
	if i := strings.IndexByte(name, '-'); i >= 0 {
		name = name[:i]
	}
	return strings.ToLower(name)
}

// exists reports whether ARM holds the load balancer (lower-cased name).
func (h *HeldServices) exists(lb string) bool {
	if h == nil {
		return false
	}
	_, ok := h.rules[lb]
	return ok
}

// ruleCounts is a copy of the rule counts, to place Services with.
func (h *HeldServices) ruleCounts() map[string]int {
	if h == nil {
		return map[string]int{}
	}
	return maps.Clone(h.rules)
}

// active are the configurations (lower-cased) whose load balancers of
// either kind hold rules of the Service: CCM's ActiveServices.
func (h *HeldServices) active(prefix string) map[string]bool {
	if h == nil {
		return nil
	}
	rh, ok := h.byRules[prefix]
	if !ok {
		return nil
	}
	out := map[string]bool{}
	rh.each(func(lb string, _ int) { out[trimInternal(lb)] = true })
	return out
}

// frontendLB is the configuration whose load balancer of the Service's kind
// holds a frontend named after it, "" when none does. Of several (a
// half-done move), the first by name: CCM takes the first of its list.
func (h *HeldServices) frontendLB(prefix string, internal bool) string {
	if h == nil {
		return ""
	}
	best := ""
	h.byFrontend[prefix].each(func(lb string, _ int) {
		if (trimInternal(lb) != lb) == internal && (best == "" || lb < best) {
			best = lb
		}
	})
	return trimInternal(best)
}

// SameLBs reports whether a build with held places every Service of state
// on the load balancer state has it on: true when ARM holds each of them
// (its rules, and its frontend if any) there and nowhere else, since a
// Service stays on the load balancer holding it, which the build without
// held chose among the eligible ones; true too when ARM holds no load
// balancer at all. When it does not, the build must be made again with
// held. Every Service has rules, named after it.
func SameLBs(state *plan.State, held *HeldServices) bool {
	if held == nil || len(held.rules) == 0 {
		return true
	}
	for _, r := range state.All() {
		if r.Kind() == plan.KindRule && !held.onlyOn(namePrefix(r.Name()), strings.ToLower(r.ID.Names[0])) {
			return false
		}
	}
	return true
}

// onlyOn reports whether ARM holds the Service's rules, and its frontend if
// any, on lb alone.
func (h *HeldServices) onlyOn(prefix, lb string) bool {
	rh := h.byRules[prefix]
	if rh.lb != lb || len(rh.more) > 0 {
		return false
	}
	fh := h.byFrontend[prefix]
	return fh.lb == "" || fh.lb == lb && len(fh.more) == 0
}
