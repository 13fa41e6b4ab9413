package plan

// Kind is the kind of an Azure resource or child resource that azsvc plans.
// Children (frontends, rules, probes, pools, NSG rules) are kinds of their own
// because azsvc diffs and owns at child granularity (DESIGN.md "Diff").
type Kind string

const (
	KindLoadBalancer Kind = "loadBalancer"
	KindFrontend     Kind = "frontend"
	KindBackendPool  Kind = "backendPool"
	KindRule         Kind = "rule"
	KindProbe        Kind = "probe"
	KindPublicIP     Kind = "publicIP"
	// KindPublicIPPrefix is read only: a new managed public IP may be
	// carved from one (azure-pip-prefix-id), which must exist.
	KindPublicIPPrefix     Kind = "publicIPPrefix"
	KindSecurityGroup      Kind = "securityGroup"
	KindSecurityRule       Kind = "securityRule"
	KindVirtualNetwork     Kind = "virtualNetwork"
	KindSubnet             Kind = "subnet"
	KindPrivateLinkService Kind = "privateLinkService"
	KindPrivateEndpoint    Kind = "privateEndpoint"
	KindPrivateDNSZone     Kind = "privateDnsZone"
	KindVNetLink           Kind = "vnetLink"
	KindARecord            Kind = "aRecord"
	// KindPLSConnection is a private endpoint connection on the provider
	// side, written only to approve it (arm-rules §1.2: a synchronous PUT).
	KindPLSConnection Kind = "privateEndpointConnection"
)

// kindInfo describes how a kind maps onto ARM.
type kindInfo struct {
	armType   string // full ARM type, e.g. Microsoft.Network/loadBalancers/probes
	segment   string // ID path segment naming the collection, e.g. "probes"
	addrToken string // token used in plan addresses, e.g. "probe"
	parent    Kind   // empty for top-level resources
	rank      int    // tie-break order: parents before children, referenced before referencing
	// inline children travel inside their parent's PUT body (arm-rules §1.3).
	inline bool
}

var kinds = map[Kind]kindInfo{
	KindPublicIPPrefix: {"Microsoft.Network/publicIPPrefixes", "publicIPPrefixes", "pipprefix", "", 5, false},
	KindPublicIP:       {"Microsoft.Network/publicIPAddresses", "publicIPAddresses", "pip", "", 10, false},
	KindLoadBalancer:   {"Microsoft.Network/loadBalancers", "loadBalancers", "lb", "", 20, false},
	KindFrontend:       {"Microsoft.Network/loadBalancers/frontendIPConfigurations", "frontendIPConfigurations", "frontend", KindLoadBalancer, 21, true},
	KindBackendPool:    {"Microsoft.Network/loadBalancers/backendAddressPools", "backendAddressPools", "pool", KindLoadBalancer, 22, true},
	KindProbe:          {"Microsoft.Network/loadBalancers/probes", "probes", "probe", KindLoadBalancer, 23, true},
	KindRule:           {"Microsoft.Network/loadBalancers/loadBalancingRules", "loadBalancingRules", "rule", KindLoadBalancer, 24, true},
	KindSecurityGroup:  {"Microsoft.Network/networkSecurityGroups", "networkSecurityGroups", "nsg", "", 30, false},
	KindSecurityRule:   {"Microsoft.Network/networkSecurityGroups/securityRules", "securityRules", "rule", KindSecurityGroup, 31, true},
	// azsvc never writes a VNet; the kind exists so subnet IDs parse.
	KindVirtualNetwork: {"Microsoft.Network/virtualNetworks", "virtualNetworks", "vnet", "", 35, false},
	// A subnet has its own PUT endpoint (arm-rules §1.2): a PLS's NAT
	// subnet is written on its own, before the PLS (ccm-semantics §8).
	KindSubnet:             {"Microsoft.Network/virtualNetworks/subnets", "subnets", "subnet", KindVirtualNetwork, 36, false},
	KindPrivateLinkService: {"Microsoft.Network/privateLinkServices", "privateLinkServices", "pls", "", 40, false},
	KindPrivateEndpoint:    {"Microsoft.Network/privateEndpoints", "privateEndpoints", "pe", "", 50, false},
	KindPLSConnection:      {"Microsoft.Network/privateLinkServices/privateEndpointConnections", "privateEndpointConnections", "connection", KindPrivateLinkService, 55, false},
	KindPrivateDNSZone:     {"Microsoft.Network/privateDnsZones", "privateDnsZones", "dnszone", "", 60, false},
	KindVNetLink:           {"Microsoft.Network/privateDnsZones/virtualNetworkLinks", "virtualNetworkLinks", "link", KindPrivateDNSZone, 61, false},
	KindARecord:            {"Microsoft.Network/privateDnsZones/A", "A", "a", KindPrivateDNSZone, 62, false},
}

// Kinds returns every kind in rank order.
func Kinds() []Kind {
	out := make([]Kind, 0, len(kinds))
	for k := range kinds {
		out = append(out, k)
	}
	sortKinds(out)
	return out
}

func sortKinds(ks []Kind) {
	for i := 1; i < len(ks); i++ {
		for j := i; j > 0 && ks[j].Rank() < ks[j-1].Rank(); j-- {
			ks[j], ks[j-1] = ks[j-1], ks[j]
		}
	}
}

// Valid reports whether k is a known kind.
func (k Kind) Valid() bool { _, ok := kinds[k]; return ok }

// ARMType is the full ARM resource type, e.g. Microsoft.Network/loadBalancers/probes.
func (k Kind) ARMType() string { return kinds[k].armType }

// Segment is the ARM ID collection segment, e.g. "probes".
func (k Kind) Segment() string { return kinds[k].segment }

// Parent is the kind of the parent resource, or "" for top-level kinds.
func (k Kind) Parent() Kind { return kinds[k].parent }

// Rank orders kinds for deterministic tie-breaks.
func (k Kind) Rank() int { return kinds[k].rank }

// Inline reports whether the kind is written inside its parent's body
// (LB children, NSG rules when the NSG is written whole).
func (k Kind) Inline() bool { return kinds[k].inline }
