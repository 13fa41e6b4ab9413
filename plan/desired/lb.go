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
	ruleCount map[string]int    // lower-cased LB name -> rules, for multi-SLB placement
	vmSetLBs  map[string]string // basic-SKU VM-set LB names used, by lower-case name
	// held is what ARM holds that multi-SLB placement depends on, nil
	// when ARM was not read.
	held *HeldServices
	// built are the load balancers placed by this build, lower-cased.
	built map[string]bool
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

// selectMultiSLB picks a multi-SLB configuration (§7.6,
// getAzureLoadBalancerName): among the eligible ones (annotation,
// allowServicePlacement, label selectors), the one ARM holds the Service
// on; else an existing load balancer without rules, then the first not
// yet existing, then the one with the fewest rules. Existence and rule
// counts are ARM's (held) with the Services placed before this one in the
// same build, as CCM sees them reconciling Services one at a time.
// Namespace labels are unknown offline, so a serviceNamespaceSelector never
// matches.
func (b *lbPicker) selectMultiSLB(info *svcInfo) (string, bool) {
	current, ok := b.currentConfig(info)
	if !ok {
		return "", false
	}
	eligible, ok := b.eligibleConfigs(info)
	if !ok {
		return "", false
	}
	for _, c := range eligible {
		if strings.EqualFold(c.Name, current) {
			return c.Name, true
		}
	}
	if info.pinsIP() && current != "" {
		b.refuseNotEligible(info, current, eligible)
		return "", false
	}
	// The LB names of this Service's kind, built once per Service rather
	// than per comparison (10,000 Services x every configuration).
	keys := make([]string, len(eligible))
	for i, c := range eligible {
		keys[i] = strings.ToLower(lbKeyName(c.Name, info.internal))
	}
	for i, c := range eligible {
		if b.lbExists(keys[i]) && b.ruleCount[keys[i]] == 0 {
			return c.Name, true
		}
	}
	for i, c := range eligible {
		if !b.lbExists(keys[i]) {
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

func (b *lbPicker) lbExists(key string) bool { return b.held.exists(key) || b.built[key] }

// currentConfig is CCM's currentLBName, lower-cased: the first
// configuration whose load balancers hold the Service's rules
// (ActiveServices); for a Service that names no configuration and pins no
// IP, the one whose load balancer of its kind holds its frontend; for a
// Service that pins an IP, the one holding that IP, "" if none does. Naming
// configurations and pinning an IP at once is refused
// (getAzureLoadBalancerName).
func (b *lbPicker) currentConfig(info *svcInfo) (string, bool) {
	annotated := len(info.svc.LoadBalancerConfigurations()) > 0
	if annotated && info.pinsIP() {
		r := &refusal{svc: info.svc}
		r.add(CodeLBSelection, annField(service.AnnLoadBalancerConfigurations),
			"remove the annotation to stay on the load balancer where the IP resides, or the IP to move to the one named",
			"service %q has conflicting load balancer configuration: both a load balancer name (%s) and an IP address are specified",
			info.svc.Name, service.AnnLoadBalancerConfigurations)
		b.refuse(r.diags)
		return "", false
	}
	if info.pinsIP() {
		return b.pinnedConfig(info), true
	}
	active := b.held.active(info.prefix)
	current := ""
	for _, c := range b.cfg.MultipleStandardLoadBalancerConfigurations {
		if active[strings.ToLower(c.Name)] {
			current = strings.ToLower(c.Name)
			break
		}
	}
	if !annotated {
		if fe := b.held.frontendLB(strings.ToLower(info.prefix), info.internal); fe != "" {
			current = fe
		}
	}
	return current, true
}

// pinnedConfig is the configuration whose load balancer holds the IP the
// Service pins: by private address for an internal Service, by public IP
// address or name otherwise.
func (b *lbPicker) pinnedConfig(info *svcInfo) string {
	if b.held == nil {
		return ""
	}
	ips := b.held.pinnedIPs()
	for _, f := range []family{ipv4, ipv6} {
		ip := info.pinned.of(f)
		if ip == "" {
			continue
		}
		if info.internal {
			if lb := ips.private[plan.CanonicalIP(ip)]; lb != "" {
				return trimInternal(lb)
			}
		} else if lb := ips.public[strings.ToLower(info.pipRG)+"/"+plan.CanonicalIP(ip)]; lb != "" {
			return trimInternal(lb)
		}
	}
	if info.internal {
		return ""
	}
	for _, f := range []family{ipv4, ipv6} {
		if n := info.pipName.of(f); n != "" {
			id := plan.NewID(b.cfg.SubscriptionForIDs(), info.pipRG, plan.KindPublicIP, n)
			if lb := ips.public[string(id.Key())]; lb != "" {
				return trimInternal(lb)
			}
		}
	}
	return ""
}

func (b *lbPicker) refuseNotEligible(info *svcInfo, current string, eligible []*cluster.MultiSLBConfig) {
	names := make([]string, len(eligible))
	for i, c := range eligible {
		names[i] = c.Name
	}
	r := &refusal{svc: info.svc}
	r.add(CodeLBSelection, annField(service.AnnLoadBalancerConfigurations),
		"check serviceLabelSelector, serviceNamespaceSelector and allowServicePlacement of the configurations",
		"service %q specifies an IP that resides on load balancer %q, which is not in the eligible set %v",
		info.svc.Name, current, names)
	b.refuse(r.diags)
}

// placed records that the Service's rules moved to lbName: the rules ARM
// holds for it elsewhere leave (CCM removes the Service from its old load
// balancer first), rules it now has there count.
func (b *lbPicker) placed(info *svcInfo, lbName string, rules int) {
	if b.held != nil {
		b.held.of(strings.ToLower(info.prefix)).rules.each(func(lb string, n int) { b.ruleCount[lb] -= n })
	}
	lb := strings.ToLower(lbName)
	b.ruleCount[lb] += rules
	b.built[lb] = true
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
	active := b.held.active(strings.ToLower(info.prefix))
	var matched, plain []*cluster.MultiSLBConfig
	for i := range b.cfg.MultipleStandardLoadBalancerConfigurations {
		c := &b.cfg.MultipleStandardLoadBalancerConfigurations[i]
		// allowServicePlacement=false keeps the Services already on it.
		closed := c.AllowServicePlacement != nil && !*c.AllowServicePlacement && !active[strings.ToLower(c.Name)]
		if len(want) > 0 && !want[strings.ToLower(c.Name)] || closed {
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
