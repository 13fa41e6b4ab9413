package service

import (
	"fmt"
	"sort"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/quote"
)

// names checks every value that becomes an Azure resource name, URL path
// segment, DNS label, tag or reference, with ARM's rules (names.go). CCM
// passes them on unchecked; ARM refuses them half-way through an apply, and
// a "/" in one would address a different URL.
func (c nameRules) names() {
	c.identity()
	if len(c.s.Annotations) == 0 {
		return
	}
	for _, key := range []string{AnnLoadBalancerResourceGroup, AnnPLSResourceGroup} {
		if v := strings.TrimSpace(c.s.Annotations[key]); v != "" { // trimmed, "" is the default (§1.3 #5, #29)
			c.nameValue(CodeResourceGroupName, key, v, ResourceGroupProblem(v), "a resource group name: 1 to 90 letters, digits, _ ( ) - and ., not ending with .")
		}
	}
	const (
		pipRule    = "the name of an existing public IP: " + nameRule
		subnetRule = "a subnet name of the cluster VNet: " + nameRule
		plsRule    = "a Private Link Service name: " + nameRule
	)
	for _, key := range []string{AnnPIPName, AnnPIPNameIPv6, AnnInternalSubnet, AnnPLSIPConfigurationSubnet} {
		// Used exactly as written (§1.3 #2, #24, #25, #31); blank means unset.
		if v, ok := c.s.Annotations[key]; ok && strings.TrimSpace(v) != "" {
			hint := pipRule
			if key == AnnInternalSubnet || key == AnnPLSIPConfigurationSubnet {
				hint = subnetRule
			}
			c.nameValue(CodeResourceName, key, v, ResourceNameProblem(v), hint)
		}
	}
	if v := c.s.PLSName(); v != "" {
		c.nameValue(CodeResourceName, AnnPLSName, v, ResourceNameProblem(v), plsRule)
	}
	if auto, vmSets, set := c.s.LoadBalancerMode(); set && !auto {
		for _, v := range vmSets { // a VM set's basic LB is named after it (§2.2)
			c.nameValue(CodeResourceName, AnnLoadBalancerMode, v, ResourceNameProblem(v), "__auto__, or VM set names separated by commas")
		}
	}
	if v, set := c.s.DNSLabelName(); set && v != "" {
		c.nameValue(CodeDNSLabel, AnnDNSLabelName, v, DNSLabelProblem(v), `3 to 63 lower-case letters, digits and -, starting with a letter and not ending with - (or "" to remove the label)`)
	}
	for _, key := range []string{AnnPIPPrefixID, AnnPIPPrefixIDIPv6} {
		if v := c.s.Annotations[key]; v != "" {
			c.nameValue(CodePrefixID, key, v, PublicIPPrefixIDProblem(v), "the full ID of a public IP prefix, as az network public-ip prefix show --query id prints it")
		}
	}
	c.tags()
	c.plsLists()
	c.serviceTags()
	c.requestPaths()
}

// nameRule is ARM's name rule in a hint's words.
const nameRule = "1 to 80 letters, digits, _ . and -, starting and ending with a letter, digit or _"

// nameValue reports one refused value.
func (c nameRules) nameValue(code, key, value, problem, hint string) {
	if problem == "" {
		return
	}
	c.add(c.s.annValueDiag(code, key, fmt.Sprintf("%s: %s %s; ARM refuses it", key, quote.Value(value), problem), "use "+hint))
}

// identity checks the Service's own name, namespace and UID, which CCM
// writes into tags (namespace/name) and every generated name (the UID);
// the API server would refuse the manifest anyway.
func (c nameRules) identity() {
	s := c.s
	if p := dns1035Problem(s.Name); p != "" {
		c.add(s.diag(CodeObjectName, "metadata.name", fmt.Sprintf("Service name %s %s: the API server refuses it", quote.Value(s.Name), p),
			"use at most 63 lower-case letters, digits and -, starting with a letter"))
	}
	if s.Namespace != "" {
		if p := dns1123Problem(s.Namespace); p != "" {
			c.add(s.diag(CodeObjectName, "metadata.namespace", fmt.Sprintf("namespace %s %s: the API server refuses it", quote.Value(s.Namespace), p),
				"use at most 63 lower-case letters, digits and -, starting and ending with a letter or digit"))
		}
	}
	if uid := string(s.UID); uid != "" && !IsSubscriptionID(uid) {
		c.add(s.diag(CodeUID, "metadata.uid", fmt.Sprintf("metadata.uid %s is not a UUID, which an API server never issues; "+
			"CCM would accept it and start the names of this Service's frontend, rules and probes with %s "+
			"(\"a\" and the UID without dashes, cut to %d characters)", quote.Value(uid), quote.Value(plan.UIDPrefixOf(uid)), plan.UIDPrefixLen),
			"copy the uid from kubectl get service -o yaml, or remove it (azsvc then derives a stable one)"))
	}
}

// dns1035Problem is the API server's rule for Service names: a DNS-1035
// label (at most 63 characters of [a-z0-9-], starting with a letter and
// ending with a letter or digit).
func dns1035Problem(s string) string {
	if p := dns1123Problem(s); p != "" {
		return p
	}
	if s[0] < 'a' || s[0] > 'z' {
		return "does not start with a letter"
	}
	return ""
}

// dns1123Problem is a DNS-1123 label: at most 63 characters of [a-z0-9-],
// starting and ending with a letter or digit.
func dns1123Problem(s string) string {
	switch p := charProblem(s, isDNSChar); {
	case p != "":
		return p
	case s == "" || len(s) > 63:
		return fmt.Sprintf("is %d characters long; it must have 1 to 63", len(s))
	case s[0] == '-' || s[len(s)-1] == '-':
		return "starts or ends with \"-\""
	}
	return ""
}

// tags checks azure-pip-tags and azure-pip-ip-tags after CCM's parsing
// (pairs CCM drops are AZSVC3008): ARM's tag limits, and room for the
// three tags CCM adds itself (k8s-azure-service, -cluster-name,
// -dns-label-service; ccm-semantics §2.3).
func (c nameRules) tags() {
	if v, ok := c.s.Annotations[AnnPIPTags]; ok {
		tags, _ := ParseTags(v)
		for _, k := range sortedKeys(tags) {
			if p := TagKeyProblem(k); p != "" {
				c.add(c.s.annValueDiag(CodeTag, AnnPIPTags, fmt.Sprintf("%s: tag name %s %s; ARM refuses it", AnnPIPTags, quote.Value(k), p), "use tag names of at most 512 characters without < > % & \\ ? /"))
			}
			if p := TagValueProblem(tags[k]); p != "" {
				c.add(c.s.annValueDiag(CodeTag, AnnPIPTags, fmt.Sprintf("%s: the value of tag %s %s; ARM refuses it", AnnPIPTags, quote.Value(k), p), "use tag values of at most 256 characters"))
			}
		}
		if len(tags) > MaxTags-3 {
			c.add(c.s.annValueDiag(CodeTag, AnnPIPTags, fmt.Sprintf("%s: %d tags, and CCM adds up to 3 more: ARM allows %d per resource", AnnPIPTags, len(tags), MaxTags),
				fmt.Sprintf("use at most %d tags", MaxTags-3)))
		}
	}
	if v, ok := c.s.Annotations[AnnPIPIPTags]; ok {
		tags, _ := ParseIPTags(v)
		for _, k := range sortedKeys(tags) {
			if p := controlProblem(k + tags[k]); p != "" {
				c.add(c.s.annValueDiag(CodeTag, AnnPIPIPTags, fmt.Sprintf("%s: IP tag %s %s; ARM refuses it", AnnPIPIPTags, quote.Value(k), p), "write type=tag pairs, e.g. FirstPartyUsage=/NonProd"))
			}
		}
	}
}

// plsLists checks the space-separated PLS lists. CCM splits them on spaces
// only (§1.3 #34, #36, #37), so "a, b" holds the entry "a,", which no
// FQDN or subscription ID can be.
func (c nameRules) plsLists() {
	if !c.has(AnnPLSFQDNs) && !c.has(AnnPLSVisibility) && !c.has(AnnPLSAutoApproval) {
		return
	}
	check := func(key, what, hint string, problem func(string) string) {
		v, ok := c.s.Annotations[key]
		if !ok {
			return
		}
		for _, item := range SplitSpace(v) {
			p := problem(item)
			if p == "" {
				continue
			}
			h := hint
			if strings.Contains(item, ",") {
				p, h = "holds a comma: CCM splits this list on spaces only, so it reads the entry as written", "separate the entries with spaces, not commas"
			}
			c.add(c.s.annValueDiag(code(key), key, fmt.Sprintf("%s: %s %s %s", key, what, quote.Value(item), p), h))
		}
	}
	check(AnnPLSFQDNs, "FQDN", "list DNS names separated by spaces", FQDNProblem)
	check(AnnPLSVisibility, "subscription", "list subscription IDs (GUIDs) separated by spaces, or *", func(s string) string {
		if s == "*" || IsSubscriptionID(s) {
			return ""
		}
		return "is not a subscription ID (a GUID) or *"
	})
	check(AnnPLSAutoApproval, "subscription", "list subscription IDs (GUIDs) separated by spaces", func(s string) string {
		if IsSubscriptionID(s) {
			return ""
		}
		return "is not a subscription ID (a GUID)"
	})
}

func code(key string) string {
	if key == AnnPLSFQDNs {
		return CodeFQDN
	}
	return CodeSubscriptionID
}

// serviceTags checks azure-allowed-service-tags entries, split on commas
// and trimmed as CCM does (§1.3 #7); each becomes an NSG rule's source.
func (c nameRules) serviceTags() {
	for _, tag := range c.s.AllowedServiceTags() {
		p := ServiceTagProblem(tag)
		if p == "" {
			continue
		}
		hint := "list service tags such as Internet or AzureFrontDoor.Backend, separated by commas"
		if strings.Contains(tag, " ") {
			p = "holds a space: CCM splits this list on commas only, so it reads one entry"
			hint = listHint(tag, hint, hint)
		}
		c.add(c.s.annValueDiag(CodeServiceTag, AnnAllowedServiceTags, fmt.Sprintf("%s: service tag %s %s", AnnAllowedServiceTags, quote.Value(tag), p), hint))
	}
}

// requestPaths checks every probe request path annotation (§1.3 #15, §1.4
// #44): ARM sends it as the path of an HTTP request.
func (c nameRules) requestPaths() {
	for key, v := range c.s.Annotations {
		if key != AnnProbeRequestPath {
			if _, param, ok := ParsePortKey(key); !ok || param != PortProbeRequestPath {
				continue
			}
		}
		if v != "" {
			c.nameValue(CodeRequestPath, key, v, RequestPathProblem(v), "a URL path such as /healthz, without spaces or control characters")
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
