package plan

import (
	"net"
	"strings"
)

// Two AfterApply conventions name values that no single resource field
// holds. Desired state writes them with the constructors below and Diff
// resolves them against the observed state (diff_pip.go, nsg_nodes.go), so
// the string format lives only here.
const (
	// byAddressField prefixes the address of a public IP known only by it.
	byAddressField = "ipAddress="
	// nodeIPsField marks the node addresses of a backend pool.
	nodeIPsField = "loadBalancerBackendAddresses[].ipAddress"
)

// PublicIPCollection is the key of a resource group's publicIPAddresses
// collection: where a public IP known only by address is looked up.
func PublicIPCollection(sub, rg string) Key {
	return KeyOf(NetworkPrefix(sub, rg) + KindPublicIP.Segment())
}

// PublicIPByAddress is the ID of the public IP in collection whose address
// is addr: a frontend pinned to a user-assigned public IP by address
// (ccm-semantics §6 "BYO pinned by IP") references it this way, since only
// ARM knows the name.
func PublicIPByAddress(collection Key, addr string) any {
	return AfterApply(collection, byAddressField+addr)
}

// ParsePublicIPByAddress reports whether v is a PublicIPByAddress marker and
// returns its collection and address.
func ParsePublicIPByAddress(v any) (collection Key, addr string, ok bool) {
	src, field, ok := UnknownSource(v)
	if !ok || !strings.HasPrefix(field, byAddressField) {
		return "", "", false
	}
	return src, strings.TrimPrefix(field, byAddressField), true
}

// BackendNodeIPs stands for the node addresses in a backend pool: the NSG
// destinations of a Service with floating IP disabled (ccm-semantics §5.2).
// It may be a whole destinationAddressPrefixes value or one element of it.
func BackendNodeIPs(pool Key) any { return AfterApply(pool, nodeIPsField) }

// ParseBackendNodeIPs reports whether v is a BackendNodeIPs marker and
// returns its pool.
func ParseBackendNodeIPs(v any) (pool Key, ok bool) {
	src, field, ok := UnknownSource(v)
	if !ok || field != nodeIPsField {
		return "", false
	}
	return src, true
}

// CanonicalIP renders an address in Go's canonical form, so that the
// spellings of one IPv6 address compare equal; anything else is returned
// as it is.
func CanonicalIP(s string) string {
	if ip := net.ParseIP(strings.TrimSpace(s)); ip != nil {
		return ip.String()
	}
	return s
}
