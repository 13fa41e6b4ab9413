package plan

import (
	"strconv"
	"strings"
)

// Tag keys CCM writes and reads (ccm-semantics §2.3).
const (
	TagService        = "k8s-azure-service"
	TagClusterName    = "k8s-azure-cluster-name"
	TagOwnerService   = "k8s-azure-owner-service"
	legacyTagService  = "service"
	legacyTagCluster  = "kubernetes-cluster-name"
	sharedProbeName   = "cluster-service-shared-health-probe"
	managedRulePrefix = "k8s-azure-lb"
	// The NSG priority band CCM treats as its own (ccm-semantics §5.4).
	managedPriorityMin = 500
	managedPriorityMax = 4096
)

// ownership is what the rules of ccm-semantics §2.4 say about one observed
// resource.
type ownership struct {
	// managed: azsvc may change it (CCM would).
	managed bool
	// deletable: azsvc may delete it when nothing wants it. False for
	// user-assigned public IPs, NSGs, backend pools and shared parents.
	deletable bool
	// services are the in-scope Services that own it (primary owners).
	services []string
	// foreign: it also belongs to something outside the scope (an
	// out-of-scope Service, by name prefix or tag).
	foreign bool
	// foreignServices are the out-of-scope Services named by its tags.
	foreignServices []string
	// secondary are the in-scope Services that pin a managed public IP's
	// address or name without being in its tag: they may bind to it
	// (ccm-semantics §2.4 PIP "otherwise owned iff IP/name match").
	secondary []string
	// why explains an unmanaged verdict, for Blocked entries.
	why Unmanaged
}

// owners decides ownership for an observed state against a scope.
type owners struct {
	scope    Scope
	observed *State
	byPrefix map[string]string // lower-cased prefix -> namespace/name
	inScope  map[string]bool
	lbNames  map[string]bool // lower-cased managed LB names
	nsgs     map[Key]bool    // NSGs the desired state writes
	pinned   map[string][]string
	pipNames map[string][]string
}

func newOwners(scope Scope, desired, observed *State) *owners {
	o := &owners{
		scope: scope, observed: observed,
		byPrefix: map[string]string{}, inScope: map[string]bool{},
		lbNames: map[string]bool{}, nsgs: map[Key]bool{},
		pinned: map[string][]string{}, pipNames: map[string][]string{},
	}
	for _, s := range scope.Services {
		o.inScope[s.Name] = true
		if s.Prefix != "" {
			o.byPrefix[strings.ToLower(s.Prefix)] = s.Name
		}
		for _, ip := range s.PinnedIPs {
			ip = canonicalIP(ip)
			o.pinned[ip] = append(o.pinned[ip], s.Name)
		}
		for _, n := range s.PIPNames {
			o.pipNames[strings.ToLower(n)] = append(o.pipNames[strings.ToLower(n)], s.Name)
		}
	}
	for _, n := range append([]string{scope.Cluster}, scope.LoadBalancerNames...) {
		n = strings.ToLower(n)
		o.lbNames[n], o.lbNames[n+"-internal"] = true, true
	}
	if scope.SecurityGroup != "" {
		o.nsgs[KeyOf(string(scope.SecurityGroup))] = true
	}
	for _, r := range desired.resources {
		switch r.Kind() {
		case KindLoadBalancer:
			o.lbNames[strings.ToLower(r.Name())] = true
		case KindSecurityGroup:
			o.nsgs[r.Key()] = true
		case KindSecurityRule:
			if p, ok := r.ID.ParentID(); ok {
				o.nsgs[p.Key()] = true
			}
		}
	}
	// CCM finds a Service's frontend on any LB of the resource group when it
	// deletes the Service (ccm-semantics §7.4 step 1): an LB holding a
	// frontend of an in-scope Service is managed too.
	for _, r := range observed.resources {
		if r.Kind() != KindFrontend {
			continue
		}
		if svc, _ := o.serviceOfName(r.Name()); svc != "" {
			o.lbNames[strings.ToLower(r.ID.Names[0])] = true
		}
	}
	return o
}

// of classifies one observed resource.
func (o *owners) of(r *Resource) ownership {
	switch r.Kind() {
	case KindLoadBalancer:
		if o.lbNames[strings.ToLower(r.Name())] {
			return ownership{managed: true, deletable: true}
		}
		return ownership{why: Unmanaged{Code: UnmanagedLB, Value: r.Name()}}
	case KindSecurityGroup:
		if o.nsgs[r.Key()] {
			return ownership{managed: true}
		}
		return ownership{why: Unmanaged{Code: UnmanagedNSG}}
	case KindFrontend, KindRule, KindProbe, KindBackendPool:
		if !o.parentManaged(r) {
			return ownership{why: Unmanaged{Code: UnmanagedParentLB}}
		}
		return o.lbChild(r)
	case KindSecurityRule:
		return o.securityRule(r)
	case KindPublicIP:
		return o.publicIP(r)
	case KindSubnet:
		// azsvc owns one field of a subnet, privateLinkServiceNetworkPolicies,
		// which CCM disables before placing a PLS in it (ccm-semantics §8
		// "Subnet policy"); it never creates or deletes one.
		return ownership{managed: true}
	case KindARecord, KindVNetLink:
		if zone, ok := o.parent(r); ok && r.Kind() == KindARecord {
			return o.byClusterTag(zone)
		}
		return o.byClusterTag(r)
	}
	return o.byClusterTag(r)
}

func (o *owners) parent(r *Resource) (*Resource, bool) {
	pid, ok := r.ID.ParentID()
	if !ok {
		return nil, false
	}
	return o.observed.Get(pid.Key())
}

func (o *owners) parentManaged(r *Resource) bool {
	pid, ok := r.ID.ParentID()
	return ok && o.lbNames[strings.ToLower(pid.Name())]
}

// serviceOfName finds the in-scope Service whose prefix starts name
// (ccm-semantics §2.4 serviceOwnsRule / serviceOwnsFrontendIP). Prefixes
// never contain '-', so the first dash-separated token is the candidate.
func (o *owners) serviceOfName(name string) (svc string, ccmShaped bool) {
	token := name
	if i := strings.IndexByte(token, '-'); i >= 0 {
		token = token[:i]
	}
	token = strings.ToLower(token) // after the cut: a hex prefix needs no copy
	if s, ok := o.byPrefix[token]; ok {
		return s, true
	}
	if len(token) > 32 {
		if s, ok := o.byPrefix[token[:32]]; ok {
			return s, true
		}
	}
	return "", isCCMPrefix(token)
}

// isCCMPrefix reports whether token looks like a prefix CCM derives from a
// Service UID: "a" and 31 hex digits (ccm-semantics §2.1).
func isCCMPrefix(token string) bool {
	if len(token) < 32 || token[0] != 'a' {
		return false
	}
	for _, c := range token[1:32] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (o *owners) lbChild(r *Resource) ownership {
	name := r.Name()
	switch {
	case r.Kind() == KindBackendPool:
		c := strings.ToLower(o.scope.Cluster)
		if n := strings.ToLower(name); n == c || n == c+"-ipv6" {
			return ownership{managed: true}
		}
		return ownership{why: Unmanaged{Code: UnmanagedPool, Value: name}}
	case r.Kind() == KindProbe && strings.EqualFold(name, sharedProbeName):
		// Owned by every non-Local Service; kept while any rule uses it
		// (ccm-semantics §4, keepSharedProbe).
		return ownership{managed: true, deletable: true}
	}
	svc, shaped := o.serviceOfName(name)
	switch {
	case svc != "":
		return ownership{managed: true, deletable: true, services: []string{svc}}
	case shaped:
		return ownership{managed: true, deletable: true, foreign: true}
	}
	if r.Kind() == KindFrontend {
		if sharers := o.frontendSharers(r); len(sharers) > 0 {
			// A secondary owner uses the frontend but does not own its
			// lifecycle (ccm-semantics §2.4 "FIP (secondary/shared)").
			return ownership{managed: true, services: sharers}
		}
	}
	return ownership{why: Unmanaged{Code: UnmanagedPrefix}}
}

// frontendSharers are the in-scope Services that pin the frontend's IP or
// public IP name.
func (o *owners) frontendSharers(fe *Resource) []string {
	var out []string
	if ip, ok := fe.Properties["privateIPAddress"].(string); ok {
		out = append(out, o.pinned[canonicalIP(ip)]...)
	}
	if pipID := refID(fe.Properties["publicIPAddress"]); pipID != "" {
		if pip, ok := o.observed.Get(KeyOf(pipID)); ok {
			if ip, ok := pip.Properties["ipAddress"].(string); ok && ip != "" {
				out = append(out, o.pinned[canonicalIP(ip)]...)
			}
			out = append(out, o.pipNames[strings.ToLower(pip.Name())]...)
		}
	}
	return sortedUnique(out)
}

func (o *owners) securityRule(r *Resource) ownership {
	pid, _ := r.ID.ParentID()
	if !o.nsgs[pid.Key()] {
		return ownership{why: Unmanaged{Code: UnmanagedParentNSG}}
	}
	if !strings.HasPrefix(r.Name(), managedRulePrefix) {
		return ownership{why: Unmanaged{Code: UnmanagedRuleName}}
	}
	p, ok := number(r.Properties["priority"])
	if !ok || p < managedPriorityMin || p > managedPriorityMax {
		return ownership{why: Unmanaged{Code: UnmanagedPriority, Value: strconv.FormatFloat(p, 'f', -1, 64)}}
	}
	// Ownership of a managed rule is per destination, shared by every
	// Service (ccm-semantics §5.3): the NSG reconcile decides.
	return ownership{managed: true, deletable: true}
}

// publicIP follows serviceOwnsPublicIP (ccm-semantics §2.4).
func (o *owners) publicIP(r *Resource) ownership {
	tagged, hasTag := tagValue(r.Tags, TagService, legacyTagService)
	sharers := append([]string(nil), o.pipNames[strings.ToLower(r.Name())]...)
	if ip, ok := r.Properties["ipAddress"].(string); ok && ip != "" {
		sharers = append(sharers, o.pinned[canonicalIP(ip)]...)
	}
	if !hasTag {
		if len(sharers) == 0 {
			return ownership{why: Unmanaged{Code: UnmanagedUserPIP}}
		}
		return ownership{managed: true, services: sortedUnique(sharers)}
	}
	if c, ok := tagValue(r.Tags, TagClusterName, legacyTagCluster); ok && !strings.EqualFold(strings.TrimSpace(c), o.scope.Cluster) {
		return ownership{why: Unmanaged{Code: UnmanagedOtherCluster, Value: c}}
	}
	own := o.managedFor(splitServices(tagged))
	own.secondary = sortedUnique(sharers)
	return own
}

// byClusterTag is the PLS rule (ccm-semantics §2.4), applied also to the
// kinds CCM does not build (private endpoints, DNS zones and links).
func (o *owners) byClusterTag(r *Resource) ownership {
	c, ok := tagValue(r.Tags, TagClusterName, legacyTagCluster)
	if !ok || !strings.EqualFold(strings.TrimSpace(c), o.scope.Cluster) {
		return ownership{why: Unmanaged{Code: UnmanagedUntagged, Value: o.scope.Cluster}}
	}
	owner, _ := tagValue(r.Tags, TagOwnerService, TagService)
	return o.managedFor(splitServices(owner))
}

// managedFor is the ownership of a managed resource whose tags name these
// Services: in-scope ones own it, the others make it foreign.
func (o *owners) managedFor(services []string) ownership {
	own := ownership{managed: true, deletable: true}
	for _, s := range services {
		if o.inScope[s] {
			own.services = append(own.services, s)
		} else {
			own.foreign = true
			own.foreignServices = append(own.foreignServices, s)
		}
	}
	return own
}

func tagValue(tags map[string]string, keys ...string) (string, bool) {
	for _, k := range keys {
		for tk, v := range tags {
			if strings.EqualFold(tk, k) {
				return v, true
			}
		}
	}
	return "", false
}

func splitServices(v string) []string {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return sortedUnique(out)
}
