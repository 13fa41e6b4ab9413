package resolve

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// A Service that pins the address of another Service's frontend (the
// azure-load-balancer-ipv4/6 annotation or spec.loadBalancerIP naming the
// address of the other's public IP or its private IP, or azure-pip-name
// naming its public IP) shares that frontend: CCM finds it as a secondary
// owner and adds only its own rules and probes to it, and binds itself to a
// managed public IP's k8s-azure-service tag (ccm-semantics §2.4 "FIP
// (secondary/shared)", §6 "Sharing"). Desired state cannot see this when
// Azure assigned the address, so resolve does it against the observed
// state before anything else: the pinned Service's frontend is dropped and
// every reference to it now names the frontend that carries the address.
// ARM would reject a second frontend on one public IP (PublicIPAddressInUse)
// or one private IP (MultipleIpConfigsRequestSamePrivateIpAddress).

// sharing is the outcome of shareFrontends.
type sharing struct {
	desired *plan.State
	// failures are the desired resources whose Services cannot share: the
	// frontend carrying their address is on another load balancer, or a
	// rule of theirs takes a port another Service's rule uses on it.
	failures []shareFailure
}

type shareFailure struct {
	want *plan.Resource
	why  plan.Blocked // the code and facts; failShared fills in the rest
}

// shareFrontends returns desired with every frontend whose address another
// frontend already carries folded into that one. desired is not modified;
// it is returned as it is when nothing is shared.
func shareFrontends(desired, observed *plan.State, scope plan.Scope) sharing {
	des := pinningFrontends(desired)
	if len(des) == 0 {
		return sharing{desired: desired}
	}
	idx := newAddrIndex(observed)
	holders := make(map[feAddr]*plan.Resource, len(des))
	for _, fe := range observed.All() {
		// Map order is fine: ARM lets no two frontends carry one address.
		if fe.Kind() == plan.KindFrontend {
			for _, a := range idx.observedAddrs(fe) {
				holders[a] = fe
			}
		}
	}
	moved := map[plan.Key]*plan.Resource{} // desired frontend -> the frontend it joins
	var out sharing
	for _, fe := range des {
		for _, a := range idx.desiredAddrs(fe) {
			holder, ok := holders[a]
			if !ok {
				holders[a] = fe // a later desired frontend with a joins this one
				continue
			}
			if joined := moved[holder.Key()]; joined != nil {
				holder = joined
			}
			if holder.Key() == fe.Key() || ownFrontend(holder, fe, scope) {
				continue
			}
			if lbOf(holder) != lbOf(fe) {
				out.failures = append(out.failures, shareFailure{want: fe, why: plan.Blocked{Code: plan.BlockSharedAcrossLBs, Other: holder.ID.Address()}})
				continue
			}
			moved[fe.Key()] = holder
		}
	}
	if len(moved) == 0 {
		out.desired = desired
		return out
	}
	out.desired = foldFrontends(desired, observed, moved)
	out.failures = append(out.failures, portConflicts(out.desired, observed, moved, scope)...)
	return out
}

// ownFrontend reports whether holder is a frontend of one of fe's own
// Services under another name (a renamed frontend keeping its static IP):
// CCM replaces it rather than sharing it (ccm-semantics §7.3 step 1.6).
func ownFrontend(holder, fe *plan.Resource, scope plan.Scope) bool {
	owner := ownerInScope(holder.Name(), scope)
	return owner != "" && slices.Contains(fe.Services, owner)
}

// pinningFrontends are the desired frontends that may find their address
// on another frontend, sorted: those pinned by public IP address, to a
// static private IP, or to a public IP the desired state does not create
// (azure-pip-name). A managed public IP of a Service in scope is already
// shared by plan/desired among the Services that name it.
func pinningFrontends(desired *plan.State) []*plan.Resource {
	var out []*plan.Resource
	for _, r := range desired.All() {
		if r.Kind() != plan.KindFrontend {
			continue
		}
		fe := plan.AsFrontend(r)
		ref := fe.PublicIPRef()
		_, _, byAddr := plan.ParsePublicIPByAddress(ref)
		pinned := byAddr || fe.Static()
		if id, ok := ref.(string); ok && id != "" {
			_, created := desired.Get(plan.KeyOf(id))
			pinned = pinned || !created
		}
		if pinned {
			out = append(out, r)
		}
	}
	plan.SortResources(out)
	return out
}

func lbOf(fe *plan.Resource) plan.Key {
	pid, _ := fe.ID.ParentID()
	return pid.Key()
}

// foldFrontends builds the desired state with the moved frontends removed,
// their Services added to the frontends they join, references rewritten
// and the joined managed public IPs' k8s-azure-service tags extended.
func foldFrontends(desired, observed *plan.State, moved map[plan.Key]*plan.Resource) *plan.State {
	out := plan.NewStateSize(desired.Len())
	for _, r := range desired.Resources() {
		if _, gone := moved[r.Key()]; gone {
			continue
		}
		if c, changed := rewriteRefs(r, moved); changed {
			r = c
		}
		out.Put(r)
	}
	for _, k := range slices.Sorted(maps.Keys(moved)) {
		fe, _ := desired.Get(k)
		holder := joinFrontend(out, moved[k], fe.Services)
		if pipID := plan.AsFrontend(holder).PublicIPID(); pipID != "" {
			bindPublicIP(out, observed, plan.KeyOf(pipID), fe.Services)
		}
	}
	return out
}

// joinFrontend adds services to the desired frontend h names, putting the
// observed one in the desired state (only the fields that place it) when no
// Service in scope wanted it yet: the sharing Service keeps it in use.
func joinFrontend(st *plan.State, h *plan.Resource, services []string) *plan.Resource {
	fe, ok := st.Get(h.Key())
	if ok {
		fe = fe.Clone()
	} else {
		fe = &plan.Resource{ID: h.ID, Properties: map[string]any{}, Owned: true}
		for _, f := range []string{"publicIPAddress", "subnet", "privateIPAddress", "privateIPAllocationMethod"} {
			if v, set := h.Properties[f]; set && v != nil {
				fe.Properties[f] = plan.CloneValue(v)
			}
		}
	}
	for _, s := range services {
		fe.AddService(s)
	}
	st.Put(fe)
	return fe
}

// bindPublicIP appends services to the k8s-azure-service tag of a managed
// public IP (ccm-semantics §6 "Sharing", bindServicesToPIP). A public IP no
// Service in scope wanted enters the desired state with that tag alone;
// resolve keeps the out-of-scope Services already in it
// (withPIPServiceTag). A user-assigned one has no tag and is left as is.
func bindPublicIP(st, observed *plan.State, pip plan.Key, services []string) {
	r, ok := st.Get(pip)
	if ok {
		if _, tagged := r.Tags[plan.TagService]; !tagged {
			return
		}
		r = r.Clone()
	} else {
		got, seen := observed.Get(pip)
		if !seen {
			return
		}
		if _, tagged := plan.TagValue(got.Tags, plan.TagService, plan.LegacyTagService); !tagged {
			return
		}
		r = &plan.Resource{ID: got.ID, Tags: map[string]string{}, Owned: true}
	}
	for _, s := range services {
		r.AddService(s)
	}
	r.Tags[plan.TagService] = strings.Join(r.Services, ",")
	st.Put(r)
}

// rewriteRefs returns a copy of r whose references to a moved frontend
// (an {"id": …} object or an AfterApply marker) name the frontend it joins.
func rewriteRefs(r *plan.Resource, moved map[plan.Key]*plan.Resource) (*plan.Resource, bool) {
	if !refersTo(r.Properties, moved) {
		return r, false
	}
	c := r.Clone()
	c.Properties = rewriteValue(c.Properties, moved).(map[string]any)
	return c, true
}

func refersTo(v any, moved map[plan.Key]*plan.Resource) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "id" && moved[plan.KeyOf(s)] != nil {
				return true
			}
			if refersTo(x, moved) {
				return true
			}
		}
	case []any:
		for _, x := range t {
			if refersTo(x, moved) {
				return true
			}
		}
	default:
		src, _, ok := plan.UnknownSource(v)
		return ok && moved[src] != nil
	}
	return false
}

// rewriteValue rewrites v in place; v is a fresh copy.
func rewriteValue(v any, moved map[plan.Key]*plan.Resource) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "id" {
				if h := moved[plan.KeyOf(s)]; h != nil {
					t[k] = h.ID.String()
				}
				continue
			}
			t[k] = rewriteValue(x, moved)
		}
		return t
	case []any:
		for i, x := range t {
			t[i] = rewriteValue(x, moved)
		}
		return t
	}
	if src, field, ok := plan.UnknownSource(v); ok && moved[src] != nil {
		return plan.AfterApply(moved[src].Key(), field)
	}
	return v
}

// feAddr is what two frontends that must be one have in common: the key of
// their public IP, or their load balancer and private IP.
type feAddr struct {
	lb  plan.Key
	key string
}

// addrIndex finds observed public IPs by collection and address.
type addrIndex map[plan.Key]map[string]plan.Key

func newAddrIndex(observed *plan.State) addrIndex {
	idx := addrIndex{}
	for _, r := range observed.All() {
		if r.Kind() != plan.KindPublicIP {
			continue
		}
		ip := plan.AsPublicIP(r).Address()
		if ip == "" {
			continue
		}
		coll := plan.PublicIPCollection(r.ID.Subscription, r.ID.ResourceGroup)
		if idx[coll] == nil {
			idx[coll] = map[string]plan.Key{}
		}
		idx[coll][plan.CanonicalIP(ip)] = r.Key()
	}
	return idx
}

// observedAddrs are the sharing keys of an observed frontend: its public
// IP, or its private IP on its load balancer.
func (addrIndex) observedAddrs(r *plan.Resource) []feAddr {
	fe := plan.AsFrontend(r)
	var out []feAddr
	if id := fe.PublicIPID(); id != "" {
		out = append(out, feAddr{key: string(plan.KeyOf(id))})
	}
	if ip := fe.PrivateIP(); ip != "" {
		out = append(out, privateAddr(r, ip))
	}
	return out
}

// desiredAddrs are the sharing keys of a desired frontend: its public IP
// (a pinned address resolved against the observed public IPs) or its
// static private IP.
func (idx addrIndex) desiredAddrs(r *plan.Resource) []feAddr {
	fe := plan.AsFrontend(r)
	ref := fe.PublicIPRef()
	if coll, addr, ok := plan.ParsePublicIPByAddress(ref); ok {
		if k, found := idx[coll][plan.CanonicalIP(addr)]; found {
			return []feAddr{{key: string(k)}}
		}
		return nil // not found: findMissingPIPs fails the Service
	}
	if id, ok := ref.(string); ok && id != "" {
		return []feAddr{{key: string(plan.KeyOf(id))}}
	}
	if ip := fe.PrivateIP(); ip != "" && fe.Static() {
		return []feAddr{privateAddr(r, ip)}
	}
	return nil
}

func privateAddr(fe *plan.Resource, ip string) feAddr {
	return feAddr{lb: lbOf(fe), key: plan.CanonicalIP(ip)}
}

// portConflicts finds the desired rules of sharing Services that take a
// protocol and frontend port another Service's rule keeps using on the
// joined frontend: an observed rule that stays (still desired, or of a
// Service out of scope) under another name.
func portConflicts(desired, observed *plan.State, moved map[plan.Key]*plan.Resource, scope plan.Scope) []shareFailure {
	joined := map[plan.Key]*plan.Resource{}
	for _, h := range moved {
		joined[h.Key()] = h
	}
	taken := map[string]*plan.Resource{} // frontend|protocol/port -> rule
	for _, r := range observed.OfKind(plan.KindRule) {
		fe := plan.AsRule(r).FrontendID()
		if joined[fe] == nil {
			continue
		}
		if _, kept := desired.Get(r.Key()); !kept && dropped(r.Name(), scope) {
			continue // removed in the same load balancer write
		}
		taken[string(fe)+"|"+rulePort(r)] = r
	}
	var out []shareFailure
	for _, r := range desired.OfKind(plan.KindRule) {
		fe := plan.AsRule(r).FrontendID()
		other, clash := taken[string(fe)+"|"+rulePort(r)]
		if joined[fe] == nil || !clash || other.Key() == r.Key() {
			continue
		}
		owner := ownerInScope(other.Name(), scope) // "": a Service outside the input
		out = append(out, shareFailure{want: r, why: plan.Blocked{Code: plan.BlockSharedPort, Other: joined[fe].ID.Address(),
			Owners: []string{owner}, Group: other.Name(), Value: rulePort(r)}})
	}
	return out
}

func rulePort(r *plan.Resource) string {
	rule := plan.AsRule(r)
	p, _ := rule.FrontendPort()
	return strings.ToLower(rule.Protocol()) + "/" + fmt.Sprint(p)
}

// dropped reports whether an observed rule no desired resource keeps goes
// in this plan: its Service is in scope, or it is CCM's and pruned.
func dropped(name string, scope plan.Scope) bool {
	token, _, _ := strings.Cut(strings.ToLower(name), "-")
	return ownerInScope(name, scope) != "" || scope.Prune && plan.IsUIDPrefix(token)
}

// ownerInScope is the in-scope Service whose prefix starts name, or "".
func ownerInScope(name string, scope plan.Scope) string {
	token, _, _ := strings.Cut(strings.ToLower(name), "-")
	for _, ref := range scope.Services {
		if ref.Prefix != "" && strings.HasPrefix(token, strings.ToLower(ref.Prefix)) {
			return ref.Name
		}
	}
	return ""
}
