package statusview

import (
	"fmt"
	"strings"

	"github.com/azsvc/azsvc/plan/conditions"
)

// service writes one Service's block.
func (t *textWriter) service(s conditions.Service, source string) {
	t.header("Service", s.Name, source)
	switch s.UID {
	case conditions.UIDFromAzure:
		t.line(1, "UID: taken from Azure (the input has none; CCM's names and tags show it)")
	case conditions.UIDUnknown:
		t.line(1, "UID: unknown (the input has none, and Azure holds nothing CCM built for the Service)")
	}
	if !s.InAzure {
		t.line(1, t.st.Yellow("Nothing in Azure yet: no frontend, rule or private link service of this Service exists."))
	}
	t.conditions(s.Conditions, "")
	for _, lb := range s.LoadBalancers {
		t.loadBalancer(lb, s.PublicIPs)
	}
	for _, p := range s.PublicIPs {
		t.publicIP(p)
	}
	t.securityRules(s.SecurityRules)
	for _, p := range s.PrivateLinkServices {
		t.privateLinkService(p)
	}
}

func (t *textWriter) loadBalancer(lb conditions.LoadBalancer, pips []conditions.PublicIP) {
	h := "Load balancer " + q(lb.Name)
	switch {
	case !lb.Exists:
		h += ": " + missing
	case lb.SKU != "":
		h += " (" + q(lb.SKU) + ")"
	}
	t.line(1, h)
	t.id(2, lb.Resource)
	shown := map[string]bool{}
	for _, fe := range lb.Frontends {
		t.frontend(fe, pips)
		for _, r := range lb.Rules {
			if r.Frontend != "" && strings.EqualFold(r.Frontend, fe.Name) {
				t.rule(3, r)
				shown[r.Address] = true
			}
		}
	}
	for _, r := range lb.Rules {
		if !shown[r.Address] {
			t.rule(2, r)
		}
	}
	for _, p := range lb.Pools {
		t.pool(p)
	}
}

func (t *textWriter) frontend(fe conditions.Frontend, pips []conditions.PublicIP) {
	h := "Frontend " + name(fe.Name) + ": "
	switch {
	case !fe.Exists:
		h += missing
	case fe.PublicIP != "":
		h += orNone(q(fe.IPAddress), "no address yet") + dnsName(fe.PublicIP, pips) + ", public IP " + name(lastName(fe.PublicIP))
	default:
		h += orNone(q(fe.IPAddress), "no address yet") + " (private)"
	}
	if t.wide && len(fe.Zones) > 0 {
		h += ", zones " + q(strings.Join(fe.Zones, ","))
	}
	t.line(2, h)
}

// dnsName is " (fqdn)" of the public IP at address, when it has one.
func dnsName(address string, pips []conditions.PublicIP) string {
	for _, p := range pips {
		if p.Address == address && p.FQDN != "" {
			return " (" + q(p.FQDN) + ")"
		}
	}
	return ""
}

func (t *textWriter) rule(depth int, r conditions.Rule) {
	h := "Rule " + name(r.Name) + ": "
	if !r.Exists {
		t.line(depth, h+missing)
		return
	}
	h += fmt.Sprintf("%s %d -> %d", q(r.Protocol), r.FrontendPort, r.BackendPort)
	if r.Probe != nil {
		h += ", probe " + t.probe(*r.Probe)
	}
	if t.wide {
		h += fmt.Sprintf(", floating IP %s, idle timeout %d min", onOff(r.FloatingIP), r.IdleTimeout)
		if len(r.Pools) > 0 {
			h += ", backend pool " + q(strings.Join(r.Pools, ", "))
		}
	}
	t.line(depth, h)
}

func (t *textWriter) probe(p conditions.Probe) string {
	if !p.Exists {
		return name(p.Name) + " " + missing
	}
	s := fmt.Sprintf("%s %d", q(p.Protocol), p.Port)
	if p.RequestPath != "" {
		s += " " + q(p.RequestPath)
	}
	if t.wide {
		s += fmt.Sprintf(" every %d s, threshold %d", p.IntervalSeconds, p.Threshold)
	}
	return s
}

func (t *textWriter) pool(p conditions.Pool) {
	h := "Backend pool " + q(p.Name) + ": "
	switch {
	case !p.Exists:
		h += missing
	case p.Members == nil:
		h += "members not read (the nodes' NICs join it)"
	case *p.Members == 1:
		h += "1 member"
	default:
		h += fmt.Sprintf("%d members", *p.Members)
	}
	if t.wide && len(p.MemberAddresses) > 0 {
		h += ": " + q(strings.Join(p.MemberAddresses, ", "))
	}
	t.line(2, h)
}

func (t *textWriter) publicIP(p conditions.PublicIP) {
	h := "Public IP " + name(p.Name) + ": "
	if !p.Exists {
		t.line(1, h+missing)
		return
	}
	h += orNone(q(p.IPAddress), "no address yet")
	if p.FQDN != "" {
		h += " (" + q(p.FQDN) + ")"
	}
	if t.wide && p.SKU != "" {
		h += ", " + q(p.SKU)
	}
	t.line(1, h)
	t.id(2, p.Resource)
}

// securityRules writes the NSG rules, grouped by NSG.
func (t *textWriter) securityRules(rules []conditions.SecurityRule) {
	nsg := ""
	for _, r := range rules {
		if r.SecurityGroup != nsg {
			nsg = r.SecurityGroup
			t.line(1, "NSG "+q(nsg))
		}
		h := "Rule " + name(r.Name) + ": "
		if !r.Exists {
			t.line(2, h+missing)
			continue
		}
		h += fmt.Sprintf("%s %s %s from %s to %s, priority %d", q(r.Access), q(r.Protocol), t.more(r.Ports),
			t.more(r.Sources), t.more(r.Destinations), r.Priority)
		t.line(2, h)
	}
}

func (t *textWriter) privateLinkService(p conditions.PrivateLinkService) {
	h := "Private link service " + name(p.Name) + ": "
	if !p.Exists {
		t.line(1, h+missing)
		return
	}
	t.line(1, h+"alias "+orNone(q(p.Alias), "not assigned yet"))
	t.id(2, p.Resource)
	if t.wide {
		t.line(2, fmt.Sprintf("NAT IPs %s; proxy protocol %s", orNone(q(strings.Join(p.NATIPs, ", ")), "none"), onOff(p.ProxyProtocol)))
		t.line(2, "visibility "+orNone(q(strings.Join(p.Visibility, " ")), "none")+"; auto-approval "+orNone(q(strings.Join(p.AutoApproval, " ")), "none"))
		if len(p.FQDNs) > 0 {
			t.line(2, "FQDNs "+q(strings.Join(p.FQDNs, " ")))
		}
	}
	if len(p.Connections) == 0 {
		t.line(2, "Connections: none")
	}
	for _, c := range p.Connections {
		t.line(2, fmt.Sprintf("Connection %s: %s, from %s", q(c.Name), q(c.Status), q(orNone(c.Endpoint, c.EndpointID))))
	}
}

func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// lastName is the last name of an address (pip/NAME).
func lastName(address string) string { return address[strings.LastIndexByte(address, '/')+1:] }
