package plan

import "strings"

// UIDPrefixLen is the length of the prefix CCM names a Service's
// resources with: "a" and the first 31 hex digits of its UID
// (cloudprovider.DefaultLoadBalancerName, ccm-semantics §2.1).
const UIDPrefixLen = 32

// UIDPrefixOf is that prefix for any UID, as CCM builds it: "a" and the
// UID without dashes, cut to UIDPrefixLen.
func UIDPrefixOf(uid string) string {
	p := "a" + strings.ReplaceAll(uid, "-", "")
	return p[:min(len(p), UIDPrefixLen)]
}

// IsUIDPrefix reports whether the lower-case token starts with such a
// prefix, or with the placeholder of one the API server has not assigned
// yet (UIDPlaceholderPrefix): a base→head plan's throwaway emulator holds
// resources named with it, and they are a Service's as much as CCM's are.
func IsUIDPrefix(token string) bool {
	if len(token) < UIDPrefixLen || token[0] != 'a' {
		return false
	}
	return isHex(token[1:UIDPrefixLen]) || IsUIDPlaceholder(token)
}

// UIDPrefixIn finds that prefix among a resource name's dash-separated
// tokens, lower-cased: the first token of an LB child's name, a later one
// of a public IP's (<cluster>-<prefix>) or a PLS's (pls-<prefix>). "" when
// none.
func UIDPrefixIn(name string) string {
	for _, token := range strings.Split(strings.ToLower(name), "-") {
		if IsUIDPrefix(token) {
			return token[:UIDPrefixLen]
		}
	}
	return ""
}
