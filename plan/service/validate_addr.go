package service

import (
	"fmt"
	"net/netip"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan/quote"
)

// addresses checks pinned frontend IPs and additional public IPs (§1.3 #19,
// #22, #23; §9 loadBalancerIP).
func (c valueRules) addresses() {
	c.pinned(AnnIPv4, false)
	c.pinned(AnnIPv6, true)
	if lbIP := c.s.Spec.LoadBalancerIP; lbIP != "" {
		if a, err := netip.ParseAddr(lbIP); err != nil {
			c.add(c.s.diag(CodeInvalidIP, "spec.loadBalancerIP",
				fmt.Sprintf("spec.loadBalancerIP %s is not an IP address", quote.Value(lbIP)),
				"write an IP address, or use the azure-load-balancer-ipv4/-ipv6 annotations (loadBalancerIP is deprecated)"))
		} else {
			c.nonPublic("spec.loadBalancerIP", "spec.loadBalancerIP", a)
		}
	}
	c.additionalIPs()
}

// additionalIPs checks azure-additional-public-ips as CCM splits it: on
// ",", each entry untrimmed, so "a, b" holds the entry " b", which
// netip.ParseAddr refuses and CCM fails the Service for (§1.3 #19).
func (c valueRules) additionalIPs() {
	v, ok := c.s.Annotations[AnnAdditionalPublicIPs]
	if !ok {
		return
	}
	for _, item := range SplitCommaUntrimmed(v) {
		if _, err := netip.ParseAddr(item); err == nil {
			continue
		}
		msg := fmt.Sprintf("%s: entry %s is not an IP address: CCM fails the reconcile", AnnAdditionalPublicIPs, quote.Value(item))
		hint := listHint(item, "write IP addresses separated by commas, e.g. 20.62.13.8,20.62.13.9", "write IP addresses separated by commas, e.g. 2001:db8::8,2001:db8::9")
		if trimmed := strings.TrimSpace(item); trimmed != item {
			if _, err := netip.ParseAddr(trimmed); err == nil {
				msg += " (CCM splits the list on \",\" and does not trim the entries)"
				hint = "separate entries with commas only, without spaces: " + strings.Join(splitFields(v), ",")
			}
		}
		c.add(c.s.annValueDiag(CodeInvalidIP, AnnAdditionalPublicIPs, msg, hint))
	}
}

// pinned checks azure-load-balancer-ipv4/-ipv6; an empty value means unset.
func (c valueRules) pinned(key string, ipv6 bool) {
	v := c.s.Annotations[key]
	if v == "" {
		return
	}
	a, err := netip.ParseAddr(v)
	if err != nil {
		c.add(c.s.annValueDiag(CodeInvalidIP, key, fmt.Sprintf("%s: %s is not an IP address", key, quote.Value(v)), "write a single IP address"))
		return
	}
	if a.Unmap().Is4() == ipv6 {
		want := "IPv4"
		if ipv6 {
			want = "IPv6"
		}
		c.add(c.s.annValueDiag(CodeIPFamilyMismatch, key, fmt.Sprintf("%s: %s is not an %s address", key, v, want),
			"use azure-load-balancer-ipv4 for IPv4 and azure-load-balancer-ipv6 for IPv6"))
		return
	}
	c.nonPublic(AnnotationPath(key)+valueSuffix, key, a)
}

// nonPublic flags a pinned address of an external Service that CCM refuses
// as a public frontend (§1.3 #22).
func (c valueRules) nonPublic(path, what string, a netip.Addr) {
	if c.s.InternalForLBChoice() || !IsNonPublicIP(a) {
		return
	}
	d := c.s.diag(CodeNonPublicIP, path,
		fmt.Sprintf("%s: %s is not a public address (private, CGNAT, link-local or 168.63.129.16): CCM refuses it for an external Service", what, a),
		"pin the address of an existing public IP, or make the Service internal with azure-load-balancer-internal: \"true\"")
	d.Field = strings.TrimSuffix(path, valueSuffix)
	c.add(d)
}

// ports checks protocols and health-probe_port values (§3, §1.4 #41).
func (c valueRules) ports() {
	seen := map[string]bool{}
	for i, p := range c.s.Spec.Ports {
		switch p.Protocol {
		case "", corev1.ProtocolTCP, corev1.ProtocolUDP, corev1.ProtocolSCTP:
		default:
			c.add(c.s.diag(CodeProtocol, portPath(i, "protocol"),
				fmt.Sprintf("port %d: protocol %s: only TCP, UDP and SCTP are supported for Azure load balancers", p.Port, quote.Value(string(p.Protocol))),
				"use TCP, UDP or SCTP"))
		}
		key := PortKey(p.Port, PortProbePort)
		if !c.has(key) || seen[key] {
			continue
		}
		seen[key] = true
		if _, _, err := c.s.ProbePort(p); err != nil {
			c.add(c.s.annValueDiag(CodeProbePort, key, err.Error()+": CCM fails the reconcile",
				"name a Service port (spec.ports[].name) or give a port number 0..65535"))
		}
	}
}

func portPath(i int, field string) string {
	return fmt.Sprintf("spec.ports[%d].%s", i, field)
}
