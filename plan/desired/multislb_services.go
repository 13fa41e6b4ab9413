package desired

import (
	"maps"
	"slices"
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
	// byPrefix indexes services by a Service's name prefix.
	byPrefix map[string]int32
	services []heldService
	// observed and rg find pinned IPs, on the first Service that pins one.
	observed *plan.State
	rg       string
	pinned   *pinnedIPs
}

// heldService is where ARM holds one Service: the load balancers holding
// rules named after it (CCM's ActiveServices, which it rebuilds from rule
// names at start, reconcileMultipleStandardLoadBalancerConfigurations) and
// those holding a frontend named after it
// (getLoadBalancerNameByFrontendIPName).
type heldService struct{ rules, frontends hold }

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
	h := &HeldServices{rules: map[string]int{}, byPrefix: make(map[string]int32, observed.Len()/8),
		services: make([]heldService, 0, observed.Len()/8),
		observed: observed, rg: strings.ToLower(cfg.LBResourceGroup())}
	for _, r := range observed.All() {
		kind := r.Kind()
		if kind != plan.KindRule && kind != plan.KindFrontend && kind != plan.KindLoadBalancer || !strings.EqualFold(r.ID.ResourceGroup, h.rg) {
			continue
		}
		lb := strings.ToLower(r.ID.Names[0])
		if kind == plan.KindLoadBalancer {
			h.rules[lb] += 0
			continue
		}
		p := namePrefix(r.Name())
		i, ok := h.byPrefix[p]
		if !ok {
			i = int32(len(h.services))
			h.byPrefix[p] = i
			h.services = append(h.services, heldService{})
		}
		if kind == plan.KindRule {
			h.rules[lb]++
			h.services[i].rules.add(lb)
		} else {
			h.services[i].frontends.add(lb)
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

// of is where ARM holds the Service with that (lower-cased) prefix.
func (h *HeldServices) of(prefix string) heldService {
	if i, ok := h.byPrefix[prefix]; ok {
		return h.services[i]
	}
	return heldService{}
}

// active are the configurations (lower-cased) whose load balancers of
// either kind hold rules of the Service: CCM's ActiveServices.
func (h *HeldServices) active(prefix string) map[string]bool {
	if h == nil {
		return nil
	}
	rh := h.of(prefix).rules
	if rh.lb == "" {
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
	h.of(prefix).frontends.each(func(lb string, _ int) {
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
// held. It looks up the configurations' load balancers rather than
// walking state: at 10,000 Services that walk cost 2% of a plan.
func SameLBs(state *plan.State, scope plan.Scope, cfg *cluster.Config, held *HeldServices) bool {
	if held == nil || len(held.rules) == 0 {
		return true
	}
	refs := scope.Services
	if !slices.IsSortedFunc(refs, func(a, b plan.ServiceRef) int { return strings.Compare(a.Name, b.Name) }) {
		refs = slices.SortedFunc(slices.Values(refs), func(a, b plan.ServiceRef) int { return strings.Compare(a.Name, b.Name) })
	}
	for _, c := range cfg.MultipleStandardLoadBalancerConfigurations {
		for _, name := range []string{c.Name, c.Name + internalSuffix} {
			lb, ok := state.Get(plan.NewID(cfg.SubscriptionForIDs(), cfg.LBResourceGroup(), plan.KindLoadBalancer, name).Key())
			if !ok {
				continue
			}
			lower := strings.ToLower(name)
			for _, svc := range lb.Services {
				i, found := slices.BinarySearchFunc(refs, svc, func(r plan.ServiceRef, k string) int { return strings.Compare(r.Name, k) })
				if !found || !held.onlyOn(strings.ToLower(refs[i].Prefix), lower) {
					return false
				}
			}
		}
	}
	return true
}

// onlyOn reports whether ARM holds the Service's rules, and its frontend if
// any, on lb alone.
func (h *HeldServices) onlyOn(prefix, lb string) bool {
	held := h.of(prefix)
	rh := held.rules
	if rh.lb != lb || len(rh.more) > 0 {
		return false
	}
	fh := held.frontends
	return fh.lb == "" || fh.lb == lb && len(fh.more) == 0
}
