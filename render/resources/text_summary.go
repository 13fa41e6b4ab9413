package resources

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
)

// assigned is how offline output shows a value only Azure assigns: it
// is not "known after apply" here, since nothing is applied (issue 16).
const assigned = "(assigned by Azure)"

// value renders a property value: values Azure assigns as "(assigned by
// Azure)", saying whose when copied from another resource, lists joined
// with commas, references by their last name segment.
func value(v any) string {
	switch t := v.(type) {
	case nil:
		return "-"
	case string:
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = value(x)
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		if id, ok := t["id"]; ok {
			return refValue(id)
		}
	}
	if plan.IsUnknown(v) {
		return unknownValue(v)
	}
	return fmt.Sprint(v)
}

// unknownValue words a value only known once Azure has it: assigned to
// this resource, copied from another's, or the node IPs of a pool.
func unknownValue(v any) string {
	if pool, ok := plan.ParseBackendNodeIPs(v); ok {
		return "(the node IPs in backend pool " + lastSegment(string(pool)) + ")"
	}
	if _, addr, ok := plan.ParsePublicIPByAddress(v); ok {
		return "(the public IP with address " + addr + ")"
	}
	if src, field, ok := plan.UnknownSource(v); ok {
		return fmt.Sprintf("(%s of %s, assigned by Azure)", field, lastSegment(string(src)))
	}
	return assigned
}

func lastSegment(s string) string { return plan.ShowName(s[strings.LastIndex(s, "/")+1:]) }

func refValue(id any) string {
	if _, addr, ok := desired.ByAddress(id); ok {
		return "the public IP with address " + addr
	}
	if s, ok := id.(string); ok {
		return lastSegment(s)
	}
	return value(id)
}

// summary is the one-line description of a child resource, "" for none.
func (tw *textWriter) summary(r *plan.Resource) string {
	p := r.Properties
	var text string
	switch r.Kind() {
	case plan.KindFrontend:
		if pip, ok := p["publicIPAddress"]; ok {
			text = "public IP " + value(pip)
		} else {
			text = fmt.Sprintf("private IP %s (%s, %s) in subnet %s", value(p["privateIPAddress"]),
				value(p["privateIPAllocationMethod"]), value(p["privateIPAddressVersion"]), value(p["subnet"]))
		}
	case plan.KindRule:
		text = ruleSummary(p)
	case plan.KindProbe:
		text = fmt.Sprintf("%s port %s", value(p["protocol"]), value(p["port"]))
		if path, ok := p["requestPath"]; ok {
			text += " path " + value(path)
		}
		text += fmt.Sprintf(", every %ss, %s failures", value(p["intervalInSeconds"]), value(p["probeThreshold"]))
	case plan.KindSecurityRule:
		text = nsgSummary(p)
	case plan.KindSubnet:
		// azsvc owns only this one field of a subnet (ccm-semantics §8).
		text = "private link service network policies " + value(p["privateLinkServiceNetworkPolicies"]) + " (set before the PLS is created)"
	case plan.KindVNetLink:
		text = "virtual network " + value(p["virtualNetwork"]) + ", registration " + onOff(p["registrationEnabled"])
	case plan.KindARecord:
		text = fmt.Sprintf("-> %s, TTL %s", value(plan.AsARecord(r).Addresses()), value(p["ttl"]))
	case plan.KindPLSConnection:
		text = "approve the connection of private endpoint " + value(p["privateEndpoint"])
	default:
		return ""
	}
	return text
}

func ruleSummary(p map[string]any) string {
	parts := []string{fmt.Sprintf("%s %s -> %s", value(p["protocol"]), value(p["frontendPort"]), value(p["backendPort"])),
		"frontend " + value(p["frontendIPConfiguration"]), "pool " + value(p["backendAddressPool"])}
	if probe, ok := p["probe"]; ok {
		parts = append(parts, "probe "+value(probe))
	} else {
		parts = append(parts, "no probe")
	}
	parts = append(parts, "floating IP "+onOff(p["enableFloatingIP"]), "idle "+value(p["idleTimeoutInMinutes"])+"m")
	if reset, ok := p["enableTcpReset"]; ok {
		parts = append(parts, "TCP reset "+onOff(reset))
	}
	if p["loadDistribution"] != "Default" {
		parts = append(parts, "distribution "+value(p["loadDistribution"]))
	}
	if p["disableOutboundSnat"] == true {
		parts = append(parts, "outbound SNAT off")
	}
	return strings.Join(parts, ", ")
}

func nsgSummary(p map[string]any) string {
	src := first(p, "sourceAddressPrefix", "sourceAddressPrefixes")
	dst := first(p, "destinationAddressPrefix", "destinationAddressPrefixes")
	ports := first(p, "destinationPortRanges", "destinationPortRange")
	text := fmt.Sprintf("%s %s from %s to %s ports %s", value(p["access"]), value(p["protocol"]), value(src), value(dst), value(ports))
	if prio, ok := p["priority"]; ok {
		return text + ", priority " + value(prio)
	}
	return text + ", priority assigned at plan time"
}

func first(p map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := p[k]; ok {
			return v
		}
	}
	return nil
}

func onOff(v any) string {
	if v == true {
		return "on"
	}
	return "off"
}

// details are the lines under a top-level resource: PIP settings and tags,
// PLS settings.
func (tw *textWriter) details(r *plan.Resource) []string {
	p := r.Properties
	var out []string
	switch r.Kind() {
	case plan.KindPublicIP:
		out = append(out, fmt.Sprintf("address %s (%s, %s)", value(p["ipAddress"]), value(p["publicIPAllocationMethod"]), value(p["publicIPAddressVersion"])))
		if dns, ok := p["dnsSettings"].(map[string]any); ok {
			out = append(out, "DNS label "+value(dns["domainNameLabel"]))
		}
		if tags, ok := p["ipTags"].([]any); ok {
			var ts []string
			for _, t := range tags {
				m, _ := t.(map[string]any)
				ts = append(ts, value(m["ipTagType"])+"="+value(m["tag"]))
			}
			out = append(out, "IP tags "+strings.Join(ts, ", "))
		}
		if prefix, ok := p["publicIPPrefix"]; ok {
			out = append(out, "prefix "+value(prefix))
		}
	case plan.KindPrivateLinkService:
		out = append(out, plsDetails(p)...)
	case plan.KindPrivateEndpoint:
		out = append(out, peDetails(r)...)
	}
	if len(r.Tags) > 0 {
		out = append(out, "tags "+tagList(r.Tags))
	}
	for i := range out {
		out[i] = tw.s.Dim(out[i])
	}
	return out
}

func plsDetails(p map[string]any) []string {
	out := []string{"frontend " + value(p["loadBalancerFrontendIpConfigurations"])}
	if cfgs, ok := p["ipConfigurations"].([]any); ok {
		for _, c := range cfgs {
			m, _ := c.(map[string]any)
			props, _ := m["properties"].(map[string]any)
			addr := ""
			if ip, ok := props["privateIPAddress"]; ok {
				addr = " " + value(ip)
			}
			line := fmt.Sprintf("NAT IP %s: %s%s in subnet %s", value(m["name"]), value(props["privateIPAllocationMethod"]),
				addr, value(props["subnet"]))
			if props["primary"] == true {
				line += " (primary)"
			}
			out = append(out, line)
		}
	}
	// The alias is what consumers connect their private endpoints with.
	out = append(out, "alias "+assigned)
	vis, _ := p["visibility"].(map[string]any)
	auto, _ := p["autoApproval"].(map[string]any)
	out = append(out, "visibility "+orNone(value(vis["subscriptions"])), "auto-approval "+orNone(value(auto["subscriptions"])),
		"FQDNs "+orNone(value(p["fqdns"])), "proxy protocol "+onOff(p["enableProxyProtocol"]))
	return out
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func tagList(tags map[string]string) string {
	keys := slices.Sorted(maps.Keys(tags))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + tags[k]
	}
	return strings.Join(parts, ", ")
}

// peDetails: the subnet, the PLS it connects to and how.
func peDetails(r *plan.Resource) []string {
	pe := plan.AsPrivateEndpoint(r)
	how := "automatic connection"
	if pe.ConnectionList() == plan.ManualConnections {
		how = "manual connection (the PLS owner approves it)"
	}
	target := pe.Target()
	if src, field, ok := plan.UnknownSource(target); ok && field == plan.AliasField {
		target = "the alias of " + src.Address() + " " + assigned
	} else if s, ok := target.(string); ok && strings.HasPrefix(s, "/subscriptions/") {
		target = plan.KeyOf(s).Address()
	}
	return []string{"subnet " + value(r.Properties["subnet"]), fmt.Sprintf("%s to %s", how, value(target)),
		"private IP " + orAssigned(pe.PrivateIP())}
}

func orAssigned(s string) string {
	if s == "" {
		return assigned
	}
	return s
}
