package resolve

import (
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// endpoints settles the private endpoints, their connections to private
// link services and the private DNS zones and links that name them
// against ARM (this file and dns.go). Its verdicts go into out.
type endpoints struct {
	out     *Resolved
	wanted  *plan.State // the shared desired state, as Services want it
	desList []plan.Entry
	obs     *plan.Index
	own     map[plan.Key]Ownership
	cluster string
	// used are the desired DNS zones and links existing ones serve, and
	// usedObserved those existing links (dns.go): placeDesired leaves the
	// used ones out.
	used, usedObserved map[plan.Key]bool
	plsInUse           map[plan.Key]plan.Key // connected, built on first use
}

// settle decides, against ARM, what the desired private endpoints
// need besides their bodies:
//   - an endpoint whose subnet does not exist, or whose PLS does not let
//     its subscription see it (ARM refuses the connection, arm-rules §7.3),
//     is blocked, and what copies its address with it;
//   - a connection the endpoint names by alias and ARM shows by ID (or the
//     other way round) is left as ARM shows it: both name one PLS;
//   - an approval (spec.approve) is kept only for a connection that is,
//     or will be, Pending, and only through a PLS azsvc manages; it is
//     addressed by the connection's ARM name once ARM has named it;
//   - the connections left Pending are listed in Awaiting.
func (ep *endpoints) settle() {
	approvals := map[plan.Key]bool{} // endpoints an approval is kept for
	for _, e := range ep.desList {
		switch e.R.Kind() {
		case plan.KindPrivateEndpoint:
			ep.check(e.Key)
		case plan.KindPLSConnection:
			if pe, ok := ep.settleApproval(e.Key); ok {
				approvals[pe] = true
			}
		}
	}
	for _, e := range ep.desList {
		if e.R.Kind() != plan.KindPrivateEndpoint || approvals[e.Key] {
			continue
		}
		if want, ok := ep.out.Desired.Get(e.Key); ok {
			ep.noteAwaiting(want)
		}
	}
	ep.withdrawOrphanDNS()
}

// withdrawOrphanDNS withdraws the zones and links that serve only blocked
// endpoints: a link names the blocked endpoint's virtual network, which may
// not exist (ARM refuses the link half-way through an apply), and a zone
// for nothing would be left empty. Records follow their endpoint's address
// and are withdrawn with it (diff.blockDependents).
func (ep *endpoints) withdrawOrphanDNS() {
	blocked := map[string]plan.Key{}
	for _, e := range ep.desList {
		if e.R.Kind() != plan.KindPrivateEndpoint {
			continue
		}
		if _, kept := ep.out.Desired.Get(e.Key); !kept && len(e.R.Services) == 1 {
			blocked[e.R.Services[0]] = e.Key
		}
	}
	if len(blocked) == 0 {
		return
	}
	for _, e := range ep.desList {
		if e.R.Kind() != plan.KindPrivateDNSZone && e.R.Kind() != plan.KindVNetLink {
			continue
		}
		want, ok := ep.out.Desired.Get(e.Key)
		if !ok || len(want.Services) == 0 || slices.ContainsFunc(want.Services, func(s string) bool { _, b := blocked[s]; return !b }) {
			continue
		}
		ep.withdraw(e.Key, plan.Blocked{Address: want.ID.Address(), Code: plan.BlockDependsOnBlocked,
			Other: blocked[want.Services[0]].Address(), Services: want.Services})
	}
}

// check blocks an endpoint ARM would refuse and settles how it
// names its PLS.
func (ep *endpoints) check(k plan.Key) {
	want, ok := ep.out.Desired.Get(k)
	if !ok {
		return
	}
	view := plan.AsPrivateEndpoint(want)
	if sid, err := plan.ParseID(view.SubnetID()); err == nil {
		if _, exists := ep.obs.Get(sid.Key()); !exists {
			ep.withdraw(k, plan.Blocked{Address: want.ID.Address(), Code: plan.BlockSubnetMissing, Services: want.Services,
				Value: sid.Name(), Other: sid.Names[0], Group: sid.ResourceGroup})
			return
		}
	}
	pls, plsKey := ep.plsOf(view.Target())
	if pls != nil && !visibleTo(pls, want.ID.Subscription) {
		ep.withdraw(k, plan.Blocked{Address: want.ID.Address(), Code: plan.BlockNotVisible, Services: want.Services,
			Other: plsKey.Address(), Value: want.ID.Subscription})
		return
	}
	got, exists := ep.obs.Get(k)
	if !exists || plsKey == "" {
		return
	}
	observed := plan.AsPrivateEndpoint(got).Target()
	if s, isString := observed.(string); isString && view.ConnectionList() == plan.AsPrivateEndpoint(got).ConnectionList() {
		if _, gotKey := ep.plsOf(s); gotKey == plsKey {
			ep.out.Desired.PutKey(k, withTarget(want, s))
		}
	}
}

// connected maps the private link services the desired endpoints connect
// to (by ID or alias) to one such endpoint, built on first use.
func (ep *endpoints) connected() map[plan.Key]plan.Key {
	if ep.plsInUse != nil {
		return ep.plsInUse
	}
	ep.plsInUse = map[plan.Key]plan.Key{}
	for _, e := range ep.desList {
		if e.R.Kind() != plan.KindPrivateEndpoint {
			continue
		}
		if want, ok := ep.out.Desired.Get(e.Key); ok {
			if _, pls := ep.plsOf(plan.AsPrivateEndpoint(want).Target()); pls != "" {
				if _, seen := ep.plsInUse[pls]; !seen {
					ep.plsInUse[pls] = e.Key
				}
			}
		}
	}
	return ep.plsInUse
}

// withdraw blocks the desired resource k: it is not written.
func (ep *endpoints) withdraw(k plan.Key, b plan.Blocked) {
	ep.out.conflict(k, b)
	ep.out.Desired.Delete(k)
}

// withTarget returns want naming its PLS by target.
func withTarget(want *plan.Resource, target string) *plan.Resource {
	w := want.Clone()
	list := plan.AsPrivateEndpoint(w).ConnectionList()
	conns, _ := w.Properties[list].([]any)
	conn, _ := conns[0].(map[string]any)
	props, _ := conn["properties"].(map[string]any)
	props["privateLinkServiceId"] = target
	return w
}

// plsOf finds the private link service a connection target names: the
// source of an alias marker, an ID, or an alias ARM reported. The resource
// is the desired one when azsvc writes it, else the observed one; nil when
// neither is known.
func (ep *endpoints) plsOf(target any) (*plan.Resource, plan.Key) {
	var k plan.Key
	switch t := target.(type) {
	case string:
		if id, err := plan.ParseID(t); err == nil {
			k = id.Key()
			break
		}
		for _, e := range ep.obs.OfKind(plan.KindPrivateLinkService) {
			if a := plan.AsPrivateLinkService(e.R).Alias(); a != "" && strings.EqualFold(a, t) {
				k = e.Key
			}
		}
	default:
		k, _, _ = plan.UnknownSource(target)
	}
	if k == "" {
		return nil, ""
	}
	if want, ok := ep.out.Desired.Get(k); ok {
		return want, k
	}
	if got, ok := ep.obs.Get(k); ok {
		return got, k
	}
	return nil, k
}

// visibleTo reports whether a PLS lets subscription sub connect: its own
// subscription always, else an empty list (RBAC decides, ccm-semantics §1
// #36), "*" or sub listed.
func visibleTo(pls *plan.Resource, sub string) bool {
	if strings.EqualFold(pls.ID.Subscription, sub) {
		return true
	}
	vis := plan.AsPrivateLinkService(pls).Visibility()
	return len(vis) == 0 || containsFold(vis, "*") || containsFold(vis, sub)
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// status is the state the endpoint's connection is in, or will be in once
// the endpoint is created (arm-rules §7.3: automatic connections from the
// PLS's subscription or one it auto-approves are Approved, others
// Pending). A rejected or removed connection counts as new: the diff
// re-creates its endpoint. "" when the PLS is unknown.
func (ep *endpoints) status(want *plan.Resource) (status string, current bool) {
	if got, ok := ep.obs.Get(want.Key()); ok && kept(want, got) {
		if v := plan.AsPrivateEndpoint(got); !v.Lost() && v.Status() != "" {
			return v.Status(), true
		}
	}
	view := plan.AsPrivateEndpoint(want)
	if view.ConnectionList() == plan.ManualConnections {
		return plan.ConnectionPending, false
	}
	pls, _ := ep.plsOf(view.Target())
	switch {
	case pls == nil:
		return "", false
	case strings.EqualFold(pls.ID.Subscription, want.ID.Subscription),
		containsFold(plan.AsPrivateLinkService(pls).AutoApproval(), want.ID.Subscription):
		return plan.ConnectionApproved, false
	}
	return plan.ConnectionPending, false
}

// settleApproval keeps the desired approval k when its connection needs
// one and azsvc may give it; it returns the endpoint approved.
func (ep *endpoints) settleApproval(k plan.Key) (plan.Key, bool) {
	c, ok := ep.out.Desired.Get(k)
	if !ok {
		return "", false
	}
	peKey := plan.KeyOf(plan.RefID(c.Properties["privateEndpoint"]))
	pe, ok := ep.out.Desired.Get(peKey)
	if !ok {
		ep.out.Desired.Delete(k) // the endpoint is blocked, and says why
		return "", false
	}
	plsKey, _ := k.Parent()
	if why, managed := ep.plsManaged(plsKey); !managed {
		ep.withdraw(k, plan.Blocked{Address: c.ID.Address(), Code: plan.BlockNotManaged, Services: c.Services, Why: why})
		return "", false
	}
	if status, _ := ep.status(pe); !strings.EqualFold(status, plan.ConnectionPending) {
		ep.out.Desired.Delete(k)
		return "", false
	}
	if got, ok := ep.obs.Get(plsKey); ok {
		if name, _, found := plan.AsPrivateLinkService(got).ConnectionOf(peKey); found && !strings.EqualFold(name, c.Name()) {
			named := c.Clone()
			named.ID = plan.ChildID(got.ID, plan.KindPLSConnection, name)
			ep.out.Desired.Delete(k)
			ep.out.Desired.Put(named)
		}
	}
	return peKey, true
}

// plsManaged reports whether azsvc manages the PLS k: it writes it, or
// ownership rules say it may (ccm-semantics §2.4).
func (ep *endpoints) plsManaged(k plan.Key) (plan.Unmanaged, bool) {
	if _, ok := ep.out.Desired.Get(k); ok {
		return plan.Unmanaged{}, true
	}
	if _, ok := ep.obs.Get(k); ok {
		own := ep.own[k]
		return own.Why, own.Managed
	}
	return plan.Unmanaged{Code: plan.UnmanagedUntagged, Value: ep.cluster}, false
}

// noteAwaiting lists the endpoint when its connection stays Pending.
func (ep *endpoints) noteAwaiting(pe *plan.Resource) {
	status, current := ep.status(pe)
	if !strings.EqualFold(status, plan.ConnectionPending) {
		return
	}
	a := plan.Awaiting{Address: pe.ID.Address(), Services: pe.Services}
	if current {
		a.Status = status
	}
	target := plan.AsPrivateEndpoint(pe).Target()
	if _, k := ep.plsOf(target); k != "" {
		a.Target = k.Address()
	} else if s, ok := target.(string); ok {
		a.Target = s
	}
	ep.out.Awaiting = append(ep.out.Awaiting, a)
}

// kept reports whether the endpoint got keeps its connection: the desired
// one is in the same list, to the same target, from the same subnet (the
// fields whose change re-creates it, diff's replaceFields).
func kept(want, got *plan.Resource) bool {
	w, g := plan.AsPrivateEndpoint(want), plan.AsPrivateEndpoint(got)
	wt, _ := w.Target().(string)
	gt, _ := g.Target().(string)
	return w.ConnectionList() == g.ConnectionList() && wt != "" && strings.EqualFold(wt, gt) &&
		strings.EqualFold(w.SubnetID(), g.SubnetID())
}
