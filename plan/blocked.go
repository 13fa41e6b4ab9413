package plan

import (
	"cmp"
	"slices"
	"strings"
)

// Blocked is a desired change azsvc will not make: ownership forbids it
// (DESIGN.md "ownership"), or something it needs does not exist (a pinned
// public IP, a PLS subnet, node IPs for an NSG rule), where CCM would fail
// the Service. It records facts; renderers word them.
type Blocked struct {
	Address  string    `json:"address"` // what is not changed
	Code     BlockCode `json:"code"`
	Services []string  `json:"services"`
	// The facts a code refers to; which are set depends on Code.
	Other  string    `json:"other,omitempty"`  // another resource's address
	Value  string    `json:"value,omitempty"`  // an IP address, a port ("tcp/80"), a name
	Group  string    `json:"group,omitempty"`  // a resource group
	Owners []string  `json:"owners,omitempty"` // Services that own or use Other or Address
	Why    Unmanaged `json:"why,omitzero"`
	// Suggestion is the name or address the plan read that Value most
	// likely meant (a did-you-mean), for the codes naming something
	// missing; empty when nothing read is near it.
	Suggestion string `json:"suggestion,omitempty"`
}

// BlockCode names why a change is blocked.
type BlockCode uint8

const (
	BlockNone BlockCode = iota
	// BlockNotManaged: Address exists and azsvc does not manage it (Why).
	BlockNotManaged
	// BlockBelongsToOthers: Address exists and belongs to Owners.
	BlockBelongsToOthers
	// BlockNSGReplace: the NSG would have to be re-created.
	BlockNSGReplace
	// BlockSubnetMissing: subnet Value of vnet Other in Group is missing.
	BlockSubnetMissing
	// BlockUserPIPMissing: the user-assigned public IP Value in Group is missing.
	BlockUserPIPMissing
	// BlockDeleteInUse, BlockReplaceInUse: Other still uses Address and stays.
	BlockDeleteInUse
	BlockReplaceInUse
	// BlockEmptiedLB: the emptied load balancer holds Other, which azsvc
	// does not manage.
	BlockEmptiedLB
	// BlockDependsOnBlocked: Address references Other, which is blocked.
	BlockDependsOnBlocked
	// BlockPinnedIPNotFound: Service Services[0] pins address Value, which
	// no public IP in Group has (CCM fails the Service).
	BlockPinnedIPNotFound
	// BlockSharedAcrossLBs: the pinned address is on frontend Other of
	// another load balancer.
	BlockSharedAcrossLBs
	// BlockSharedPort: shared frontend Other already serves port Value
	// through rule Group of Owners[0] ("" for a Service outside the input).
	BlockSharedPort
	// BlockNSGRuleNotManaged: an NSG rule of that name exists unmanaged (Why).
	BlockNSGRuleNotManaged
	// BlockNodeIPsNotPlanned, BlockNodeIPsLeft, BlockNodeIPsPartial: with
	// floating IP disabled the rule needs node IPs that pool Other does not
	// show although the input has Nodes; the rule is not planned, left as it
	// is, or planned without them. (Without Nodes in the input, a new rule
	// gets them as an unknown, plan.NodeIPs.)
	BlockNodeIPsNotPlanned
	BlockNodeIPsLeft
	BlockNodeIPsPartial
	// BlockNotVisible: private link service Other does not let
	// subscription Value see it, so ARM refuses the endpoint's connection.
	BlockNotVisible
	// BlockPIPPrefixMissing: the public IP prefix Value in Group, which a
	// new public IP is to be carved from, is missing.
	BlockPIPPrefixMissing
	// BlockEndpointConnected: Address carries private link service Value,
	// which private endpoint Other of the input connects to.
	BlockEndpointConnected
)

var blockCodes = [...]string{
	BlockNone: "", BlockNotManaged: "not_managed", BlockBelongsToOthers: "belongs_to_others",
	BlockNSGReplace: "nsg_replace", BlockSubnetMissing: "subnet_missing", BlockUserPIPMissing: "user_pip_missing",
	BlockDeleteInUse: "delete_in_use", BlockReplaceInUse: "replace_in_use", BlockEmptiedLB: "emptied_lb_unmanaged",
	BlockDependsOnBlocked: "depends_on_blocked", BlockPinnedIPNotFound: "pinned_ip_not_found",
	BlockSharedAcrossLBs: "shared_across_lbs", BlockSharedPort: "shared_port_taken",
	BlockNSGRuleNotManaged: "nsg_rule_not_managed", BlockNodeIPsNotPlanned: "node_ips_not_planned",
	BlockNodeIPsLeft: "node_ips_left", BlockNodeIPsPartial: "node_ips_partial",
	BlockNotVisible: "pls_not_visible", BlockPIPPrefixMissing: "pip_prefix_missing",
	BlockEndpointConnected: "endpoint_connected",
}

// String is the stable code, e.g. "delete_in_use".
func (c BlockCode) String() string { return codeName(blockCodes[:], c, "block code") }

// MarshalText writes the code.
func (c BlockCode) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a code written by MarshalText.
func (c *BlockCode) UnmarshalText(b []byte) error {
	v, err := parseCode[BlockCode](blockCodes[:], b, "block code")
	*c = v
	return err
}

// Unmanaged says why azsvc does not manage an existing resource
// (ccm-semantics §2.4).
type Unmanaged struct {
	Code  UnmanagedCode `json:"code"`
	Value string        `json:"value,omitempty"` // a name, cluster or priority the code refers to
}

// UnmanagedCode names an ownership rule a resource fails.
type UnmanagedCode uint8

const (
	Managed UnmanagedCode = iota
	// UnmanagedLB: load balancer Value is not one of the cluster's.
	UnmanagedLB
	// UnmanagedNSG: not the cluster's network security group.
	UnmanagedNSG
	// UnmanagedParentLB: its load balancer is not the cluster's.
	UnmanagedParentLB
	// UnmanagedPool: backend pool Value is not the cluster pool.
	UnmanagedPool
	// UnmanagedPrefix: its name has no in-scope Service's prefix.
	UnmanagedPrefix
	// UnmanagedParentNSG: not in the cluster's NSG.
	UnmanagedParentNSG
	// UnmanagedRuleName: an NSG rule not named k8s-azure-lb*.
	UnmanagedRuleName
	// UnmanagedPriority: an NSG rule whose priority Value is outside 500-4096.
	UnmanagedPriority
	// UnmanagedUserPIP: a public IP without the service tag that no Service
	// in scope pins.
	UnmanagedUserPIP
	// UnmanagedOtherCluster: tagged for cluster Value.
	UnmanagedOtherCluster
	// UnmanagedUntagged: not tagged for this cluster (Value).
	UnmanagedUntagged
)

var unmanagedCodes = [...]string{
	Managed: "", UnmanagedLB: "not_cluster_lb", UnmanagedNSG: "not_cluster_nsg", UnmanagedParentLB: "lb_not_managed",
	UnmanagedPool: "not_cluster_pool", UnmanagedPrefix: "no_service_prefix", UnmanagedParentNSG: "not_in_cluster_nsg",
	UnmanagedRuleName: "rule_name", UnmanagedPriority: "priority_outside_band", UnmanagedUserPIP: "user_pip_not_pinned",
	UnmanagedOtherCluster: "other_cluster", UnmanagedUntagged: "not_tagged",
}

// String is the stable code, e.g. "not_cluster_lb".
func (c UnmanagedCode) String() string { return codeName(unmanagedCodes[:], c, "ownership code") }

// MarshalText writes the code.
func (c UnmanagedCode) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a code written by MarshalText.
func (c *UnmanagedCode) UnmarshalText(b []byte) error {
	v, err := parseCode[UnmanagedCode](unmanagedCodes[:], b, "ownership code")
	*c = v
	return err
}

// Blocks collects Blocked entries: one per address and facts (a repeat
// replaces the earlier entry), listed by address, then code and facts, so
// the same input always lists them the same way.
type Blocks struct{ m map[blockKey]Blocked }

type blockKey struct {
	address, other, value, group, owners string
	code                                 BlockCode
	why                                  Unmanaged
}

// Add records b.
func (bs *Blocks) Add(b Blocked) {
	if bs.m == nil {
		bs.m = map[blockKey]Blocked{}
	}
	b.Services = SortedUnique(b.Services)
	k := blockKey{address: b.Address, other: b.Other, value: b.Value, group: b.Group,
		owners: strings.Join(b.Owners, ","), code: b.Code, why: b.Why}
	bs.m[k] = b
}

// Len is the number of entries.
func (bs *Blocks) Len() int { return len(bs.m) }

// List returns the entries in order.
func (bs *Blocks) List() []Blocked {
	out := make([]Blocked, 0, len(bs.m))
	for _, b := range bs.m {
		out = append(out, b)
	}
	slices.SortFunc(out, compareBlocked)
	return out
}

func compareBlocked(a, b Blocked) int {
	return cmp.Or(cmp.Compare(a.Address, b.Address), cmp.Compare(a.Code, b.Code), cmp.Compare(a.Other, b.Other),
		cmp.Compare(a.Value, b.Value), cmp.Compare(a.Group, b.Group), slices.Compare(a.Owners, b.Owners),
		cmp.Compare(a.Why.Code, b.Why.Code), cmp.Compare(a.Why.Value, b.Why.Value))
}

// Clone copies the collection.
func (bs *Blocks) Clone() Blocks {
	out := Blocks{m: make(map[blockKey]Blocked, len(bs.m))}
	for k, b := range bs.m {
		out.m[k] = b
	}
	return out
}
