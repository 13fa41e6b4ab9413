package plan

import (
	"strconv"
	"strings"
)

// nsgRelease is what the NSG reconcile may take out of managed rules: the
// released addresses (with the in-scope Services answering for them), except
// in rules that allow a port still served on that address by a rule the
// plan does not answer for.
type nsgRelease struct {
	ips      map[string][]string
	retained map[string]map[string]bool
}

// retainedPorts maps a frontend address to the "<protocol>/<port>" pairs
// that load-balancing rules outside this plan's reach still serve on it:
// rules of Services out of scope (their name has no in-scope prefix) that
// the plan does not delete. CCM keeps those ports allowed when a Service
// sharing the ingress IP leaves or changes (ccm-semantics §5.5 step 1,
// listSharedIPPortMapping); azsvc also must not touch what out-of-scope
// Services use (DESIGN.md). A public IP's tags do not tell: a user-assigned
// one has none.
func (d *differ) retainedPorts() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, e := range ofKind(d.obsList, KindRule) {
		rule := e.r
		if svc, _ := d.owners.serviceOfName(rule.Name()); svc != "" {
			continue
		}
		if c := d.changes[e.key]; c != nil && c.IsDelete() {
			continue
		}
		port, ok := number(rule.Properties["frontendPort"])
		if !ok {
			continue
		}
		proto, _ := rule.Properties["protocol"].(string)
		for _, ip := range d.frontendAddresses(KeyOf(refID(rule.Properties["frontendIPConfiguration"]))) {
			ip = canonicalIP(ip)
			if out[ip] == nil {
				out[ip] = map[string]bool{}
			}
			out[ip][nsgProtocol(proto)+"/"+strconv.Itoa(int(port))] = true
		}
	}
	return out
}

// frontendAddresses are the observed addresses of a frontend: its private
// IP, or the address of its public IP.
func (d *differ) frontendAddresses(fe Key) []string {
	r, ok := d.observed.Get(fe)
	if !ok {
		return nil
	}
	var out []string
	if ip, ok := r.Properties["privateIPAddress"].(string); ok && ip != "" {
		out = append(out, ip)
	}
	if pip, ok := d.observed.Get(KeyOf(refID(r.Properties["publicIPAddress"]))); ok {
		if ip, ok := pip.Properties["ipAddress"].(string); ok && ip != "" {
			out = append(out, ip)
		}
	}
	return out
}

// nsgProtocol maps an LB rule protocol to the NSG rule protocol CCM
// derives from it (ccm-semantics §5.2: Tcp, Udp, * for the rest).
func nsgProtocol(p string) string {
	switch strings.ToLower(p) {
	case "tcp":
		return "Tcp"
	case "udp":
		return "Udp"
	}
	return "*"
}

// servesRetained reports whether an NSG rule allows one of the retained
// ports: its destination ip then stays (ccm-semantics §5.5 step 1). A rule
// whose protocol or ports are "*" matches any.
func servesRetained(rule *Resource, ports map[string]bool) bool {
	if len(ports) == 0 {
		return false
	}
	proto, _ := rule.Properties["protocol"].(string)
	var ranges []string
	if s, ok := rule.Properties["destinationPortRange"].(string); ok && s != "" {
		ranges = append(ranges, s)
	}
	if l, ok := rule.Properties["destinationPortRanges"].([]any); ok {
		for _, v := range l {
			if s, ok := v.(string); ok {
				ranges = append(ranges, s)
			}
		}
	}
	for key := range ports {
		p, port, _ := strings.Cut(key, "/")
		if proto != "*" && p != "*" && !strings.EqualFold(proto, p) {
			continue
		}
		for _, r := range ranges {
			if r == "*" || r == port || inPortRange(r, port) {
				return true
			}
		}
	}
	return false
}

func inPortRange(r, port string) bool {
	lo, hi, ok := strings.Cut(r, "-")
	if !ok {
		return false
	}
	l, err1 := strconv.Atoi(lo)
	h, err2 := strconv.Atoi(hi)
	p, err3 := strconv.Atoi(port)
	return err1 == nil && err2 == nil && err3 == nil && l <= p && p <= h
}
