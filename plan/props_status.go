package plan

// Typed views of the properties azsvc status shows, besides those planning
// reads (props.go): what Azure holds, for people to check.

// FQDN is the public IP's DNS name (dnsSettings.fqdn), "" without one.
func (p PublicIP) FQDN() string {
	dns, _ := p.r.Properties["dnsSettings"].(map[string]any)
	s, _ := dns["fqdn"].(string)
	return s
}

// IntervalSeconds is the probe's interval, 0 when unset.
func (p Probe) IntervalSeconds() int {
	n, _ := Number(p.r.Properties["intervalInSeconds"])
	return int(n)
}

// Threshold is how many failed probes take a backend out of rotation:
// probeThreshold, else the older numberOfProbes; 0 when neither is set.
func (p Probe) Threshold() int {
	for _, field := range []string{"probeThreshold", "numberOfProbes"} {
		if n, ok := Number(p.r.Properties[field]); ok {
			return int(n)
		}
	}
	return 0
}

// BackendPoolIDs are the keys of the backend pools the rule sends traffic
// to (backendAddressPool, or the list of backendAddressPools).
func (l Rule) BackendPoolIDs() []Key {
	var out []Key
	if id := RefID(l.r.Properties["backendAddressPool"]); id != "" {
		out = append(out, KeyOf(id))
	}
	for _, p := range listProp(l.r, "backendAddressPools") {
		if id := RefID(p); id != "" && (len(out) == 0 || out[0] != KeyOf(id)) {
			out = append(out, KeyOf(id))
		}
	}
	return out
}

// IdleTimeout is the rule's idle timeout in minutes, 0 when unset.
func (l Rule) IdleTimeout() int {
	n, _ := Number(l.r.Properties["idleTimeoutInMinutes"])
	return int(n)
}

// Access is Allow or Deny, as written.
func (s SecurityRule) Access() string { return stringProp(s.r, "access") }

// DestinationStrings lists the destination prefixes that are strings (all
// of them, on a rule read from ARM).
func (s SecurityRule) DestinationStrings() []string { return prefixStrings(s.r, destPrefix) }

func prefixStrings(r *Resource, field string) []string {
	var out []string
	if v, _ := r.Properties[field].(string); v != "" {
		out = append(out, v)
	}
	for _, v := range listProp(r, field+"es") {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// FQDNs are the PLS's fully qualified domain names.
func (p PrivateLinkService) FQDNs() []string {
	var out []string
	for _, v := range listProp(p.r, "fqdns") {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ProxyProtocol reports enableProxyProtocol.
func (p PrivateLinkService) ProxyProtocol() bool {
	b, _ := p.r.Properties["enableProxyProtocol"].(bool)
	return b
}

// TTL is the record set's time to live in seconds, 0 when unset.
func (a ARecord) TTL() int {
	n, _ := Number(a.r.Properties["ttl"])
	return int(n)
}

// PLSConnection is one private endpoint connection of a private link
// service, as the provider summarises it: its name, the endpoint's ARM ID
// and the connection's state.
type PLSConnection struct {
	Name, Endpoint, Status string
}

// ConnectionSummaries are the PLS's private endpoint connections as read.
func (p PrivateLinkService) ConnectionSummaries() []PLSConnection {
	var out []PLSConnection
	for _, c := range p.Connections() {
		m, _ := c.(map[string]any)
		var pc PLSConnection
		pc.Name, _ = m["name"].(string)
		pc.Endpoint, _ = m["privateEndpoint"].(string)
		pc.Status, _ = m["status"].(string)
		out = append(out, pc)
	}
	return out
}

// VirtualNetworkID is the ARM ID of the linked virtual network, as written.
func (l VNetLink) VirtualNetworkID() string { return RefID(l.r.Properties["virtualNetwork"]) }
