// Package desired turns Services and the cluster configuration into the
// Azure resources the Azure cloud controller manager (CCM) would build for
// them, following reference/ccm-semantics.md. It is pure: no I/O, and the
// same input always gives the same State, byte for byte.
//
// Values only Azure can assign are markers: a dynamic private IP or a new
// public IP address is plan.Unknown; an NSG destination copying one is
// plan.AfterApply(source, field). A frontend pinned to a user-assigned
// public IP by address references a PIP whose name only ARM knows; its
// publicIPAddress.id is plan.PublicIPByAddress(plan.PublicIPCollection(sub,
// rg), address): the diff resolves it to the observed PIP in that resource
// group with that address. With floating IP disabled, NSG destinations are
// plan.BackendNodeIPs(pool): the diff reads them from the observed pool.
package desired

import (
	"sort"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// builder accumulates the desired state of all Services.
type builder struct {
	cfg       *cluster.Config
	sub       string
	state     *plan.State
	scope     plan.Scope
	diags     []service.Diagnostic
	frontends map[string]*frontendEntry // by sharing key
	nsgRules  map[string]*nsgRule       // by rule name
	ruleCount map[string]int            // LB name -> rules, for multi-SLB placement
	vmSetLBs  map[string]string         // basic-SKU VM-set LB names used, by lower-case name
	// placed indexes LBs, pools and probes by placeKey: rendering ARM IDs
	// into keys dominates Build's cost at 10,000 Services, so lookups of
	// resources the builder made itself avoid it.
	placed map[string]*plan.Resource
}

// placeKey identifies a resource the builder created: kind and names.
func placeKey(id plan.ID) string {
	k := string(id.Kind)
	for _, n := range id.Names {
		k += "|" + n
	}
	return k
}

// put adds r to the state unless a resource with the same place key is
// there, and returns the resource in the state.
func (b *builder) put(r *plan.Resource) *plan.Resource {
	k := placeKey(r.ID)
	if existing, ok := b.placed[k]; ok {
		return existing
	}
	b.placed[k] = r
	b.state.Put(r)
	return r
}

// Build returns the desired state of svcs under cfg, the scope of a plan
// over them, and the errors for which CCM would refuse a Service. A refused
// Service contributes no resources and is left out of the scope, so a plan
// leaves its Azure resources alone, as CCM does while it retries. Services
// that do not want a load balancer (other types, a loadBalancerClass) are
// skipped silently. cfg must have passed Validate.
func Build(svcs []*service.Service, cfg *cluster.Config) (*plan.State, plan.Scope, []service.Diagnostic) {
	b := &builder{
		cfg:       cfg,
		sub:       cfg.SubscriptionForIDs(),
		state:     plan.NewState(),
		scope:     plan.Scope{Cluster: cfg.ClusterName},
		frontends: map[string]*frontendEntry{},
		nsgRules:  map[string]*nsgRule{},
		ruleCount: map[string]int{},
		vmSetLBs:  map[string]string{},
		placed:    map[string]*plan.Resource{},
	}
	seen := map[string]bool{}
	for _, s := range sortedServices(svcs) {
		if !wantsLoadBalancer(s) || seen[s.Key()] {
			continue
		}
		seen[s.Key()] = true
		info, diags := analyze(s, cfg)
		if len(diags) > 0 {
			b.diags = append(b.diags, diags...)
			continue
		}
		b.addService(info)
	}
	b.finishNSG()
	b.scope.LoadBalancerNames = b.managedLBNames()
	if cfg.SecurityGroupName != "" {
		b.scope.SecurityGroup = b.nsgID().Key()
	}
	return b.state, b.scope, b.diags
}

// sortedServices orders by namespace/name so that the first Service of a
// shared frontend, which names it, does not depend on file order.
func sortedServices(svcs []*service.Service) []*service.Service {
	out := make([]*service.Service, 0, len(svcs))
	for _, s := range svcs {
		if s != nil && s.Service != nil {
			out = append(out, s)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// addService places one analysed Service: LB, then per family frontend,
// pool, rules, probes, PIP, NSG rules and PLS.
func (b *builder) addService(info *svcInfo) {
	lbName, ok := b.selectLB(info)
	if !ok {
		return
	}
	lbID := plan.NewID(b.sub, b.cfg.LBResourceGroup(), plan.KindLoadBalancer, lbName)
	lbKey := lbID.Key()
	choices := make([]frontendChoice, len(info.families))
	for i, f := range info.families {
		choices[i] = b.chooseFrontend(info, lbID, lbKey, f)
	}
	rules := make([][]*plan.Resource, len(info.families))
	for i, f := range info.families {
		rules[i] = b.rulesFor(info, f, lbID, choices[i].id)
		if !b.checkConflicts(info, choices[i], rules[i]) {
			return
		}
	}
	b.ensureLB(lbID, info.key)
	dests := map[family]*destSet{}
	for i, f := range info.families {
		b.ensurePool(info, b.poolID(info, lbID, f))
		fe := b.placeFrontend(info, choices[i], rules[i])
		b.placeRules(info, rules[i])
		b.ruleCount[lbName] += len(rules[i])
		dests[f] = dests[f].with(choices[i].dest(info.floatingOff, b.nodePool(lbID, f)))
		if f == ipv4 && info.pls != nil {
			b.placePLS(info, fe)
		}
	}
	for _, addr := range info.access.additional {
		f := ipv4
		if addr.Is6() {
			f = ipv6
		}
		dests[f] = dests[f].with(dest{known: addr.String()})
	}
	b.addNSGRules(info, dests)
	b.scope.Services = append(b.scope.Services, serviceRef(info))
}

// nodePool is the LB's cluster backend pool: its node IPs are the NSG
// destinations with floating IP disabled (§5.2), also for a Service that
// has a pool of its own (multi-SLB with externalTrafficPolicy Local).
func (b *builder) nodePool(lbID plan.ID, f family) plan.Key {
	name := b.cfg.ClusterName
	if f == ipv6 {
		name += ipv6Suffix
	}
	return plan.ChildID(lbID, plan.KindBackendPool, name).Key()
}

func serviceRef(info *svcInfo) plan.ServiceRef {
	ref := plan.ServiceRef{Name: info.key, Prefix: info.prefix}
	for _, f := range info.families {
		if ip := info.pinned[f]; ip != "" {
			ref.PinnedIPs = append(ref.PinnedIPs, ip)
		}
		if n := info.pipName[f]; n != "" && !contains(ref.PIPNames, n) {
			ref.PIPNames = append(ref.PIPNames, n)
		}
	}
	return ref
}

func (b *builder) ensureLB(id plan.ID, svc string) {
	lb, ok := b.placed[placeKey(id)]
	if !ok {
		lb = b.put(&plan.Resource{ID: id, Location: b.cfg.Location, SKU: b.lbSKU(), Tags: b.baseTags(),
			Properties: map[string]any{}, Owned: true})
	}
	lb.AddService(svc)
}

func (b *builder) lbSKU() map[string]any {
	if b.cfg.Standard() {
		return map[string]any{"name": "Standard", "tier": "Regional"}
	}
	return map[string]any{"name": "Basic", "tier": "Regional"}
}

// baseTags are the config tags CCM writes on LBs and the NSG (§2.3); nil
// when there are none.
func (b *builder) baseTags() map[string]string {
	t := b.cfg.ConfigTags()
	if len(t) == 0 {
		return nil
	}
	return t
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}
