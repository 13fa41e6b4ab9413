package desired

import (
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"

	"github.com/azsvc/azsvc/plan"
	"github.com/azsvc/azsvc/plan/service"
)

// PrefixOf is the name prefix of s: CCM's, from metadata.uid, or the
// placeholder of a UID the API server has not assigned yet.
func PrefixOf(s *service.Service) string {
	if s.UID != "" {
		return Prefix(string(s.UID))
	}
	return plan.UIDPlaceholderPrefix(s.Key())
}

// AssignedPorts are the ports of one Service that the input lacks and
// Azure shows (plan/adopt): by NodePortField or
// plan.FieldHealthCheckNodePort.
type AssignedPorts map[string]int32

// placeholders hands out the port placeholders of one build: the same
// number for the same Service port on every run, never one number for two
// unknowns of the build.
type placeholders struct {
	taken map[int32]bool
}

func (p *placeholders) next(v plan.ServerValue) int32 {
	if p.taken == nil {
		p.taken = map[int32]bool{}
	}
	n := plan.PortPlaceholder(v, func(n int32) bool { return p.taken[n] })
	p.taken[n] = true
	return n
}

// withAssigned returns s with the ports the API server assigns filled in
// where the manifest leaves them out: from what Azure holds (known), else
// with placeholders, recorded in unknown. s itself is not changed. Every
// missing nodePort is filled, needed or not: whatever CCM builds from one
// (a probe, a backend port, an NSG port, another port's probe) then reads
// it the way it reads a pinned one, and an unneeded one appears nowhere.
// With allocateLoadBalancerNodePorts false the API server assigns none;
// validate reports the ports that need one (AZSVC2007).
func (p *placeholders) withAssigned(s *service.Service, known AssignedPorts) (*service.Service, map[int32]plan.ServerValue) {
	allocated := s.Spec.AllocateLoadBalancerNodePorts == nil || *s.Spec.AllocateLoadBalancerNodePorts
	missingPort := func(sp corev1.ServicePort) bool { return allocated && sp.NodePort == 0 }
	missingHC := s.ETPLocal() && s.Spec.HealthCheckNodePort == 0
	if !missingHC && !slices.ContainsFunc(s.Spec.Ports, missingPort) {
		return s, nil
	}
	var unknown map[int32]plan.ServerValue
	fill := func(field string) int32 {
		if n, ok := known[field]; ok {
			return n
		}
		v := plan.ServerValue{Service: s.Key(), Field: field}
		n := p.next(v)
		if unknown == nil {
			unknown = map[int32]plan.ServerValue{}
		}
		unknown[n] = v
		return n
	}
	svc := *s.Service
	svc.Spec.Ports = append([]corev1.ServicePort(nil), s.Spec.Ports...)
	for i, sp := range svc.Spec.Ports {
		if missingPort(sp) {
			svc.Spec.Ports[i].NodePort = fill(plan.NodePortField(protoOf(sp), sp.Port))
		}
	}
	if missingHC {
		svc.Spec.HealthCheckNodePort = fill(plan.FieldHealthCheckNodePort)
	}
	c := *s
	c.Service = &svc
	return &c, unknown
}

// portValue is a port as a body holds it: the number, or the marker of a
// value the API server assigns.
func (s *svcInfo) portValue(n int32) any {
	if v, ok := s.unknown[n]; ok {
		return plan.ServerAssigned(v, n)
	}
	return int(n)
}

// portListValue is portValue for the string port lists of NSG rules.
func (s *svcInfo) portListValue(port string) any {
	if len(s.unknown) > 0 {
		if n, err := strconv.ParseInt(port, 10, 32); err == nil {
			if v, ok := s.unknown[int32(n)]; ok {
				return plan.ServerAssignedString(v, int32(n))
			}
		}
	}
	return port
}
