package plan

import (
	"slices"
	"strings"
)

// ReadScope names what a plan reads from ARM: per top-level kind, the
// resource groups that may hold it, and the virtual networks whose subnets
// matter. Reads are list calls per kind and group, so their number does not
// grow with the number of Services (DESIGN.md "Dependencies"; the provider
// lists, never GETs one by one).
type ReadScope struct {
	Subscription string // empty: the provider's subscription
	// Groups maps a top-level kind (load balancer, public IP, NSG, PLS,
	// private endpoint, private DNS zone) to resource group names.
	Groups map[Kind][]string
	// VirtualNetworks are the VNets whose subnets are read.
	VirtualNetworks []VNetRef
	// Subnets are the subnets the desired state places resources in, for
	// targets that must create them first (the local emulator's baseline).
	Subnets []ID
}

// VNetRef names a virtual network.
type VNetRef struct {
	ResourceGroup string
	Name          string
}

// ReadKinds are the kinds a ReadScope lists, in read order.
var ReadKinds = []Kind{KindLoadBalancer, KindPublicIP, KindSecurityGroup, KindPrivateLinkService, KindPrivateEndpoint, KindPrivateDNSZone}

// Add records that group may hold resources of kind k (its top-level kind
// for a child). Names are kept once, compared case-insensitively.
func (r *ReadScope) Add(k Kind, group string) {
	if p := k.Parent(); p != "" {
		k = p
	}
	if group == "" || !slices.Contains(ReadKinds, k) {
		return
	}
	if r.Groups == nil {
		r.Groups = map[Kind][]string{}
	}
	if !slices.ContainsFunc(r.Groups[k], func(g string) bool { return strings.EqualFold(g, group) }) {
		r.Groups[k] = append(r.Groups[k], group)
	}
}

// AddVNet records a virtual network whose subnets are read.
func (r *ReadScope) AddVNet(v VNetRef) {
	if v.ResourceGroup == "" || v.Name == "" {
		return
	}
	if !slices.ContainsFunc(r.VirtualNetworks, func(x VNetRef) bool {
		return strings.EqualFold(x.ResourceGroup, v.ResourceGroup) && strings.EqualFold(x.Name, v.Name)
	}) {
		r.VirtualNetworks = append(r.VirtualNetworks, v)
	}
}

// AllGroups lists every resource group of the scope once, in kind order.
func (r *ReadScope) AllGroups() []string {
	var out []string
	for _, k := range ReadKinds {
		for _, g := range r.Groups[k] {
			if !slices.ContainsFunc(out, func(x string) bool { return strings.EqualFold(x, g) }) {
				out = append(out, g)
			}
		}
	}
	return out
}

// Clone copies the scope, so adding to the copy leaves r as it is.
func (r ReadScope) Clone() ReadScope {
	c := r
	c.Groups = make(map[Kind][]string, len(r.Groups))
	for k, g := range r.Groups {
		c.Groups[k] = slices.Clone(g)
	}
	c.VirtualNetworks = slices.Clone(r.VirtualNetworks)
	c.Subnets = slices.Clone(r.Subnets)
	return c
}
