// Package resolve turns the desired state built from Services alone
// (plan/desired) into the final desired state, using what ARM already
// holds: everything CCM decides only once it sees Azure (ccm-semantics
// §2.4 ownership, §5.5 NSG reconcile, §6 public IP sharing and release,
// §7.3/§7.4 what is deleted). It is pure: neither state is modified.
//
// Resolve's output is what plan/diff compares: the resolved desired state,
// the observed resources to remove, the desired resources ownership blocks
// and the Services CCM would fail. It says nothing about how to get there;
// the diff and the scheduler do.
package resolve

import (
	"fmt"
	"slices"

	"github.com/azsvc/azsvc/plan"
)

// Resolved is the final desired state and what the diff needs with it.
type Resolved struct {
	// Desired is the final desired state: frontends shared, public IPs
	// pinned by address resolved to their IDs, NSG rules merged with what
	// out-of-scope Services keep in them, public IP tags bound and
	// released. Values copied from other resources (AfterApply markers)
	// remain: the diff resolves them once it knows what is re-created.
	Desired *plan.State
	// Wanted is the desired state as the Services want it, before
	// ownership decided what may be written: where a desired value is
	// looked up whether or not it is planned.
	Wanted *plan.State
	// Observed is ARM's state, indexed once for every later pass.
	Observed *plan.Index
	Scope    plan.Scope
	// Remove maps the observed resources this plan deletes to the Services
	// they served.
	Remove map[plan.Key][]string
	// Conflicts are the desired keys azsvc will not write (ownership, a
	// missing subnet or public IP, a Service CCM fails); the diff blocks
	// what depends on them.
	Conflicts map[plan.Key]bool
	// Failed are the Services CCM would fail: nothing is planned for them.
	Failed map[string]bool
	// Blocked are the entries resolve already knows.
	Blocked plan.Blocks
	// Awaiting are the private endpoint connections left Pending for the
	// PLS owner to approve (connection.go).
	Awaiting []plan.Awaiting

	owners *Owners
	own    map[plan.Key]Ownership
}

// Managed reports whether azsvc may change the observed resource k.
func (r *Resolved) Managed(k plan.Key) bool { return r.own[k].Managed }

// Ownership is the verdict of ccm-semantics §2.4 on the observed resource k.
func (r *Resolved) Ownership(k plan.Key) Ownership { return r.own[k] }

// Owners are the ownership rules the plan was resolved with.
func (r *Resolved) Owners() *Owners { return r.owners }

// AllFailed reports whether every one of services failed: a change only
// they want is not made.
func (r *Resolved) AllFailed(services []string) bool {
	if len(services) == 0 || len(r.Failed) == 0 {
		return false
	}
	for _, s := range services {
		if !r.Failed[s] {
			return false
		}
	}
	return true
}

// conflict blocks a desired resource: it is not written, and what depends
// on it is not either.
func (r *Resolved) conflict(k plan.Key, b plan.Blocked) {
	r.Blocked.Add(b)
	r.Conflicts[k] = true
}

// remove deletes the observed resource k for services.
func (r *Resolved) remove(k plan.Key, services []string) {
	r.Remove[k] = plan.SortedUnique(services)
}

// Resolve computes the final desired state of scope from the desired state
// its Services want and the observed state, in CCM's order: frontends are
// shared first, then public IPs pinned by address are found, ownership
// decides what may be written, removals are settled against what still
// references them, and NSG rules are merged last, since they copy the
// addresses of everything else.
func Resolve(desired, observed *plan.State, scope plan.Scope) (*Resolved, error) {
	if desired == nil || observed == nil {
		return nil, fmt.Errorf("resolve: desired and observed states are required")
	}
	shared := shareFrontends(desired, observed, scope)
	r := newResolver(shared.desired, observed, scope)
	r.failShared(shared.failures)
	r.findMissingPIPs()
	r.findMissingReferences()
	r.endpoints.useExistingDNS()
	if err := r.placeDesired(); err != nil {
		return nil, err
	}
	r.endpoints.settle()
	fate{r}.planRemovals()
	r.endpoints.planDNSRemovals()
	if err := (&nsgMerge{resolver: r}).mergeNSGs(); err != nil {
		return nil, err
	}
	return r.out, nil
}

// resolver holds the working state of one Resolve call.
type resolver struct {
	out      *Resolved
	wanted   *plan.State // the shared desired state, as Services want it
	desList  []plan.Entry
	obs      *plan.Index
	scope    plan.Scope
	own      map[plan.Key]Ownership
	pipIndex addrIndex
	// failedAddrs are the pinned addresses no public IP has, failedSources
	// the frontends of failed Services and the missing resources they name
	// (missing.go): NSG rules drop the destinations they would copy.
	failedAddrs   map[string]bool
	failedSources map[plan.Key]bool
	endpoints     *endpoints // connection.go, dns.go
	// prefixOwners maps UID name prefixes to the Service outside the scope
	// that tags name for them (outsideServices), built on first use.
	prefixOwners map[string]string
}

func newResolver(desired, observed *plan.State, scope plan.Scope) *resolver {
	obs := plan.NewIndex(observed)
	owners := NewOwners(scope, desired, observed)
	own := make(map[plan.Key]Ownership, len(obs.Entries))
	for _, e := range obs.Entries {
		own[e.Key] = owners.Of(e.R)
	}
	des := plan.NewIndex(desired)
	out := &Resolved{
		Desired: plan.NewStateSize(desired.Len()), Wanted: desired, Observed: obs, Scope: scope,
		Remove: map[plan.Key][]string{}, Conflicts: map[plan.Key]bool{}, Failed: map[string]bool{},
		owners: owners, own: own,
	}
	ep := &endpoints{out: out, wanted: desired, desList: des.Entries, obs: obs, own: own, cluster: scope.Cluster,
		used: map[plan.Key]bool{}, usedObserved: map[plan.Key]bool{}}
	return &resolver{out: out, wanted: desired, desList: des.Entries, obs: obs, scope: scope, own: own,
		pipIndex: newAddrIndex(observed), failedAddrs: map[string]bool{}, failedSources: map[plan.Key]bool{}, endpoints: ep}
}

func (r *resolver) block(b plan.Blocked) { r.out.Blocked.Add(b) }

// failShared fails the Services of the resources that cannot share: CCM
// errors such a Service (checkLoadBalancerResourcesConflicts, §3), and ARM
// would refuse the write.
func (r *resolver) failShared(fs []shareFailure) {
	for _, f := range fs {
		b := f.why
		b.Address, b.Services = f.want.ID.Address(), f.want.Services
		r.out.Conflicts[f.want.Key()] = true
		for _, s := range f.want.Services {
			r.out.Failed[s] = true
		}
		r.block(b)
	}
}

// placeDesired decides every desired resource but NSG rules (mergeNSGs):
// a pinned public IP address becomes the IP's ID, a missing subnet or
// user-assigned public IP and an existing resource azsvc may not take
// are blocked, and a shared public IP keeps the Services outside the
// scope in its tag. Resources come in kind-rank order.
func (r *resolver) placeDesired() error {
	for _, e := range r.desList {
		want := e.R
		if !want.Kind().Valid() {
			return fmt.Errorf("desired resource %s: unknown kind %q", want.ID.String(), want.Kind())
		}
		if want.Kind() == plan.KindSecurityRule || r.endpoints.used[e.Key] {
			continue
		}
		want = r.withPIPIDs(want)
		got, exists := r.obs.Get(e.Key)
		if exists && want.Kind() == plan.KindBackendPool {
			want = withPoolMembers(want, got)
		}
		switch {
		case !exists && want.Kind() == plan.KindSubnet:
			r.blockMissingSubnet(want)
			continue
		case !exists && isUserPIPField(want):
			r.blockMissingUserPIP(want)
			continue
		case exists:
			if b, ok := r.ownershipConflict(want, r.own[e.Key]); ok {
				r.out.conflict(e.Key, b)
				continue
			}
			if want.Kind() == plan.KindPublicIP {
				want = r.withPIPServiceTag(want, r.own[e.Key])
			}
		}
		r.out.Desired.PutKey(e.Key, want)
	}
	return nil
}

// blockMissingSubnet reports a PLS NAT subnet that does not exist: azsvc,
// like CCM, never creates subnets, and CCM fails the Service ("failed to get
// private link service subnet", ccm-semantics §1.3 #31). The PLS that
// references it is withdrawn by the diff.
func (r *resolver) blockMissingSubnet(want *plan.Resource) {
	r.out.conflict(want.Key(), plan.Blocked{Address: want.ID.Address(), Code: plan.BlockSubnetMissing, Services: want.Services,
		Value: want.Name(), Other: want.ID.Names[0], Group: want.ID.ResourceGroup})
}

// isUserPIPField reports a desired public IP azsvc owns only some fields
// of (the DNS label of a user-assigned one, ccm-semantics §6): azsvc
// creates only public IPs it tags with k8s-azure-service (§2.3).
func isUserPIPField(want *plan.Resource) bool {
	_, tagged := want.Tags[plan.TagService]
	return want.Kind() == plan.KindPublicIP && !tagged
}

// blockMissingUserPIP reports a user-assigned public IP that does not
// exist: CCM fails the Service ("PublicIP from annotation azure-pip-name
// ... doesn't exist"), and azsvc never creates it.
func (r *resolver) blockMissingUserPIP(want *plan.Resource) {
	r.out.conflict(want.Key(), plan.Blocked{Address: want.ID.Address(), Code: plan.BlockUserPIPMissing, Services: want.Services,
		Value: want.Name(), Group: want.ID.ResourceGroup})
}

// ownershipConflict explains why an existing resource may not take the
// desired body; ok is false when it may.
func (r *resolver) ownershipConflict(want *plan.Resource, own Ownership) (plan.Blocked, bool) {
	if !own.Managed {
		return plan.Blocked{Address: want.ID.Address(), Services: want.Services, Code: plan.BlockNotManaged, Why: own.Why}, true
	}
	if len(own.Services) == 0 && len(own.ForeignServices) == 0 {
		return plan.Blocked{}, false
	}
	for _, s := range want.Services {
		// Pinning binds too (§6 Sharing): secondary owners may use it.
		if slices.Contains(own.Services, s) || slices.Contains(own.ForeignServices, s) || slices.Contains(own.Secondary, s) {
			return plan.Blocked{}, false
		}
	}
	if want.Kind() == plan.KindPublicIP || want.Kind() == plan.KindPrivateLinkService {
		all := append(slices.Clone(own.Services), own.ForeignServices...)
		return plan.Blocked{Address: want.ID.Address(), Services: want.Services, Code: plan.BlockBelongsToOthers, Owners: all}, true
	}
	return plan.Blocked{}, false
}
