package adopt

import (
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// frontendClue is a frontend that ARM links to a Service. Exclusive clues
// (a public IP tagged with this Service alone, a PLS it owns) name the
// frontend's owner; shared ones (an address several Services pin) only
// narrow the search to the frontend's rules.
type frontendClue struct {
	frontend  *plan.Resource
	via       string // the address of the resource that links it
	exclusive bool
}

// candidates maps every prefix ARM's marks give s to the addresses that
// show it. Rules on the Service's frontends whose protocol and port are
// the Service's are the best evidence: two Services may share a frontend
// but never a port on it (§3). Without such a rule, the name of a
// frontend or managed public IP that is the Service's alone decides.
func (m *marks) candidates(s *service.Service) map[string][]string {
	clues, pips := m.frontendClues(s)
	found := map[string][]string{}
	ports := servicePorts(s)
	for _, c := range clues {
		for _, r := range m.rulesByFront[c.frontend.Key()] {
			p, ok := prefixOf(r.Name())
			if !ok {
				continue
			}
			if proto, port, ok := portOfRule(r.Name()); ok && ports[proto+"/"+port] {
				found[p] = appendUnique(found[p], r.ID.Address())
			}
		}
	}
	if len(found) > 0 {
		return found
	}
	for _, c := range clues {
		if p, ok := prefixOf(c.frontend.Name()); ok && c.exclusive {
			found[p] = appendUnique(found[p], c.frontend.ID.Address(), c.via)
		}
	}
	if len(found) > 0 {
		return found
	}
	// A managed public IP left without a frontend still carries the
	// prefix in its name; adopting it reuses the address.
	for _, pip := range pips {
		if p, ok := pipPrefix(pip.Name(), m.cluster); ok {
			found[p] = appendUnique(found[p], pip.ID.Address())
		}
	}
	return found
}

// frontendClues gathers the frontends linked to s, and the managed public
// IPs whose tag names s alone.
func (m *marks) frontendClues(s *service.Service) ([]frontendClue, []*plan.Resource) {
	var clues []frontendClue
	var own []*plan.Resource
	for _, pip := range m.pipsByService[s.Key()] {
		v, _ := plan.TagValue(pip.Tags, plan.TagService, plan.LegacyTagService)
		alone := len(plan.SplitServices(v)) == 1
		if alone {
			own = append(own, pip)
		}
		for _, fe := range m.frontendsByPIP[pip.Key()] {
			clues = append(clues, frontendClue{fe, pip.ID.Address(), alone})
		}
	}
	for _, pls := range m.plsByOwner[s.Key()] {
		for _, k := range plan.AsPrivateLinkService(pls).FrontendIDs() {
			if fe, ok := m.frontends[k]; ok {
				clues = append(clues, frontendClue{fe, pls.ID.Address(), true})
			}
		}
	}
	for _, ip := range addressesOf(s) {
		for _, fe := range m.frontendsByIP[ip] {
			clues = append(clues, frontendClue{frontend: fe, via: fe.ID.Address()})
		}
		for _, pip := range m.pipsByAddress[ip] {
			for _, fe := range m.frontendsByPIP[pip.Key()] {
				clues = append(clues, frontendClue{frontend: fe, via: pip.ID.Address()})
			}
		}
	}
	return clues, own
}

// addressesOf are the addresses a Service pins and the ones its status
// reports (a manifest exported with kubectl get -o yaml keeps its status).
func addressesOf(s *service.Service) []string {
	var out []string
	for _, v6 := range []bool{false, true} {
		if ip := s.LoadBalancerIP(v6); ip != "" {
			out = append(out, plan.CanonicalIP(ip))
		}
	}
	for _, in := range s.Status.LoadBalancer.Ingress {
		if in.IP != "" {
			out = append(out, plan.CanonicalIP(in.IP))
		}
	}
	return plan.SortedUnique(out)
}

// servicePorts are the "proto/port" pairs of the rule names CCM would give
// s, lower-cased (getLoadBalancerRuleName uses the port's protocol).
func servicePorts(s *service.Service) map[string]bool {
	out := map[string]bool{}
	for _, p := range s.Spec.Ports {
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		out[strings.ToLower(string(proto))+"/"+strconv.Itoa(int(p.Port))] = true
	}
	return out
}

func appendUnique(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}
