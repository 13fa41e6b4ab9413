package emulator

import (
	"net/url"
	"strings"
)

const (
	nsNetwork   = "Microsoft.Network"
	nsResources = "Microsoft.Resources"
	typeRG      = nsResources + "/resourceGroups"
)

// canonicalSegments maps the lower-cased spelling of every path segment the
// emulator routes on to ARM's spelling, so IDs it builds look like Azure's.
var canonicalSegments = func() map[string]string {
	m := map[string]string{}
	for _, s := range []string{
		"loadBalancers", "publicIPAddresses", "networkSecurityGroups", "privateLinkServices",
		"privateEndpoints", "virtualNetworks", "networkInterfaces", "privateDnsZones", "locations",
		"privateDnsOperationStatuses", "privateDnsOperationResults",
		"frontendIPConfigurations", "backendAddressPools", "loadBalancingRules", "probes",
		"inboundNatRules", "outboundRules", "securityRules", "defaultSecurityRules", "subnets",
		"privateEndpointConnections", "ipConfigurations", "virtualNetworkLinks", "A", "SOA", "ALL",
		"operations", "operationResults", "Microsoft.Network", "Microsoft.Resources",
	} {
		m[strings.ToLower(s)] = s
	}
	return m
}()

func canon(seg string) string {
	if c, ok := canonicalSegments[strings.ToLower(seg)]; ok {
		return c
	}
	return seg
}

// address is a parsed ARM path or resource ID:
// /subscriptions/{sub}[/resourceGroups/{rg}][/providers/{namespace}/{segs...}].
type address struct {
	sub, rg   string
	namespace string
	segs      []string // type, name, childType, childName...; type segments canonical
}

func parseAddress(path string) (*address, bool) {
	return parseSegments(strings.Split(strings.Trim(path, "/"), "/"))
}

// parseRequestPath parses a request's path segment by segment from its
// escaped form: a name holding an escaped "/" (%2F) is one segment, as ARM
// reads it, and can never address another resource by turning into two.
// bad is the first decoded segment that holds a "/" or does not decode;
// no resource has such a name.
func parseRequestPath(u *url.URL) (a *address, bad string, ok bool) {
	parts := strings.Split(strings.Trim(u.EscapedPath(), "/"), "/")
	for i, p := range parts {
		seg, err := url.PathUnescape(p)
		if err != nil || strings.Contains(seg, "/") {
			return nil, seg, false
		}
		parts[i] = seg
	}
	a, ok = parseSegments(parts)
	return a, "", ok
}

func parseSegments(parts []string) (*address, bool) {
	if len(parts) < 2 || !strings.EqualFold(parts[0], "subscriptions") || parts[1] == "" {
		return nil, false
	}
	a := &address{sub: parts[1]}
	rest := parts[2:]
	if len(rest) >= 2 && strings.EqualFold(rest[0], "resourceGroups") {
		a.rg, rest = rest[1], rest[2:]
	}
	if len(rest) == 0 {
		return a, true
	}
	if len(rest) < 3 || !strings.EqualFold(rest[0], "providers") {
		return nil, false
	}
	a.namespace = canon(rest[1])
	for i, s := range rest[2:] {
		if s == "" {
			return nil, false
		}
		if i%2 == 0 {
			s = canon(s)
		}
		a.segs = append(a.segs, s)
	}
	return a, true
}

func (a *address) rgID() string {
	return "/subscriptions/" + a.sub + "/resourceGroups/" + a.rg
}

// idOf returns the ID of the first n segments (n even: a resource; odd: a collection).
func (a *address) idOf(n int) string {
	var b strings.Builder
	if a.rg != "" {
		b.WriteString(a.rgID())
	} else {
		b.WriteString("/subscriptions/" + a.sub)
	}
	b.WriteString("/providers/" + a.namespace)
	for _, s := range a.segs[:n] {
		b.WriteString("/" + s)
	}
	return b.String()
}

func (a *address) id() string    { return a.idOf(len(a.segs)) }
func (a *address) topID() string { return a.idOf(2) }

// armType is the ARM resource type the path addresses (collections included).
func (a *address) armType() string {
	if a.namespace == "" {
		return typeRG
	}
	t := a.namespace
	for i := 0; i < len(a.segs); i += 2 {
		t += "/" + a.segs[i]
	}
	return t
}

func (a *address) name() string {
	if len(a.segs)%2 == 0 && len(a.segs) > 0 {
		return a.segs[len(a.segs)-1]
	}
	if a.namespace == "" {
		return a.rg
	}
	return ""
}

func key(id string) string { return strings.ToLower(id) }

// topKey returns the store key of the top-level resource that id belongs to,
// or "" when id is not an ARM resource ID.
func topKey(id string) string {
	a, ok := parseAddress(id)
	if !ok || a.rg == "" || len(a.segs) < 2 {
		return ""
	}
	return key(a.topID())
}

// under reports whether id is child (or equal to) parent, case-insensitively.
func under(id, parent string) bool {
	return len(id) > len(parent) && strings.EqualFold(id[:len(parent)], parent) && id[len(parent)] == '/'
}

// validName applies ARM's name rule: 1–80 characters, starting with a word
// character and ending with a word character or '_', with '.', '-' and '_' inside (arm-rules §1.2).
func validName(n string) bool {
	if n == "" || len(n) > 80 {
		return false
	}
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(n); i++ {
		if !word(n[i]) && n[i] != '.' && n[i] != '-' {
			return false
		}
	}
	return word(n[0]) && word(n[len(n)-1])
}
