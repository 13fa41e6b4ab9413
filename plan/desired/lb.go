package desired

import (
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/cluster"
	"github.com/azsvc/azsvc/plan/service"
)

// internalSuffix marks an internal LB; CCM also recognises internal LBs by
// it (isInternalLoadBalancer).
const internalSuffix = "-internal"

// lbPicker places Services on load balancers (§2.2, §7.6) and remembers
// what placement needs: the rules already on each LB and the VM-set LBs
// used.
type lbPicker struct {
	cfg       *cluster.Config
	ruleCount map[string]int    // LB name -> rules, for multi-SLB placement
	vmSetLBs  map[string]string // basic-SKU VM-set LB names used, by lower-case name
	// exists reports whether an LB of that name is already placed.
	exists func(name string) bool
	// refuse records why a Service cannot be placed.
	refuse func([]service.Diagnostic)
}

// selectLB names the LB hosting a Service (§2.2, §7.6): lbBase for a single
// standard LB, the VM set's LB on basic SKU, a multi-SLB configuration's LB
// otherwise; "-internal" for internal Services.
func (b *lbPicker) selectLB(info *svcInfo) (string, bool) {
	name := b.cfg.LBBase()
	switch {
	case b.cfg.MultiSLB():
		var ok bool
		if name, ok = b.selectMultiSLB(info); !ok {
			return "", false
		}
	case !b.cfg.Standard():
		name = b.basicLBName(info.svc)
		b.vmSetLBs[strings.ToLower(name)] = name
	}
	if info.internal {
		name += internalSuffix
	}
	return name, true
}

// managedLBNames is Scope.LoadBalancerNames, the LBs other than the
// cluster's that CCM counts as its own (§2.4 "LB (managed set)"): every
// multi-SLB configuration, the VM-set LBs the Services are placed on (azsvc
// cannot list VM sets offline; LBs holding an in-scope Service's frontend
// are recognised by the planner anyway) and a custom loadBalancerName,
// which CCM finds through its fallback listing. Sorted, without
// "-internal", each name once (case-insensitively), the cluster left out.
func (b *lbPicker) managedLBNames() []string {
	byLower := map[string]string{}
	for k, v := range b.vmSetLBs {
		byLower[k] = v
	}
	if b.cfg.MultiSLB() {
		for _, c := range b.cfg.MultipleStandardLoadBalancerConfigurations {
			byLower[strings.ToLower(c.Name)] = c.Name
		}
	}
	byLower[strings.ToLower(b.cfg.LBBase())] = b.cfg.LBBase()
	delete(byLower, strings.ToLower(b.cfg.ClusterName))
	out := make([]string, 0, len(byLower))
	for _, n := range byLower {
		out = append(out, n)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil
	}
	return out
}

// basicLBName follows azure-load-balancer-mode on basic SKU: a named VM set
// other than the primary one gets its own LB. "__auto__", and a list of
// several VM sets, pick the LB with the fewest rules among the VM sets,
// which azsvc cannot see offline: auto uses the primary LB, a list its
// first VM set.
func (b *lbPicker) basicLBName(s *service.Service) string {
	auto, vmSets, _ := s.LoadBalancerMode()
	primary := b.cfg.PrimaryScaleSetName
	if strings.EqualFold(b.cfg.VMType, "standard") {
		primary = b.cfg.PrimaryAvailabilitySetName
	}
	if auto || len(vmSets) == 0 || strings.EqualFold(vmSets[0], primary) {
		return b.cfg.LBBase()
	}
	return vmSets[0]
}

// selectMultiSLB picks a multi-SLB configuration (§7.6): eligible ones
// (annotation, allowServicePlacement, label selectors), then an existing LB
// without rules, then the first not yet existing, then the one with the
// fewest rules. Namespace labels are unknown offline, so a
// serviceNamespaceSelector never matches.
func (b *lbPicker) selectMultiSLB(info *svcInfo) (string, bool) {
	eligible, ok := b.eligibleConfigs(info)
	if !ok {
		return "", false
	}
	// The LB names of this Service's kind, built once per Service rather
	// than per comparison (10,000 Services x every configuration).
	keys := make([]string, len(eligible))
	for i, c := range eligible {
		keys[i] = lbKeyName(c.Name, info.internal)
	}
	for i, c := range eligible {
		if b.exists(keys[i]) && b.ruleCount[keys[i]] == 0 {
			return c.Name, true
		}
	}
	for i, c := range eligible {
		if !b.exists(keys[i]) {
			return c.Name, true
		}
	}
	best := 0
	for i := range eligible[1:] {
		if b.ruleCount[keys[i+1]] < b.ruleCount[keys[best]] {
			best = i + 1
		}
	}
	return eligible[best].Name, true
}

func lbKeyName(name string, internal bool) string {
	if internal {
		return name + internalSuffix
	}
	return name
}

func (b *lbPicker) eligibleConfigs(info *svcInfo) ([]*cluster.MultiSLBConfig, bool) {
	s := info.svc
	names := s.LoadBalancerConfigurations()
	want := make(map[string]bool, len(names))
	for _, n := range names {
		want[n] = true
	}
	var matched, plain []*cluster.MultiSLBConfig
	for i := range b.cfg.MultipleStandardLoadBalancerConfigurations {
		c := &b.cfg.MultipleStandardLoadBalancerConfigurations[i]
		if len(want) > 0 && !want[strings.ToLower(c.Name)] || c.AllowServicePlacement != nil && !*c.AllowServicePlacement {
			continue
		}
		switch {
		case c.ServiceLabelSelector == nil && c.ServiceNamespaceSelector == nil:
			plain = append(plain, c)
		case c.ServiceNamespaceSelector == nil && c.ServiceLabelSelector.Matches(s.Labels):
			matched = append(matched, c)
		}
	}
	if len(matched) > 0 {
		return matched, true
	}
	if len(plain) == 0 {
		r := &refusal{svc: s}
		r.add(CodeLBSelection, annField(service.AnnLoadBalancerConfigurations), "name a configuration of multipleStandardLoadBalancerConfigurations",
			"service %q selects %d load balancers by annotation, but none of them is defined in multipleStandardLoadBalancerConfigurations or eligible", s.Name, len(names))
		b.refuse(r.diags)
		return nil, false
	}
	return plain, true
}

// placePLS creates the Service's PLS on frontend fe, or joins the one
// another Service created there: silently, unless this Service sets PLS
// options, which CCM refuses (§8 "Existing PLS on the FIP").
func (b *builder) placePLS(info *svcInfo, fe *plan.Resource) {
	onFE := placeKey(fe.ID)
	onFE.onFrontend = true
	if r, ok := b.placed[onFE]; ok {
		if info.pls.hasConfig {
			rf := &refusal{svc: info.svc}
			rf.add(CodePrivateLink, annField(service.AnnPLSCreate), "remove the PLS options from this Service, or stop sharing the frontend",
				"private link service(%s) on LB frontend(%s) is owned by service(%s)", r.Name(), fe.Name(), r.Tags[tagOwnerService])
			b.diags = append(b.diags, rf.diags...)
			return
		}
		r.AddService(info.key)
		return
	}
	pls := b.plsResource(info, fe)
	pls.AddService(info.key)
	b.placed[onFE] = pls
	b.state.Put(pls)
	b.plsSubnetPolicy(info.pls.subnet).AddService(info.key)
}

// plsSubnetPolicy is the PLS NAT subnet as azsvc wants it: only its private
// link service network policy, which CCM disables with a subnet PUT before
// it creates the PLS (ccm-semantics §8 "Subnet policy"). The diff keeps
// every other field of the subnet as read.
func (b *builder) plsSubnetPolicy(subnet string) *plan.Resource {
	vnet := plan.NewID(b.sub, b.cfg.VnetRG(), plan.KindVirtualNetwork, b.cfg.VnetName)
	return b.put(&plan.Resource{
		ID:         plan.ChildID(vnet, plan.KindSubnet, subnet),
		Properties: map[string]any{"privateLinkServiceNetworkPolicies": "Disabled"},
		Owned:      true,
	})
}
