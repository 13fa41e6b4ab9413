package service

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// portNumbers checks the numbers CCM copies into Azure as they are: ports
// and nodePorts must be 1..65535 (ARM rejects anything else in the LB PUT),
// a port number and protocol may appear once (CCM names rules
// <prefix>-<PROTO>-<port>, so a repeat would collide), and an
// externalTrafficPolicy Local Service needs its healthCheckNodePort for the
// probe (§3, §4) (PlanningGaps checks that one, at plan time).
func (c valueRules) portNumbers() {
	s := c.s
	seen := map[string]int{}
	for i, p := range s.Spec.Ports {
		c.portInRange(portPath(i, "port"), "port", p.Port, false)
		c.portInRange(portPath(i, "nodePort"), "nodePort", p.NodePort, true)
		proto := p.Protocol
		if proto == "" {
			proto = corev1.ProtocolTCP
		}
		key := fmt.Sprintf("%s/%d", proto, p.Port)
		if first, dup := seen[key]; dup {
			c.add(s.diag(CodeDuplicatePort, portPath(i, "port"),
				fmt.Sprintf("port %d/%s is listed twice (spec.ports[%d] and [%d]): the API server rejects it and CCM's rule names would collide", p.Port, proto, first, i),
				"remove one of the two ports"))
			continue
		}
		seen[key] = i
	}
	if s.ETPLocal() {
		c.portInRange("spec.healthCheckNodePort", "healthCheckNodePort", s.Spec.HealthCheckNodePort, true)
	}
}

// PlanningGaps reports the values a plan of s needs that only the API
// server assigns and the manifest leaves out: a nodePort CCM builds a
// rule or probe from, and the healthCheckNodePort of an
// externalTrafficPolicy Local Service (§3, §4). Planning from the manifest
// alone would invent port 0, which Azure rejects half-way through an
// apply, so the planner refuses such a Service instead. In the cluster's
// shared probe mode (sharedProbe) cluster-policy probes need no nodePort.
func (s *Service) PlanningGaps(sharedProbe bool) []Diagnostic {
	c := &checker{s: s}
	allocated := s.Spec.AllocateLoadBalancerNodePorts == nil || *s.Spec.AllocateLoadBalancerNodePorts
	for i, p := range s.Spec.Ports {
		if p.NodePort != 0 || !allocated {
			continue
		}
		if why := c.nodePortUses(p, !sharedProbe || s.ETPLocal()); len(why) > 0 {
			c.add(s.diag(CodeNodePortUnknown, portPath(i, "port"),
				fmt.Sprintf("port %d has no nodePort in the manifest but CCM needs one: %s; the API server assigns it, so azsvc cannot plan it offline", p.Port, strings.Join(why, "; ")),
				"copy the assigned nodePort from kubectl get service -o yaml into spec.ports[].nodePort, or set a health-probe_port annotation to a fixed port"))
		}
	}
	if s.ETPLocal() && s.Spec.HealthCheckNodePort == 0 && c.usesHealthCheckProbe() {
		c.add(s.diag(CodeHealthCheckPort, "spec.externalTrafficPolicy",
			"externalTrafficPolicy: Local without spec.healthCheckNodePort: CCM's probe targets it, and the API server assigns it, so azsvc cannot plan the probe offline",
			"copy the assigned healthCheckNodePort from kubectl get service -o yaml into the manifest"))
	}
	return c.out
}

func (c valueRules) portInRange(path, what string, v int32, zeroOK bool) {
	if (v == 0 && zeroOK) || (v >= 1 && v <= 65535) {
		return
	}
	c.add(c.s.diag(CodePortRange, path,
		fmt.Sprintf("%s %d is outside 1..65535: Azure rejects it in the load balancer", what, v),
		"use a port number between 1 and 65535"))
}

// usesHealthCheckProbe reports whether some port is probed through the
// kube-proxy health check (ETP Local, §4 step 2).
func (c *checker) usesHealthCheckProbe() bool {
	s := c.s
	if s.PLSCreate() && s.PLSProxyProtocol() {
		return false
	}
	for _, p := range s.Spec.Ports {
		if !s.NoLBRule(p.Port) && !s.NoProbeRule(p.Port) && !c.has(PortKey(p.Port, PortProbePort)) {
			return true
		}
	}
	return false
}
