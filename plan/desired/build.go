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
	"strings"

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
	nsg       *nsgRules
	lbs       *lbPicker
	// placed indexes LBs, pools and probes by placeKey: rendering ARM IDs
	// into keys dominates Build's cost at 10,000 Services, so lookups of
	// resources the builder made itself avoid it.
	placed map[placeID]*plan.Resource
	rules  ruleMaker // rules.go
	pools  *poolSet  // pools.go, multislb_nodes.go
	// placeholders stand for the ports the API server assigns (assigned.go).
	placeholders placeholders
}

const resourcesPerService = 6

// placeID identifies a resource the builder created: kind and names (one
// or two), compared without rendering a string. onFrontend marks the PLS
// placed on a frontend, which shares the frontend's names.
type placeID struct {
	kind       plan.Kind
	onFrontend bool
	parent     string
	name       string
}

func placeKey(id plan.ID) placeID {
	k := placeID{kind: id.Kind, name: id.Name()}
	if len(id.Names) > 1 {
		k.parent = id.Names[0]
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
	return BuildWith(svcs, cfg, Options{})
}

// Options adjust a build with what ARM says about the Services.
type Options struct {
	// Prefixes maps a Service (namespace/name) without metadata.uid to the
	// name prefix CCM used for it, found in ARM (plan/adopt).
	Prefixes map[string]string
	// NodePorts are the node ports and health-check node ports the input
	// lacks and Azure shows, by Service (plan/adopt): without them, they
	// are values the API server assigns (plan.ServerValue).
	NodePorts map[string]AssignedPorts
	// Refused are Services left out like refused ones: their UID could
	// not be told.
	Refused map[string]bool
	// Topology is the cluster's Nodes and EndpointSlices. With Nodes,
	// IP-based pools get their members and NSG rules with floating IP
	// disabled their node addresses; without, both are left to what ARM
	// holds (the BackendNodeIPs marker).
	Topology *service.Topology
	// Seen is what ARM holds that multi-SLB node placement depends on
	// (SeenFrom): the load balancers that exist and the nodes their pools
	// hold.
	Seen *SeenLBs
	// Held is what ARM holds that multi-SLB Service placement depends on
	// (HeldFrom): which load balancer holds each Service, and the rules
	// on each.
	Held *HeldServices
}

// BuildWith is Build with opts.
func BuildWith(svcs []*service.Service, cfg *cluster.Config, opts Options) (*plan.State, plan.Scope, []service.Diagnostic) {
	// A Service makes about six resources (frontend, PIP, rules and probes
	// of two ports); sizing the indexes up front avoids rehashing them.
	b := &builder{
		cfg:       cfg,
		sub:       cfg.SubscriptionForIDs(),
		state:     plan.NewStateSize(resourcesPerService * len(svcs)),
		scope:     plan.Scope{Cluster: cfg.ClusterName},
		frontends: map[string]*frontendEntry{},
		placed:    make(map[placeID]*plan.Resource, resourcesPerService*len(svcs)),
		pools: &poolSet{cfg: cfg, topo: newTopology(opts.Topology, cfg.ResourceGroup), seen: opts.Seen,
			byID: map[placeID]*poolSpec{}},
	}
	b.rules = ruleMaker{cfg: cfg, placed: b.placed}
	b.nsg = newNSGRules(cfg, b.sub, b.baseTags())
	b.lbs = &lbPicker{cfg: cfg, ruleCount: opts.Held.ruleCounts(), vmSetLBs: map[string]string{}, held: opts.Held,
		built:  map[string]bool{},
		refuse: func(d []service.Diagnostic) { b.diags = append(b.diags, d...) }}
	seen := make(map[string]bool, len(svcs))
	for _, s := range sortedServices(svcs) {
		key := s.Key()
		if !wantsLoadBalancer(s) || seen[key] || opts.Refused[key] {
			continue
		}
		seen[key] = true
		s, unknown := b.placeholders.withAssigned(s, opts.NodePorts[key])
		info, diags := analyze(s, cfg, opts.Prefixes[key])
		if len(diags) > 0 {
			b.diags = append(b.diags, diags...)
			continue
		}
		info.unknown = unknown
		b.addService(info)
	}
	b.nsg.finish(b.state, b.pools.fill(func() map[string]bool { return lbConfigs(b.placed) }))
	b.scope.LoadBalancerNames = b.lbs.managedLBNames()
	if cfg.SecurityGroupName != "" {
		b.scope.SecurityGroup = b.nsg.id.Key()
	}
	b.scope.Placement = placement(cfg)
	return b.state, b.scope, b.diags
}

// placement is where the configuration puts the cluster's resources
// (ccm-semantics, config section): what a plan reads even when no Service
// names a group.
func placement(cfg *cluster.Config) plan.Placement {
	return plan.Placement{
		LoadBalancers:  cfg.LBResourceGroup(),
		PublicIPs:      cfg.ResourceGroup,
		SecurityGroups: cfg.NSGResourceGroup(),
		PrivateLinks:   cfg.PLSResourceGroup(),
		Endpoints:      cfg.ResourceGroup,
		DNSZones:       cfg.ResourceGroup,
		VNet:           plan.VNetRef{ResourceGroup: cfg.VnetRG(), Name: cfg.VnetName},
	}
}

// sortedServices orders by namespace/name so that the first Service of a
// shared frontend, which names it, does not depend on file order.
func sortedServices(svcs []*service.Service) []*service.Service {
	type keyed struct {
		key string
		svc *service.Service
	}
	ks := make([]keyed, 0, len(svcs))
	for _, s := range svcs {
		if s != nil && s.Service != nil {
			ks = append(ks, keyed{s.Key(), s}) // once each, not in the comparator
		}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	out := make([]*service.Service, len(ks))
	for i, k := range ks {
		out[i] = k.svc
	}
	return out
}

// addService places one analysed Service: LB, then per family frontend,
// pool, rules, probes, PIP, NSG rules and PLS.
func (b *builder) addService(info *svcInfo) {
	lbName, ok := b.lbs.selectLB(info)
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
		rules[i] = b.rules.forFamily(info, f, lbID, choices[i].id)
		if !b.checkConflicts(info, choices[i], rules[i]) {
			return
		}
	}
	b.ensureLB(lbID, info.key)
	nRules := 0
	defer func() { b.lbs.placed(info, lbName, nRules) }()
	dests := map[family]*destSet{}
	for i, f := range info.families {
		pool := b.ensurePool(info, lbID, f)
		fe := b.placeFrontend(info, choices[i], rules[i])
		b.userPIPDNS(info, f)
		b.placeRules(info, rules[i])
		nRules += len(rules[i])
		// With floating IP disabled the destinations are the node IPs of
		// the Service's own pool: GetBackendPrivateIPs reads the pools
		// getBackendPoolNamesForService names (§5.2), the per-Service pool
		// of an ETP Local Service under multi-SLB.
		dests[f] = dests[f].with(choices[i].dest(info.floatingOff, pool.key))
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
	b.nsg.add(info, dests)
	b.scope.Services = append(b.scope.Services, serviceRef(info))
}

func serviceRef(info *svcInfo) plan.ServiceRef {
	ref := plan.ServiceRef{Name: info.key, Prefix: info.prefix}
	for _, f := range info.families {
		if ip := info.pinned.of(f); ip != "" {
			ref.PinnedIPs = append(ref.PinnedIPs, ip)
		}
		if n := info.pipName.of(f); n != "" && !contains(ref.PIPNames, n) {
			ref.PIPNames = append(ref.PIPNames, n)
		}
	}
	return ref
}

// lbConfigs are the load balancers placed, lower-cased and without
// "-internal": the multi-SLB configurations the build uses.
func lbConfigs(placed map[placeID]*plan.Resource) map[string]bool {
	lbs := map[string]bool{}
	for k := range placed {
		if k.kind == plan.KindLoadBalancer {
			lbs[strings.ToLower(trimInternal(k.name))] = true
		}
	}
	return lbs
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
