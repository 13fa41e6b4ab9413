package plan

import (
	"fmt"
	"sort"
	"strings"
)

// Typed views of the ARM properties the core reads, one per kind, so that
// property names and type assertions live in one place (arm-rules §1.4 for
// the shapes). A view reads; the few writers (SetDestinations, SetPriority)
// are named as such. Every reader tolerates a missing or mistyped field and
// returns the zero value, as the passes did before.

// RefID reads the id of an ARM reference object {"id": ...}; "" otherwise.
func RefID(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	s, _ := m["id"].(string)
	return s
}

// RefValue returns the id of a reference object whatever its type: a
// string, or a marker standing for one (PublicIPByAddress).
func RefValue(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	return m["id"]
}

func stringProp(r *Resource, name string) string {
	s, _ := r.Properties[name].(string)
	return s
}

func listProp(r *Resource, name string) []any {
	l, _ := r.Properties[name].([]any)
	return l
}

// Frontend is a load balancer frontend IP configuration.
type Frontend struct{ r *Resource }

// AsFrontend views r as a frontend.
func AsFrontend(r *Resource) Frontend { return Frontend{r} }

// PrivateIP is the frontend's private address ("" for a public frontend
// or one Azure has not assigned yet).
func (f Frontend) PrivateIP() string { return stringProp(f.r, "privateIPAddress") }

// PublicIPID is the ID of the public IP the frontend uses, "" when none or
// when it is known only by address (see PublicIPRef).
func (f Frontend) PublicIPID() string { return RefID(f.r.Properties["publicIPAddress"]) }

// PublicIPRef is the frontend's public IP reference value: an ID string or
// a PublicIPByAddress marker; nil when it has none.
func (f Frontend) PublicIPRef() any { return RefValue(f.r.Properties["publicIPAddress"]) }

// Static reports a private IP allocated statically.
func (f Frontend) Static() bool {
	return strings.EqualFold(stringProp(f.r, "privateIPAllocationMethod"), "Static")
}

// Rule is a load-balancing rule.
type Rule struct{ r *Resource }

// AsRule views r as a load-balancing rule.
func AsRule(r *Resource) Rule { return Rule{r} }

// Protocol is Tcp, Udp or All, as written.
func (l Rule) Protocol() string { return stringProp(l.r, "protocol") }

// FrontendPort is the frontend port, and whether it is a number.
func (l Rule) FrontendPort() (int, bool) {
	n, ok := Number(l.r.Properties["frontendPort"])
	return int(n), ok
}

// RawFrontendPort is the frontend port as ARM returned it, for display.
func (l Rule) RawFrontendPort() any { return l.r.Properties["frontendPort"] }

// FrontendID is the key of the frontend the rule uses.
func (l Rule) FrontendID() Key { return KeyOf(RefID(l.r.Properties["frontendIPConfiguration"])) }

// LoadBalancer is a load balancer's own body (its children are resources
// of their own, except inbound NAT rules).
type LoadBalancer struct{ r *Resource }

// AsLoadBalancer views r as a load balancer.
func AsLoadBalancer(r *Resource) LoadBalancer { return LoadBalancer{r} }

// InboundNATRuleCount is the number of inbound NAT rules, which count
// against the load balancer's rule limit (arm-rules §2.4).
func (l LoadBalancer) InboundNATRuleCount() int { return len(listProp(l.r, "inboundNatRules")) }

// SKUName is the SKU's name ("Standard", "Basic"), as written.
func (l LoadBalancer) SKUName() string {
	s, _ := l.r.SKU["name"].(string)
	return s
}

// Probe is a load balancer health probe.
type Probe struct{ r *Resource }

// AsProbe views r as a probe.
func AsProbe(r *Resource) Probe { return Probe{r} }

// Protocol is Tcp, Http or Https, as written.
func (p Probe) Protocol() string { return stringProp(p.r, "protocol") }

// RequestPath is the HTTP(S) probe path.
func (p Probe) RequestPath() string { return stringProp(p.r, "requestPath") }

// PublicIP is a public IP address resource.
type PublicIP struct{ r *Resource }

// AsPublicIP views r as a public IP.
func AsPublicIP(r *Resource) PublicIP { return PublicIP{r} }

// Address is the assigned address, "" while unknown.
func (p PublicIP) Address() string { return stringProp(p.r, "ipAddress") }

// PrefixID is the public IP prefix the address is carved from, "" for none.
func (p PublicIP) PrefixID() string { return RefID(p.r.Properties["publicIPPrefix"]) }

// PoolMembersField is the property of an IP-based backend pool that lists
// its members, {name, properties: {ipAddress}} each (arm-rules §1.4).
const PoolMembersField = "loadBalancerBackendAddresses"

// BackendPool is a load balancer backend address pool.
type BackendPool struct{ r *Resource }

// AsBackendPool views r as a backend pool.
func AsBackendPool(r *Resource) BackendPool { return BackendPool{r} }

// Addresses are the IP addresses of an IP-based pool's members
// (loadBalancerBackendAddresses[].properties.ipAddress), as listed.
func (p BackendPool) Addresses() []string {
	var out []string
	for _, a := range listProp(p.r, PoolMembersField) {
		m, _ := a.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		if ip, _ := props["ipAddress"].(string); ip != "" {
			out = append(out, ip)
		}
	}
	return out
}

// PrivateLinkService is a private link service.
type PrivateLinkService struct{ r *Resource }

// AsPrivateLinkService views r as a private link service.
func AsPrivateLinkService(r *Resource) PrivateLinkService { return PrivateLinkService{r} }

// Connections are the PLS's private endpoint connections as read
// (providers/azure summarises them).
func (p PrivateLinkService) Connections() []any { return listProp(p.r, "privateEndpointConnections") }

// FrontendIDs are the keys of the load balancer frontends the PLS uses.
func (p PrivateLinkService) FrontendIDs() []Key {
	var out []Key
	for _, fe := range listProp(p.r, "loadBalancerFrontendIpConfigurations") {
		if id := RefID(fe); id != "" {
			out = append(out, KeyOf(id))
		}
	}
	return out
}

// NATIPCount is the number of NAT IP configurations.
func (p PrivateLinkService) NATIPCount() int { return len(listProp(p.r, "ipConfigurations")) }

const (
	destPrefix   = "destinationAddressPrefix"
	destPrefixes = "destinationAddressPrefixes"
)

// SecurityRule is an NSG security rule.
type SecurityRule struct{ r *Resource }

// AsSecurityRule views r as a security rule.
func AsSecurityRule(r *Resource) SecurityRule { return SecurityRule{r} }

// Destinations lists the rule's destination prefixes, singular or plural
// field; a whole list known only after apply (BackendNodeIPs) counts as one.
func (s SecurityRule) Destinations() []any {
	var out []any
	if v, ok := s.r.Properties[destPrefix]; ok && v != nil && v != "" {
		out = append(out, v)
	}
	switch l := s.r.Properties[destPrefixes].(type) {
	case []any:
		out = append(out, l...)
	case nil:
	default:
		if IsUnknown(l) {
			out = append(out, l)
		}
	}
	return out
}

// Priority is the rule's priority, and whether it has one.
func (s SecurityRule) Priority() (int, bool) {
	p, ok := Number(s.r.Properties["priority"])
	return int(p), ok
}

// RawPriority is the priority as written (a fraction stays one), and
// whether it is a number.
func (s SecurityRule) RawPriority() (float64, bool) { return Number(s.r.Properties["priority"]) }

// Direction is "inbound" or "outbound", lower-cased; inbound when unset.
func (s SecurityRule) Direction() string {
	if d := stringProp(s.r, "direction"); d != "" {
		return strings.ToLower(d)
	}
	return "inbound"
}

// Deny reports an access of Deny.
func (s SecurityRule) Deny() bool {
	return strings.EqualFold(fmt.Sprint(s.r.Properties["access"]), "Deny")
}

// Protocol is Tcp, Udp or *, as written.
func (s SecurityRule) Protocol() string { return stringProp(s.r, "protocol") }

// PortRanges are the destination port ranges, singular or plural field.
func (s SecurityRule) PortRanges() []string {
	var out []string
	if p := stringProp(s.r, "destinationPortRange"); p != "" {
		out = append(out, p)
	}
	for _, v := range listProp(s.r, "destinationPortRanges") {
		if p, ok := v.(string); ok {
			out = append(out, p)
		}
	}
	return out
}

// SourceCount is the number of source prefixes, singular or plural field.
func (s SecurityRule) SourceCount() int { return prefixCount(s.r, "sourceAddressPrefix") }

// DestinationCount is the number of destination prefixes as written.
func (s SecurityRule) DestinationCount() int { return prefixCount(s.r, destPrefix) }

func prefixCount(r *Resource, field string) int {
	n := len(listProp(r, field+"es"))
	if v, ok := r.Properties[field]; ok && v != nil && v != "" {
		n++
	}
	return n
}

// SetDestinations writes de-duplicated, string-sorted destinations into
// props in the form CCM uses: one value in destinationAddressPrefix,
// several in destinationAddressPrefixes (ccm-semantics §5.3). Values known
// only after apply sort last.
func SetDestinations(props map[string]any, dests []any) {
	seen := map[string]bool{}
	var known []string
	var unknown []any
	for _, v := range dests {
		if s, ok := v.(string); ok {
			if !seen[s] {
				seen[s] = true
				known = append(known, s)
			}
			continue
		}
		unknown = append(unknown, v)
	}
	sort.Strings(known)
	all := make([]any, 0, len(known)+len(unknown))
	for _, s := range known {
		all = append(all, s)
	}
	all = append(all, unknown...)
	delete(props, destPrefix)
	delete(props, destPrefixes)
	if len(all) == 1 {
		props[destPrefix] = all[0]
	} else if len(all) > 1 {
		props[destPrefixes] = all
	}
}

// WithoutDestinations removes the destination fields and the priority:
// what an NSG rule body holds besides what the reconcile decides.
func WithoutDestinations(props map[string]any) {
	delete(props, destPrefix)
	delete(props, destPrefixes)
	delete(props, "priority")
}

// DestinationField is the name of the plural destination field, the path
// under which destination changes are reported.
const DestinationField = destPrefixes

// Normalize puts the values planning computed into the form ARM returns
// them in: an NSG rule's destinations sorted, de-duplicated, in the
// singular or plural field (SetDestinations).
func Normalize(r *Resource) {
	if r.Kind() == KindSecurityRule && r.Properties != nil {
		SetDestinations(r.Properties, AsSecurityRule(r).Destinations())
	}
}

// SubnetID is the frontend's subnet (internal frontends), "" for none.
func (f Frontend) SubnetID() string { return RefID(f.r.Properties["subnet"]) }

// IPConfig is one IP configuration inside a resource's body (a PLS's NAT
// IPs): its subnet and address.
type IPConfig struct {
	Name     string
	SubnetID string
	Static   bool
	Address  string // "" while Azure assigns it
}

// NATIPConfigs are the PLS's NAT IP configurations.
func (p PrivateLinkService) NATIPConfigs() []IPConfig {
	var out []IPConfig
	for _, c := range listProp(p.r, "ipConfigurations") {
		m, _ := c.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		name, _ := m["name"].(string)
		method, _ := props["privateIPAllocationMethod"].(string)
		ip, _ := props["privateIPAddress"].(string)
		out = append(out, IPConfig{Name: name, SubnetID: RefID(props["subnet"]), Static: strings.EqualFold(method, "Static"), Address: ip})
	}
	return out
}

// Subnet is a virtual network subnet.
type Subnet struct{ r *Resource }

// AsSubnet views r as a subnet.
func AsSubnet(r *Resource) Subnet { return Subnet{r} }

// Prefixes are the subnet's address prefixes, singular or plural field.
func (s Subnet) Prefixes() []string {
	var out []string
	if p := stringProp(s.r, "addressPrefix"); p != "" {
		out = append(out, p)
	}
	for _, v := range listProp(s.r, "addressPrefixes") {
		if p, ok := v.(string); ok {
			out = append(out, p)
		}
	}
	return out
}

// PLSPoliciesDisabled reports whether private link service network
// policies are disabled, as a PLS NAT subnet needs (arm-rules §2.2).
func (s Subnet) PLSPoliciesDisabled() bool {
	return strings.EqualFold(stringProp(s.r, "privateLinkServiceNetworkPolicies"), "Disabled")
}

// SKUName is a public IP's SKU name as written, "" when unset.
func (p PublicIP) SKUName() string {
	s, _ := p.r.SKU["name"].(string)
	return s
}

// Sources are the rule's source prefixes and tags, singular or plural
// field, as written ("Internet", "10.0.0.0/8", a service tag, "*").
func (s SecurityRule) Sources() []string {
	var out []string
	if p := stringProp(s.r, "sourceAddressPrefix"); p != "" {
		out = append(out, p)
	}
	for _, v := range listProp(s.r, "sourceAddressPrefixes") {
		if p, ok := v.(string); ok && p != "" {
			out = append(out, p)
		}
	}
	return out
}

// RawPortRanges are the destination port ranges as written, singular or
// plural field: a port the API server assigns stays its marker.
func (s SecurityRule) RawPortRanges() []any {
	var out []any
	if p, ok := s.r.Properties["destinationPortRange"]; ok && p != nil && p != "" {
		out = append(out, p)
	}
	return append(out, listProp(s.r, "destinationPortRanges")...)
}
