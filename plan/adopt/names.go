package adopt

import "strings"

// prefixLen is the length of CCM's name prefix: "a" and 31 hex digits
// (cloudprovider.DefaultLoadBalancerName cuts "a"+uid to 32 characters).
const prefixLen = 32

// prefixOf returns the CCM prefix a resource name starts with, lower-cased:
// "a" followed by 31 hex digits, then the end of the name or a "-".
func prefixOf(name string) (string, bool) {
	if len(name) < prefixLen || (name[0] != 'a' && name[0] != 'A') {
		return "", false
	}
	for i := 1; i < prefixLen; i++ {
		if !isHex(name[i]) {
			return "", false
		}
	}
	if len(name) > prefixLen && name[prefixLen] != '-' {
		return "", false
	}
	return strings.ToLower(name[:prefixLen]), true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// portOfRule reads the protocol and port a CCM rule name ends with:
// prefix[-subnet]-PROTO-port[-IPv6] (getLoadBalancerRuleName, §2.2).
func portOfRule(name string) (proto, port string, ok bool) {
	rest := strings.TrimSuffix(strings.ToLower(name[prefixLen:]), "-ipv6")
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return "", "", false
	}
	port = rest[i+1:]
	j := strings.LastIndexByte(rest[:i], '-')
	if j < 0 || port == "" {
		return "", "", false
	}
	return rest[j+1 : i], port, true
}

// pipPrefix reads the prefix of a managed public IP CCM named
// "<cluster>-<prefix>[-...]" (getPublicIPName, §2.2).
func pipPrefix(name, cluster string) (string, bool) {
	head := strings.ToLower(cluster) + "-"
	if !strings.HasPrefix(strings.ToLower(name), head) {
		return "", false
	}
	return prefixOf(name[len(head):])
}
