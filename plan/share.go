package plan

import (
	"fmt"
	"strings"
)

// A Service that pins the address of another Service's frontend (the
// azure-load-balancer-ipv4/6 annotation or spec.loadBalancerIP naming the
// address of the other's public IP or its private IP, or azure-pip-name
// naming its public IP) shares that frontend: CCM finds it as a secondary
// owner and adds only its own rules and probes to it, and binds itself to a
// managed public IP's k8s-azure-service tag (ccm-semantics §2.4 "FIP
// (secondary/shared)", §6 "Sharing"). Desired state cannot see this when
// Azure assigned the address, so the diff does it against the observed
// state before anything else: the pinned Service's frontend is dropped and
// every reference to it now names the frontend that carries the address.
// ARM would reject a second frontend on one public IP (PublicIPAddressInUse)
// or one private IP (MultipleIpConfigsRequestSamePrivateIpAddress).

// sharing is the outcome of shareFrontends.
type sharing struct {
	desired *State
	// failures are the desired resources whose Services cannot share: the
	// frontend carrying their address is on another load balancer, or a
	// rule of theirs takes a port another Service's rule uses on it.
	failures []shareFailure
}

type shareFailure struct {
	want *Resource
	why  Blocked // the code and facts; failShared fills in the rest
}

// shareFrontends returns desired with every frontend whose address another
// frontend already carries folded into that one. desired is not modified;
// it is returned as it is when nothing is shared.
func shareFrontends(desired, observed *State, scope Scope) sharing {
	des := pinningFrontends(desired)
	if len(des) == 0 {
		return sharing{desired: desired}
	}
	idx := newAddrIndex(observed)
	holders := make(map[feAddr]*Resource, len(des))
	for _, fe := range observed.resources {
		// Map order is fine: ARM lets no two frontends carry one address.
		if fe.Kind() == KindFrontend {
			for _, a := range idx.observedAddrs(fe) {
				holders[a] = fe
			}
		}
	}
	moved := map[Key]*Resource{} // desired frontend -> the frontend it joins
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
				out.failures = append(out.failures, shareFailure{want: fe, why: Blocked{Code: BlockSharedAcrossLBs, Other: holder.ID.Address()}})
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
func ownFrontend(holder, fe *Resource, scope Scope) bool {
	owner := ownerInScope(holder.Name(), scope)
	for _, s := range fe.Services {
		if owner != "" && s == owner {
			return true
		}
	}
	return false
}

// pinningFrontends are the desired frontends that may find their address
// on another frontend, sorted: those pinned by public IP address, to a
// static private IP, or to a public IP the desired state does not create
// (azure-pip-name). A managed public IP of a Service in scope is already
// shared by plan/desired among the Services that name it.
func pinningFrontends(desired *State) []*Resource {
	var out []*Resource
	for _, fe := range desired.resources {
		if fe.Kind() != KindFrontend {
			continue
		}
		ref := refMarker(fe.Properties["publicIPAddress"])
		_, _, byAddr := ParsePublicIPByAddress(ref)
		method, _ := fe.Properties["privateIPAllocationMethod"].(string)
		pinned := byAddr || strings.EqualFold(method, "Static")
		if id, ok := ref.(string); ok && id != "" {
			_, created := desired.resources[KeyOf(id)]
			pinned = pinned || !created
		}
		if pinned {
			out = append(out, fe)
		}
	}
	SortResources(out)
	return out
}

func lbOf(fe *Resource) Key {
	pid, _ := fe.ID.ParentID()
	return pid.Key()
}

// foldFrontends builds the desired state with the moved frontends removed,
// their Services added to the frontends they join, references rewritten
// and the joined managed public IPs' k8s-azure-service tags extended.
func foldFrontends(desired, observed *State, moved map[Key]*Resource) *State {
	out := NewStateSize(desired.Len())
	for _, r := range desired.Resources() {
		if _, gone := moved[r.Key()]; gone {
			continue
		}
		if c, changed := rewriteRefs(r, moved); changed {
			r = c
		}
		out.Put(r)
	}
	for _, k := range sortedMoved(moved) {
		fe, _ := desired.Get(k)
		holder := joinFrontend(out, moved[k], fe.Services)
		if pipID := refID(holder.Properties["publicIPAddress"]); pipID != "" {
			bindPublicIP(out, observed, KeyOf(pipID), fe.Services)
		}
	}
	return out
}

func sortedMoved(m map[Key]*Resource) []Key {
	out := make([]Key, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sortKeys(out)
	return out
}

// joinFrontend adds services to the desired frontend h names, putting the
// observed one in the desired state (only the fields that place it) when no
// Service in scope wanted it yet: the sharing Service keeps it in use.
func joinFrontend(st *State, h *Resource, services []string) *Resource {
	fe, ok := st.Get(h.Key())
	if ok {
		fe = cloneResource(fe)
	} else {
		fe = &Resource{ID: h.ID, Properties: map[string]any{}, Owned: true}
		for _, f := range []string{"publicIPAddress", "subnet", "privateIPAddress", "privateIPAllocationMethod"} {
			if v, set := h.Properties[f]; set && v != nil {
				fe.Properties[f] = cloneValue(v)
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
// the diff keeps the out-of-scope Services already in it
// (withPIPServiceTag). A user-assigned one has no tag and is left as is.
func bindPublicIP(st, observed *State, pip Key, services []string) {
	r, ok := st.Get(pip)
	if ok {
		if _, tagged := r.Tags[TagService]; !tagged {
			return
		}
		r = cloneResource(r)
	} else {
		got, seen := observed.Get(pip)
		if !seen {
			return
		}
		if _, tagged := tagValue(got.Tags, TagService, legacyTagService); !tagged {
			return
		}
		r = &Resource{ID: got.ID, Tags: map[string]string{}, Owned: true}
	}
	for _, s := range services {
		r.AddService(s)
	}
	r.Tags[TagService] = strings.Join(r.Services, ",")
	st.Put(r)
}

// rewriteRefs returns a copy of r whose references to a moved frontend
// (an {"id": …} object or an AfterApply marker) name the frontend it joins.
func rewriteRefs(r *Resource, moved map[Key]*Resource) (*Resource, bool) {
	if !refersTo(r.Properties, moved) {
		return r, false
	}
	c := cloneResource(r)
	c.Properties = rewriteValue(c.Properties, moved).(map[string]any)
	return c, true
}

func refersTo(v any, moved map[Key]*Resource) bool {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "id" && moved[KeyOf(s)] != nil {
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
		src, _, ok := UnknownSource(v)
		return ok && moved[src] != nil
	}
	return false
}

// rewriteValue rewrites v in place; v is a fresh copy.
func rewriteValue(v any, moved map[Key]*Resource) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if s, ok := x.(string); ok && k == "id" {
				if h := moved[KeyOf(s)]; h != nil {
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
	if src, field, ok := UnknownSource(v); ok && moved[src] != nil {
		return AfterApply(moved[src].Key(), field)
	}
	return v
}

// feAddr is what two frontends that must be one have in common: the key of
// their public IP, or their load balancer and private IP.
type feAddr struct {
	lb  Key
	key string
}

// addrIndex finds observed public IPs by address, as diff_pip.go does.
type addrIndex map[Key]map[string]Key

func newAddrIndex(observed *State) addrIndex {
	idx := addrIndex{}
	for _, r := range observed.resources {
		ip, _ := r.Properties["ipAddress"].(string)
		if ip == "" || r.Kind() != KindPublicIP {
			continue
		}
		coll := PublicIPCollection(r.ID.Subscription, r.ID.ResourceGroup)
		if idx[coll] == nil {
			idx[coll] = map[string]Key{}
		}
		idx[coll][canonicalIP(ip)] = r.Key()
	}
	return idx
}

// observedAddrs are the sharing keys of an observed frontend: its public
// IP, or its private IP on its load balancer.
func (addrIndex) observedAddrs(fe *Resource) []feAddr {
	var out []feAddr
	if id := refID(fe.Properties["publicIPAddress"]); id != "" {
		out = append(out, feAddr{key: string(KeyOf(id))})
	}
	if ip, ok := fe.Properties["privateIPAddress"].(string); ok && ip != "" {
		out = append(out, privateAddr(fe, ip))
	}
	return out
}

// desiredAddrs are the sharing keys of a desired frontend: its public IP
// (a pinned address resolved against the observed public IPs) or its
// static private IP.
func (idx addrIndex) desiredAddrs(fe *Resource) []feAddr {
	ref := refMarker(fe.Properties["publicIPAddress"])
	if coll, addr, ok := ParsePublicIPByAddress(ref); ok {
		if k, found := idx[coll][canonicalIP(addr)]; found {
			return []feAddr{{key: string(k)}}
		}
		return nil // not found: findMissingPIPs fails the Service
	}
	if id, ok := ref.(string); ok && id != "" {
		return []feAddr{{key: string(KeyOf(id))}}
	}
	method, _ := fe.Properties["privateIPAllocationMethod"].(string)
	if ip, ok := fe.Properties["privateIPAddress"].(string); ok && ip != "" && strings.EqualFold(method, "Static") {
		return []feAddr{privateAddr(fe, ip)}
	}
	return nil
}

func privateAddr(fe *Resource, ip string) feAddr {
	return feAddr{lb: lbOf(fe), key: canonicalIP(ip)}
}

// failShared fails the Services of the resources that cannot share: CCM
// errors such a Service (checkLoadBalancerResourcesConflicts, §3), and ARM
// would refuse the write.
func (d *differ) failShared(fs []shareFailure) {
	for _, f := range fs {
		addr := f.want.ID.Address()
		d.conflicts[f.want.Key()] = true
		for _, s := range f.want.Services {
			d.failed[s] = addr
		}
		b := f.why
		b.Address, b.Services = addr, f.want.Services
		d.block(b)
	}
}

// portConflicts finds the desired rules of sharing Services that take a
// protocol and frontend port another Service's rule keeps using on the
// joined frontend: an observed rule that stays (still desired, or of a
// Service out of scope) under another name.
func portConflicts(desired, observed *State, moved map[Key]*Resource, scope Scope) []shareFailure {
	joined := map[Key]*Resource{}
	for _, h := range moved {
		joined[h.Key()] = h
	}
	taken := map[string]*Resource{} // frontend|protocol/port -> rule
	for _, r := range observed.OfKind(KindRule) {
		fe := KeyOf(refID(r.Properties["frontendIPConfiguration"]))
		if joined[fe] == nil {
			continue
		}
		if _, kept := desired.Get(r.Key()); !kept && dropped(r.Name(), scope) {
			continue // removed in the same load balancer write
		}
		taken[string(fe)+"|"+rulePort(r)] = r
	}
	var out []shareFailure
	for _, r := range desired.OfKind(KindRule) {
		fe := KeyOf(refID(r.Properties["frontendIPConfiguration"]))
		other, clash := taken[string(fe)+"|"+rulePort(r)]
		if joined[fe] == nil || !clash || other.Key() == r.Key() {
			continue
		}
		owner := ownerInScope(other.Name(), scope) // "": a Service outside the input
		out = append(out, shareFailure{want: r, why: Blocked{Code: BlockSharedPort, Other: joined[fe].ID.Address(),
			Owners: []string{owner}, Group: other.Name(), Value: rulePort(r)}})
	}
	return out
}

func rulePort(r *Resource) string {
	p, _ := number(r.Properties["frontendPort"])
	proto, _ := r.Properties["protocol"].(string)
	return strings.ToLower(proto) + "/" + fmt.Sprint(int(p))
}

// dropped reports whether an observed rule no desired resource keeps goes
// in this plan: its Service is in scope, or it is CCM's and pruned.
func dropped(name string, scope Scope) bool {
	token, _, _ := strings.Cut(strings.ToLower(name), "-")
	return ownerInScope(name, scope) != "" || scope.Prune && isCCMPrefix(token)
}

// ownerInScope is the in-scope Service whose prefix starts name, or "".
func ownerInScope(name string, scope Scope) string {
	token, _, _ := strings.Cut(strings.ToLower(name), "-")
	for _, ref := range scope.Services {
		if ref.Prefix != "" && strings.HasPrefix(token, strings.ToLower(ref.Prefix)) {
			return ref.Name
		}
	}
	return ""
}
