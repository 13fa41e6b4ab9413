package plan

import "strings"

// A PrivateEndpoint input object owns the private endpoint, DNS records,
// zones and links it declares the way a Service owns its frontend: it is
// named in Resource.Services, Change.Services, Scope.Services and in the
// k8s-azure-owner-service tag, as "PrivateEndpoint/<namespace>/<name>".
// Kubernetes names contain no "/", so the form never collides with a
// Service's "<namespace>/<name>".
const endpointOwnerPrefix = "PrivateEndpoint/"

// EndpointOwner is the owner name of the PrivateEndpoint object key
// ("<namespace>/<name>").
func EndpointOwner(key string) string { return endpointOwnerPrefix + key }

// EndpointOf returns the "<namespace>/<name>" of a PrivateEndpoint owner
// name, and whether owner names one.
func EndpointOf(owner string) (string, bool) {
	key, ok := strings.CutPrefix(owner, endpointOwnerPrefix)
	return key, ok && strings.Count(key, "/") == 1
}

// Connection states of a private endpoint connection (arm-rules §7.3).
const (
	ConnectionApproved     = "Approved"
	ConnectionPending      = "Pending"
	ConnectionRejected     = "Rejected"
	ConnectionDisconnected = "Disconnected"
)

// Connection lists of a private endpoint: an automatic connection (approved
// by the PLS's auto-approval) or a manual one (arm-rules §1.4).
const (
	AutoConnections   = "privateLinkServiceConnections"
	ManualConnections = "manualPrivateLinkServiceConnections"
)

// PrivateEndpoint is a private endpoint.
type PrivateEndpoint struct{ r *Resource }

// AsPrivateEndpoint views r as a private endpoint.
func AsPrivateEndpoint(r *Resource) PrivateEndpoint { return PrivateEndpoint{r} }

// connection is the endpoint's one connection and the list holding it.
func (p PrivateEndpoint) connection() (map[string]any, string) {
	for _, list := range []string{AutoConnections, ManualConnections} {
		for _, c := range listProp(p.r, list) {
			if m, ok := c.(map[string]any); ok {
				return m, list
			}
		}
	}
	return nil, ""
}

// ConnectionList is AutoConnections or ManualConnections, whichever holds
// the connection; "" without one.
func (p PrivateEndpoint) ConnectionList() string { _, l := p.connection(); return l }

// Target is the PLS the connection names (an ID or an alias, or a marker).
func (p PrivateEndpoint) Target() any {
	c, _ := p.connection()
	props, _ := c["properties"].(map[string]any)
	return props["privateLinkServiceId"]
}

// Status is the connection's state as ARM reports it ("" when unknown).
func (p PrivateEndpoint) Status() string {
	c, _ := p.connection()
	props, _ := c["properties"].(map[string]any)
	state, _ := props["privateLinkServiceConnectionState"].(map[string]any)
	s, _ := state["status"].(string)
	return s
}

// Lost reports a connection the PLS owner rejected or removed: the endpoint
// must be re-created to connect again.
func (p PrivateEndpoint) Lost() bool {
	s := p.Status()
	return strings.EqualFold(s, ConnectionRejected) || strings.EqualFold(s, ConnectionDisconnected)
}

// SubnetID is the ID of the endpoint's subnet.
func (p PrivateEndpoint) SubnetID() string { return RefID(p.r.Properties["subnet"]) }

// PrivateIP is the endpoint's address as the provider computes it from
// customDnsConfigs or the NIC ("" while unknown).
func (p PrivateEndpoint) PrivateIP() string { return stringProp(p.r, "privateIPAddress") }

// PrivateIPField is the field DNS A records copy from their endpoint.
const PrivateIPField = "privateIPAddress"

// AliasField is the PLS field a connection by alias copies.
const AliasField = "alias"

// Alias is the PLS's alias ("" while unknown).
func (p PrivateLinkService) Alias() string { return stringProp(p.r, AliasField) }

// AutoApproval lists the subscriptions the PLS approves automatically.
func (p PrivateLinkService) AutoApproval() []string { return subscriptionList(p.r, "autoApproval") }

// Visibility lists the subscriptions that may see the PLS ("*": all).
func (p PrivateLinkService) Visibility() []string { return subscriptionList(p.r, "visibility") }

func subscriptionList(r *Resource, field string) []string {
	m, _ := r.Properties[field].(map[string]any)
	l, _ := m["subscriptions"].([]any)
	out := make([]string, 0, len(l))
	for _, v := range l {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ConnectionOf finds the connection of the endpoint pe in the PLS's
// connection summary (providers/azure): its name and status.
func (p PrivateLinkService) ConnectionOf(pe Key) (name, status string, ok bool) {
	for _, c := range p.Connections() {
		m, _ := c.(map[string]any)
		id, _ := m["privateEndpoint"].(string)
		if id != "" && KeyOf(id) == pe {
			name, _ = m["name"].(string)
			status, _ = m["status"].(string)
			return name, status, true
		}
	}
	return "", "", false
}

// ARecord is a private DNS A record set.
type ARecord struct{ r *Resource }

// AsARecord views r as an A record set.
func AsARecord(r *Resource) ARecord { return ARecord{r} }

// Metadata is the record set's metadata (owner tags, as PLS tags are).
func (a ARecord) Metadata() map[string]string {
	m, _ := a.r.Properties["metadata"].(map[string]any)
	out := make(map[string]string, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok {
			out[k] = s
		}
	}
	return out
}

// Addresses are the IPv4 addresses the record set holds, as listed
// (markers included).
func (a ARecord) Addresses() []any {
	var out []any
	for _, rec := range listProp(a.r, "aRecords") {
		m, _ := rec.(map[string]any)
		if v, ok := m["ipv4Address"]; ok {
			out = append(out, v)
		}
	}
	return out
}

// VNetLink is a private DNS zone's virtual network link.
type VNetLink struct{ r *Resource }

// AsVNetLink views r as a virtual network link.
func AsVNetLink(r *Resource) VNetLink { return VNetLink{r} }

// VirtualNetwork is the key of the linked virtual network.
func (l VNetLink) VirtualNetwork() Key { return KeyOf(RefID(l.r.Properties["virtualNetwork"])) }
