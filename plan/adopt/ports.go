package adopt

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/desired"
	"github.com/azsvc/azsvc/plan/service"
)

// Ports is what Azure holds of the ports the API server assigned to the
// Services whose input lacks them.
type Ports struct {
	// ByService are the ports found, for desired.Options.NodePorts.
	ByService map[string]desired.AssignedPorts
	// Adopted explains each, sorted by Service and field.
	Adopted []plan.AdoptedPort
}

// NodePorts finds, for every LoadBalancer Service of svcs whose ports lack
// a nodePort or whose externalTrafficPolicy Local lacks its
// healthCheckNodePort, the value CCM built into Azure for the same Service
// port (DESIGN.md "Naming needs a Service UID, and probes need node
// ports"): the port of the probe CCM built for that Service port, the
// backend port of its rule with floating IP disabled, the port of the ETP
// Local probe its rules use. Rules are found by CCM's names for the
// Service's prefix (prefixes, from plan/adopt Find, else its UID): a
// Service whose UID is not known yet has nothing in Azure. Where Azure's
// rules and probes disagree, the port stays unknown.
func NodePorts(svcs []*service.Service, observed *plan.State, prefixes map[string]string) Ports {
	wanted := map[string]*service.Service{}
	for _, s := range svcs {
		if !lacksPorts(s) {
			continue
		}
		p := prefixes[s.Key()]
		if p == "" {
			p = desired.PrefixOf(s)
		}
		if !plan.IsUIDPlaceholder(p) {
			wanted[p] = s
		}
	}
	out := Ports{ByService: map[string]desired.AssignedPorts{}}
	if len(wanted) == 0 {
		return out
	}
	rules := map[string][]*plan.Resource{}
	for _, r := range observed.OfKind(plan.KindRule) {
		if p, ok := prefixOf(r.Name()); ok && wanted[p] != nil {
			rules[p] = append(rules[p], r)
		}
	}
	for _, p := range slices.Sorted(maps.Keys(rules)) {
		f := portFinder{s: wanted[p], observed: observed, found: map[string]evidence{}, conflict: map[string]bool{}}
		for _, r := range rules[p] {
			f.rule(r)
		}
		f.report(&out)
	}
	slices.SortFunc(out.Adopted, func(a, b plan.AdoptedPort) int {
		return strings.Compare(a.Service+"\x00"+a.Field, b.Service+"\x00"+b.Field)
	})
	return out
}

// lacksPorts reports a LoadBalancer Service without a port value the API
// server assigns.
func lacksPorts(s *service.Service) bool {
	if s.Spec.Type != corev1.ServiceTypeLoadBalancer || s.Spec.LoadBalancerClass != nil {
		return false
	}
	if s.ETPLocal() && s.Spec.HealthCheckNodePort == 0 {
		return true
	}
	if a := s.Spec.AllocateLoadBalancerNodePorts; a != nil && !*a {
		return false
	}
	return slices.ContainsFunc(s.Spec.Ports, func(p corev1.ServicePort) bool { return p.NodePort == 0 })
}

type evidence struct {
	port    int32
	address string
}

// portFinder reads one Service's rules and the probes they use.
type portFinder struct {
	s        *service.Service
	observed *plan.State
	found    map[string]evidence // by field
	conflict map[string]bool
}

func (f *portFinder) rule(r *plan.Resource) {
	proto, port, ok := portOfRule(r.Name())
	if !ok {
		return
	}
	i := slices.IndexFunc(f.s.Spec.Ports, func(p corev1.ServicePort) bool {
		return strings.EqualFold(protoOf(p), proto) && strconv.Itoa(int(p.Port)) == port
	})
	if i < 0 {
		return
	}
	sp := f.s.Spec.Ports[i]
	rule := plan.AsRule(r)
	if n, ok := rule.BackendPort(); ok && !rule.FloatingIP() && sp.NodePort == 0 {
		f.add(plan.NodePortField(protoOf(sp), sp.Port), n, r.ID.Address())
	}
	probe, ok := f.observed.Get(rule.ProbeID())
	if !ok {
		return
	}
	n, ok := plan.AsProbe(probe).Port()
	if !ok {
		return
	}
	if !strings.EqualFold(probe.Name(), r.Name()) {
		// Not the port's own probe: the ETP Local probe, named after the
		// healthCheckNodePort it targets (§4.2), or the shared one.
		if f.s.ETPLocal() && f.s.Spec.HealthCheckNodePort == 0 && strings.HasSuffix(strings.ToLower(probe.Name()), "-tcp-"+strconv.Itoa(n)) {
			f.add(plan.FieldHealthCheckNodePort, n, probe.ID.Address())
		}
		return
	}
	if t := probeTarget(f.s, sp); t >= 0 && f.s.Spec.Ports[t].NodePort == 0 {
		tp := f.s.Spec.Ports[t]
		f.add(plan.NodePortField(protoOf(tp), tp.Port), n, probe.ID.Address())
	}
}

func (f *portFinder) add(field string, n int, address string) {
	if n < 1 || n > 65535 {
		return
	}
	if e, ok := f.found[field]; ok && int(e.port) != n {
		f.conflict[field] = true
		return
	}
	if _, ok := f.found[field]; !ok {
		f.found[field] = evidence{port: int32(n), address: address}
	}
}

func (f *portFinder) report(out *Ports) {
	key := f.s.Key()
	for _, field := range slices.Sorted(maps.Keys(f.found)) {
		if f.conflict[field] {
			continue
		}
		e := f.found[field]
		if out.ByService[key] == nil {
			out.ByService[key] = desired.AssignedPorts{}
		}
		out.ByService[key][field] = e.port
		out.Adopted = append(out.Adopted, plan.AdoptedPort{Service: key, Field: field, Port: e.port, Evidence: e.address})
	}
}

// probeTarget is the index of the Service port whose nodePort the probe of
// port p targets (Service.ProbePort: the port's own, or the port an
// explicit health-probe_port names by name or number); -1 for a fixed
// port number.
func probeTarget(s *service.Service, p corev1.ServicePort) int {
	v, ok := s.PortAnnotation(p.Port, service.PortProbePort)
	if !ok {
		return slices.IndexFunc(s.Spec.Ports, func(sp corev1.ServicePort) bool { return sp.Port == p.Port && sp.Protocol == p.Protocol })
	}
	return slices.IndexFunc(s.Spec.Ports, func(sp corev1.ServicePort) bool {
		return strings.EqualFold(sp.Name, v) || strconv.Itoa(int(sp.Port)) == v
	})
}

func protoOf(p corev1.ServicePort) string {
	if p.Protocol == "" {
		return string(corev1.ProtocolTCP)
	}
	return string(p.Protocol)
}
