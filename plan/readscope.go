package plan

import (
	"slices"
	"strings"
)

// ReadScope names what a plan reads from ARM: per top-level kind, the
// resource groups that may hold it, each in its own subscription, and the
// virtual networks whose subnets matter. Reads are list calls per kind and
// group, so their number does not grow with the number of Services or
// private endpoints (DESIGN.md "Dependencies"; the provider lists, never
// GETs one by one). A private endpoint in a guest subscription is read
// there, with that subscription's clients.
type ReadScope struct {
	// Groups maps a top-level kind (load balancer, public IP, NSG, PLS,
	// private endpoint, private DNS zone) to resource groups.
	Groups map[Kind][]Group
	// VirtualNetworks are the VNets whose subnets are read.
	VirtualNetworks []VNetRef
	// Subnets are the subnets the desired state places resources in, for
	// targets that must create them first (the local emulator's baseline).
	Subnets []ID
}

// Group is a resource group of a subscription. An empty Subscription is the
// target's own (the cluster's): where the configuration places resources.
type Group struct {
	Subscription string `json:"subscription,omitempty"`
	Name         string `json:"name"`
	// Optional marks a group found through ARM rather than named by the
	// input (the group of an endpoint connected to a PLS): one azsvc may
	// not be allowed to read, which then reads as empty.
	Optional bool `json:"optional,omitempty"`
}

// In returns g with an empty subscription replaced by sub.
func (g Group) In(sub string) Group {
	if g.Subscription == "" {
		g.Subscription = sub
	}
	return g
}

func (g Group) same(o Group) bool {
	return strings.EqualFold(g.Subscription, o.Subscription) && strings.EqualFold(g.Name, o.Name)
}

// VNetRef names a virtual network; an empty Subscription is the target's.
type VNetRef struct {
	Subscription  string `json:"subscription,omitempty"`
	ResourceGroup string `json:"resource_group"`
	Name          string `json:"name"`
}

// In returns v with an empty subscription replaced by sub.
func (v VNetRef) In(sub string) VNetRef {
	if v.Subscription == "" {
		v.Subscription = sub
	}
	return v
}

func (v VNetRef) same(o VNetRef) bool {
	return strings.EqualFold(v.Subscription, o.Subscription) && strings.EqualFold(v.ResourceGroup, o.ResourceGroup) &&
		strings.EqualFold(v.Name, o.Name)
}

// ReadKinds are the kinds a ReadScope lists, in read order.
var ReadKinds = []Kind{KindLoadBalancer, KindPublicIP, KindPublicIPPrefix, KindSecurityGroup, KindPrivateLinkService,
	KindPrivateEndpoint, KindPrivateDNSZone}

// Add records that group, in the target's subscription, may hold
// resources of kind k (its top-level kind for a child).
func (r *ReadScope) Add(k Kind, group string) { r.AddIn("", k, group) }

// AddIn records that group of subscription sub may hold resources of kind
// k. Names are kept once, compared case-insensitively.
func (r *ReadScope) AddIn(sub string, k Kind, group string) {
	if p := k.Parent(); p != "" {
		k = p
	}
	if group == "" || !slices.Contains(ReadKinds, k) {
		return
	}
	if r.Groups == nil {
		r.Groups = map[Kind][]Group{}
	}
	g := Group{Subscription: sub, Name: group}
	if !slices.ContainsFunc(r.Groups[k], g.same) {
		r.Groups[k] = append(r.Groups[k], g)
	}
}

// AddOptional records a group as AddIn does, marked Optional.
func (r *ReadScope) AddOptional(sub string, k Kind, group string) {
	r.AddIn(sub, k, group)
	for i, g := range r.Groups[k] {
		if g.same(Group{Subscription: sub, Name: group}) {
			r.Groups[k][i].Optional = true
		}
	}
}

// Has reports whether the scope reads group of subscription sub for kind
// k, an empty subscription standing for def.
func (r *ReadScope) Has(k Kind, sub, group, def string) bool {
	want := Group{Subscription: sub, Name: group}.In(def)
	for _, g := range r.GroupsOf(k, def) {
		if g.same(want) {
			return true
		}
	}
	return false
}

// AddID records where the resource id lives: its group for its kind, or
// for a subnet its virtual network.
func (r *ReadScope) AddID(id ID) {
	if id.Kind == KindSubnet {
		r.AddVNet(VNetRef{Subscription: id.Subscription, ResourceGroup: id.ResourceGroup, Name: id.Names[0]})
		return
	}
	r.AddIn(id.Subscription, id.Kind, id.ResourceGroup)
}

// AddVNet records a virtual network whose subnets are read.
func (r *ReadScope) AddVNet(v VNetRef) {
	if v.ResourceGroup == "" || v.Name == "" {
		return
	}
	if !slices.ContainsFunc(r.VirtualNetworks, v.same) {
		r.VirtualNetworks = append(r.VirtualNetworks, v)
	}
}

// GroupsOf lists the groups holding kind k with empty subscriptions
// replaced by sub (the target's), each once.
func (r *ReadScope) GroupsOf(k Kind, sub string) []Group {
	var out []Group
	for _, g := range r.Groups[k] {
		if g = g.In(sub); !slices.ContainsFunc(out, g.same) {
			out = append(out, g)
		}
	}
	return out
}

// VNetsIn lists the virtual networks with empty subscriptions replaced by
// sub, each once.
func (r *ReadScope) VNetsIn(sub string) []VNetRef {
	var out []VNetRef
	for _, v := range r.VirtualNetworks {
		if v = v.In(sub); !slices.ContainsFunc(out, v.same) {
			out = append(out, v)
		}
	}
	return out
}

// AllGroups lists every resource group of the scope once, in kind order,
// with empty subscriptions replaced by sub.
func (r *ReadScope) AllGroups(sub string) []Group {
	var out []Group
	for _, k := range ReadKinds {
		for _, g := range r.GroupsOf(k, sub) {
			if !slices.ContainsFunc(out, g.same) {
				out = append(out, g)
			}
		}
	}
	return out
}

// Clone copies the scope, so adding to the copy leaves r as it is.
func (r ReadScope) Clone() ReadScope {
	c := r
	c.Groups = make(map[Kind][]Group, len(r.Groups))
	for k, g := range r.Groups {
		c.Groups[k] = slices.Clone(g)
	}
	c.VirtualNetworks = slices.Clone(r.VirtualNetworks)
	c.Subnets = slices.Clone(r.Subnets)
	return c
}
