package adopt

import (
	"strings"

	"github.com/azsvc/azsvc/plan"
)

// prefixOf returns the CCM prefix a resource name starts with, lower-cased:
// "a" followed by 31 hex digits, then the end of the name or a "-".
func prefixOf(name string) (string, bool) {
	if len(name) < plan.UIDPrefixLen || len(name) > plan.UIDPrefixLen && name[plan.UIDPrefixLen] != '-' {
		return "", false
	}
	p := strings.ToLower(name[:plan.UIDPrefixLen])
	return p, plan.IsUIDPrefix(p)
}

// portOfRule reads the protocol and port a CCM rule name ends with:
// prefix[-subnet]-PROTO-port[-IPv6] (getLoadBalancerRuleName, §2.2).
func portOfRule(name string) (proto, port string, ok bool) {
	rest := strings.TrimSuffix(strings.ToLower(name[plan.UIDPrefixLen:]), "-ipv6")
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
