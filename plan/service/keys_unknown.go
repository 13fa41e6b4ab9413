package service

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan/quote"
)

// UpstreamPrefix is the prefix of the Kubernetes-wide Service annotations
// (service.kubernetes.io/topology-mode and friends); CCM reads none of them.
const UpstreamPrefix = "service.kubernetes.io/"

// upstreamNames are the service.kubernetes.io/ keys other components read
// (kube-proxy, the EndpointSlice controller): known, not CCM's, not findings.
var upstreamNames = map[string]bool{
	"topology-mode": true, "topology-aware-hints": true, "service-proxy-name": true, "headless": true,
}

// maxPrefixTypo is how far a key's prefix, or a name outside the
// azure-* family, may be from a CCM one and still count as a misspelling
// of it: two edits. Farther names may well belong to another tool.
const maxPrefixTypo = 2

// foreignKey checks a key that is not a CCM annotation: a misspelt prefix
// (service.beta.kubernete.io/...), a CCM name without its prefix
// (azure-load-balancer-internal) or under the wrong one
// (service.kubernetes.io/azure-...), or an unknown name under a CCM prefix.
// CCM ignores every one of them without a word, and a missing
// azure-load-balancer-internal makes a Service public.
func (c keyRules) foreignKey(key string) {
	prefix, name, hasPrefix := strings.Cut(key, "/")
	if !hasPrefix {
		prefix, name = "", key
	}
	lower := strings.ToLower(prefix)
	switch {
	case hasPrefix && lower+"/" == Prefix:
		c.unknownUnderPrefix(key, name, Prefix)
	case hasPrefix && lower+"/" == UpstreamPrefix:
		if !upstreamNames[name] {
			c.unknownUnderPrefix(key, name, UpstreamPrefix)
		}
	case hasPrefix && nearPrefix(lower):
		c.misplaced(key, name, fmt.Sprintf("prefix %s is not %s", quote.Value(prefix+"/"), Prefix))
	case !hasPrefix && (looksLikeCCMName(name) || c.nearCCMName(name) != ""):
		c.misplaced(key, name, "the key has no prefix")
	case hasPrefix && c.nearCCMName(name) != "" && strings.EqualFold(c.nearCCMName(name), name):
		c.misplaced(key, name, fmt.Sprintf("prefix %s is not %s", quote.Value(prefix+"/"), Prefix))
	}
}

// unknownUnderPrefix reports a name CCM does not read under one of the
// Service annotation prefixes: an error with a suggestion when it is close
// to one CCM reads, else a warning (it may belong to another tool or
// cloud, but CCM ignores it).
func (c keyRules) unknownUnderPrefix(key, name, prefix string) {
	if best := c.nearCCMName(name); best != "" {
		c.add(c.s.annDiag(CodeMisspeltKey, key,
			fmt.Sprintf("unknown annotation %s: CCM ignores it; did you mean %s?", quote.Value(key), Prefix+best),
			"rename the key to "+Prefix+best))
		return
	}
	c.add(c.s.annDiag(CodeForeignAnnotation, key,
		fmt.Sprintf("annotation %s is not one the Azure cloud provider reads: CCM ignores it", quote.Value(key)),
		"remove it unless another controller reads it; the Azure annotations are listed by azsvc validate's documentation"))
}

// misplaced reports a CCM annotation name under the wrong prefix or none.
func (c keyRules) misplaced(key, name, why string) {
	want := name
	if best := c.nearCCMName(name); best != "" {
		want = best
	}
	c.add(c.s.annDiag(CodeMisspeltKey, key,
		fmt.Sprintf("annotation %s: %s, so CCM ignores it; did you mean %s?", quote.Value(key), why, shownKey(Prefix+want)),
		"rename the key to "+shownKey(Prefix+want)))
}

// nearPrefix reports a prefix within maxPrefixTypo edits of a CCM one
// (compared in lower case; the exact ones are handled before).
func nearPrefix(lower string) bool {
	for _, p := range []string{strings.TrimSuffix(Prefix, "/"), strings.TrimSuffix(UpstreamPrefix, "/")} {
		if d := len(lower) - len(p); d >= -maxPrefixTypo && d <= maxPrefixTypo && editDistance(lower, p) <= maxPrefixTypo {
			return true
		}
	}
	return false
}

// looksLikeCCMName reports names only CCM's annotations have.
func looksLikeCCMName(name string) bool {
	n := strings.ToLower(name)
	return strings.HasPrefix(n, "azure-") || strings.HasPrefix(n, "port_")
}

// nearCCMName returns the CCM annotation name (without prefix) that name
// equals or nearly equals, or "". Per-port names match their template with
// the port number kept.
func (c keyRules) nearCCMName(name string) string {
	n := strings.ToLower(name)
	if strings.HasPrefix(n, "port_") {
		num, param, _ := strings.Cut(n[len("port_"):], "_")
		if best, d := nearestWithin(param, PortParams(), maxPrefixTypo); d >= 0 {
			return "port_" + num + "_" + best
		}
		return ""
	}
	if a, ok := c.reg.Lookup(Prefix + n); ok && !a.Removed {
		return n
	}
	best, d := nearestWithin(n, c.reg.names(), maxPrefixTypo)
	if d < 0 {
		return ""
	}
	return best
}
