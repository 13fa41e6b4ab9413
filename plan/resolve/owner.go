package resolve

import (
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// Ownership is what the rules of ccm-semantics §2.4 say about one observed
// resource.
type Ownership struct {
	// Managed: azsvc may change it (CCM would).
	Managed bool
	// Deletable: azsvc may delete it when nothing wants it. False for
	// user-assigned public IPs, NSGs, backend pools and shared parents.
	Deletable bool
	// Services are the in-scope Services that own it (primary owners).
	Services []string
	// Foreign: it also belongs to something outside the scope (an
	// out-of-scope Service, by name prefix or tag).
	Foreign bool
	// ForeignServices are the out-of-scope Services named by its tags.
	ForeignServices []string
	// Secondary are the in-scope Services that pin a managed public IP's
	// address or name without being in its tag: they may bind to it
	// (ccm-semantics §2.4 PIP "otherwise owned iff IP/name match").
	Secondary []string
	// Why explains an unmanaged verdict, for Blocked entries.
	Why plan.Unmanaged
}

// Owners decides ownership of observed resources for a scope.
type Owners struct {
	scope    plan.Scope
	observed *plan.State
	byPrefix map[string]string // lower-cased prefix -> namespace/name
	inScope  map[string]bool
	lbNames  map[string]bool     // lower-cased managed LB names
	nsgs     map[plan.Key]bool   // NSGs the desired state writes
	pinned   map[string][]string // canonical pinned IP -> Services
	pipNames map[string][]string // lower-cased PIP name -> Services
	// localPools maps the per-Service pool names of ETP Local Services
	// under multi-SLB (<namespace>-<name>, lower-cased) to their Service;
	// built on first use (localPool), as few pools have other names than
	// the cluster's.
	localPools map[string]string
}

// NewOwners prepares the ownership rules of scope over observed; desired
// adds the load balancers and NSGs the plan writes.
func NewOwners(scope plan.Scope, desired, observed *plan.State) *Owners {
	o := &Owners{
		scope: scope, observed: observed,
		byPrefix: map[string]string{}, inScope: map[string]bool{},
		lbNames: map[string]bool{}, nsgs: map[plan.Key]bool{},
		pinned: map[string][]string{}, pipNames: map[string][]string{},
	}
	for _, s := range scope.Services {
		o.inScope[s.Name] = true
		if s.Prefix != "" {
			o.byPrefix[strings.ToLower(s.Prefix)] = s.Name
		}
		for _, ip := range s.PinnedIPs {
			ip = plan.CanonicalIP(ip)
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
		o.nsgs[plan.KeyOf(string(scope.SecurityGroup))] = true
	}
	for _, r := range desired.All() {
		o.noteDesired(r)
	}
	// CCM finds a Service's frontend on any LB of the resource group when it
	// deletes the Service (ccm-semantics §7.4 step 1): an LB holding a
	// frontend of an in-scope Service is managed too.
	for _, r := range observed.All() {
		if r.Kind() != plan.KindFrontend {
			continue
		}
		if svc, _ := o.ServiceOfName(r.Name()); svc != "" {
			o.lbNames[strings.ToLower(r.ID.Names[0])] = true
		}
	}
	return o
}

func (o *Owners) noteDesired(r *plan.Resource) {
	switch r.Kind() {
	case plan.KindLoadBalancer:
		o.lbNames[strings.ToLower(r.Name())] = true
	case plan.KindSecurityGroup:
		o.nsgs[r.Key()] = true
	case plan.KindSecurityRule:
		if p, ok := r.ID.ParentID(); ok {
			o.nsgs[p.Key()] = true
		}
	}
}

// Of classifies one observed resource.
func (o *Owners) Of(r *plan.Resource) Ownership {
	switch r.Kind() {
	case plan.KindLoadBalancer:
		if o.lbNames[strings.ToLower(r.Name())] {
			return Ownership{Managed: true, Deletable: true}
		}
		return unmanaged(plan.UnmanagedLB, r.Name())
	case plan.KindSecurityGroup:
		if o.nsgs[r.Key()] {
			return Ownership{Managed: true}
		}
		return unmanaged(plan.UnmanagedNSG, "")
	case plan.KindFrontend, plan.KindRule, plan.KindProbe, plan.KindBackendPool:
		if !o.parentManaged(r) {
			return unmanaged(plan.UnmanagedParentLB, "")
		}
		return o.lbChild(r)
	case plan.KindSecurityRule:
		return o.securityRule(r)
	case plan.KindPublicIP:
		return o.publicIP(r)
	case plan.KindSubnet:
		// azsvc owns one field of a subnet, privateLinkServiceNetworkPolicies,
		// which CCM disables before placing a PLS in it (ccm-semantics §8
		// "Subnet policy"); it never creates or deletes one.
		return Ownership{Managed: true}
	case plan.KindPublicIPPrefix:
		// Read only to know that a new public IP can be carved from it
		// (ccm-semantics §1.3 #26): never changed or deleted.
		return Ownership{}
	case plan.KindARecord:
		// Record sets have no tags: azsvc writes its owner tags into
		// their metadata, so records of one zone can have different owners.
		return o.byTags(plan.AsARecord(r).Metadata())
	}
	return o.byTags(r.Tags)
}

func unmanaged(code plan.UnmanagedCode, value string) Ownership {
	return Ownership{Why: plan.Unmanaged{Code: code, Value: value}}
}

// SecurityGroups are the NSGs the plan reconciles: the cluster's and every
// one the desired state writes.
func (o *Owners) SecurityGroups() map[plan.Key]bool { return o.nsgs }

func (o *Owners) parentManaged(r *plan.Resource) bool {
	pid, ok := r.ID.ParentID()
	return ok && o.lbNames[strings.ToLower(pid.Name())]
}

// ServiceOfName finds the in-scope Service whose prefix starts name
// (ccm-semantics §2.4 serviceOwnsRule / serviceOwnsFrontendIP), and
// whether name starts like a prefix CCM derives. Prefixes never contain
// '-', so the first dash-separated token is the candidate.
func (o *Owners) ServiceOfName(name string) (svc string, ccmShaped bool) {
	token := name
	if i := strings.IndexByte(token, '-'); i >= 0 {
		token = token[:i]
	}
	token = strings.ToLower(token) // after the cut: a hex prefix needs no copy
	if s, ok := o.byPrefix[token]; ok {
		return s, true
	}
	if len(token) > plan.UIDPrefixLen {
		if s, ok := o.byPrefix[token[:plan.UIDPrefixLen]]; ok {
			return s, true
		}
	}
	return "", plan.IsUIDPrefix(token)
}

func (o *Owners) lbChild(r *plan.Resource) Ownership {
	name := r.Name()
	switch {
	case r.Kind() == plan.KindBackendPool:
		c := strings.ToLower(o.scope.Cluster)
		if n := strings.ToLower(name); n == c || n == c+"-ipv6" {
			return Ownership{Managed: true}
		}
		// The pool of an in-scope ETP Local Service under multi-SLB is
		// CCM's too (ccm-semantics §2.4 "Backend pool", localServiceOwnsBackendPool).
		if svc, ok := o.localPool(name); ok {
			return Ownership{Managed: true, Services: []string{svc}}
		}
		return unmanaged(plan.UnmanagedPool, name)
	case r.Kind() == plan.KindProbe && strings.EqualFold(name, plan.SharedProbeName):
		// Owned by every non-Local Service; kept while any rule uses it
		// (ccm-semantics §4, keepSharedProbe).
		return Ownership{Managed: true, Deletable: true}
	}
	svc, shaped := o.ServiceOfName(name)
	switch {
	case svc != "":
		return Ownership{Managed: true, Deletable: true, Services: []string{svc}}
	case shaped:
		return Ownership{Managed: true, Deletable: true, Foreign: true}
	}
	if r.Kind() == plan.KindFrontend {
		if sharers := o.frontendSharers(r); len(sharers) > 0 {
			// A secondary owner uses the frontend but does not own its
			// lifecycle (ccm-semantics §2.4 "FIP (secondary/shared)").
			return Ownership{Managed: true, Services: sharers}
		}
	}
	return unmanaged(plan.UnmanagedPrefix, "")
}

// frontendSharers are the in-scope Services that pin the frontend's IP or
// public IP name.
func (o *Owners) frontendSharers(r *plan.Resource) []string {
	fe := plan.AsFrontend(r)
	var out []string
	if ip := fe.PrivateIP(); ip != "" {
		out = append(out, o.pinned[plan.CanonicalIP(ip)]...)
	}
	if pipID := fe.PublicIPID(); pipID != "" {
		if pip, ok := o.observed.Get(plan.KeyOf(pipID)); ok {
			if ip := plan.AsPublicIP(pip).Address(); ip != "" {
				out = append(out, o.pinned[plan.CanonicalIP(ip)]...)
			}
			out = append(out, o.pipNames[strings.ToLower(pip.Name())]...)
		}
	}
	return plan.SortedUnique(out)
}

func (o *Owners) securityRule(r *plan.Resource) Ownership {
	pid, _ := r.ID.ParentID()
	if !o.nsgs[pid.Key()] {
		return unmanaged(plan.UnmanagedParentNSG, "")
	}
	if !strings.HasPrefix(r.Name(), plan.ManagedRulePrefix) {
		return unmanaged(plan.UnmanagedRuleName, "")
	}
	p, ok := plan.AsSecurityRule(r).RawPriority()
	if !ok || p < plan.ManagedPriorityMin || p > plan.ManagedPriorityMax {
		return unmanaged(plan.UnmanagedPriority, strconv.FormatFloat(p, 'f', -1, 64))
	}
	// Ownership of a managed rule is per destination, shared by every
	// Service (ccm-semantics §5.3): the NSG reconcile decides.
	return Ownership{Managed: true, Deletable: true}
}

// publicIP follows serviceOwnsPublicIP (ccm-semantics §2.4).
func (o *Owners) publicIP(r *plan.Resource) Ownership {
	tagged, hasTag := plan.TagValue(r.Tags, plan.TagService, plan.LegacyTagService)
	sharers := append([]string(nil), o.pipNames[strings.ToLower(r.Name())]...)
	if ip := plan.AsPublicIP(r).Address(); ip != "" {
		sharers = append(sharers, o.pinned[plan.CanonicalIP(ip)]...)
	}
	if !hasTag {
		if len(sharers) == 0 {
			return unmanaged(plan.UnmanagedUserPIP, "")
		}
		return Ownership{Managed: true, Services: plan.SortedUnique(sharers)}
	}
	if c, ok := plan.TagValue(r.Tags, plan.TagClusterName, plan.LegacyTagCluster); ok && !strings.EqualFold(strings.TrimSpace(c), o.scope.Cluster) {
		return unmanaged(plan.UnmanagedOtherCluster, c)
	}
	own := o.managedFor(plan.SplitServices(tagged))
	own.Secondary = plan.SortedUnique(sharers)
	return own
}

// byTags is the PLS rule (ccm-semantics §2.4), applied also to the kinds
// CCM does not build (private endpoints, DNS zones, links and records).
func (o *Owners) byTags(tags map[string]string) Ownership {
	c, ok := plan.TagValue(tags, plan.TagClusterName, plan.LegacyTagCluster)
	if !ok || !strings.EqualFold(strings.TrimSpace(c), o.scope.Cluster) {
		return unmanaged(plan.UnmanagedUntagged, o.scope.Cluster)
	}
	owner, _ := plan.TagValue(tags, plan.TagOwnerService, plan.TagService)
	return o.managedFor(plan.SplitServices(owner))
}

// managedFor is the ownership of a managed resource whose tags name these
// Services: in-scope ones own it, the others make it foreign.
func (o *Owners) managedFor(services []string) Ownership {
	own := Ownership{Managed: true, Deletable: true}
	for _, s := range services {
		if o.inScope[s] {
			own.Services = append(own.Services, s)
		} else {
			own.Foreign = true
			own.ForeignServices = append(own.ForeignServices, s)
		}
	}
	return own
}

// localPool finds the in-scope Service whose ETP Local pool is named name.
func (o *Owners) localPool(name string) (string, bool) {
	if o.localPools == nil {
		o.localPools = make(map[string]string, 2*len(o.scope.Services))
		for _, s := range o.scope.Services {
			local := strings.ToLower(strings.ReplaceAll(s.Name, "/", "-"))
			o.localPools[local], o.localPools[local+"-ipv6"] = s.Name, s.Name
		}
	}
	svc, ok := o.localPools[strings.ToLower(name)]
	return svc, ok
}
