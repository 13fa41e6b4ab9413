package resolve

import (
	"strconv"
	"strings"

	"github.com/azsvc/azsvc/plan"
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
// the plan does not remove. CCM keeps those ports allowed when a Service
// sharing the ingress IP leaves or changes (ccm-semantics §5.5 step 1,
// listSharedIPPortMapping); azsvc also must not touch what out-of-scope
// Services use (DESIGN.md). A public IP's tags do not tell: a user-assigned
// one has none.
func (r *nsgMerge) retainedPorts() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, e := range r.obs.OfKind(plan.KindRule) {
		if svc, _ := r.out.owners.ServiceOfName(e.R.Name()); svc != "" {
			continue
		}
		if _, gone := r.out.Remove[e.Key]; gone {
			continue
		}
		rule := plan.AsRule(e.R)
		port, ok := rule.FrontendPort()
		if !ok {
			continue
		}
		for _, ip := range r.frontendAddresses(rule.FrontendID()) {
			ip = plan.CanonicalIP(ip)
			if out[ip] == nil {
				out[ip] = map[string]bool{}
			}
			out[ip][plan.ProtocolOf(rule.Protocol()).NSG+"/"+strconv.Itoa(port)] = true
		}
	}
	return out
}

// frontendAddresses are the observed addresses of a frontend: its private
// IP, or the address of its public IP.
func (r *nsgMerge) frontendAddresses(k plan.Key) []string {
	res, ok := r.obs.Get(k)
	if !ok {
		return nil
	}
	fe := plan.AsFrontend(res)
	var out []string
	if ip := fe.PrivateIP(); ip != "" {
		out = append(out, ip)
	}
	if pip, ok := r.obs.Get(plan.KeyOf(fe.PublicIPID())); ok {
		if ip := plan.AsPublicIP(pip).Address(); ip != "" {
			out = append(out, ip)
		}
	}
	return out
}

// servesRetained reports whether an NSG rule allows one of the retained
// ports: its destination ip then stays (ccm-semantics §5.5 step 1). A rule
// whose protocol or ports are "*" matches any.
func servesRetained(r *plan.Resource, ports map[string]bool) bool {
	if len(ports) == 0 {
		return false
	}
	rule := plan.AsSecurityRule(r)
	proto := rule.Protocol()
	ranges := rule.PortRanges()
	for key := range ports {
		p, port, _ := strings.Cut(key, "/")
		if proto != "*" && p != "*" && !strings.EqualFold(proto, p) {
			continue
		}
		for _, rg := range ranges {
			if rg == "*" || rg == port || inPortRange(rg, port) {
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
